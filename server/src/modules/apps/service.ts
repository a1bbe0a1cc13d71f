import type {
  App,
  AppsList,
  AvailableApp,
  appGetQuery,
  appInstallBody,
  appsListQuery,
  appUpdateBody,
  FieldErrors,
  ParameterDefinition,
} from '@llmor/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { notFound, validationError } from '../../platform/errors';
import type { AppRow } from '../../platform/http/identity';
import { assertPlanAllows } from '../billing/service';
import { checkFunctionConfig } from '../functions/config';
import { configSchemasOf } from '../functions/repo';
import { isKnownIcon } from '../icons/icon-set';
import { vendorApp } from '../vendors/owned';
import { withVendorLock } from '../vendors/repo';
import { type AppManifest, appCatalogue, findManifest } from './catalogue';
import { validateParameters, valueKeyOf } from './parameters';
import { presentApp, readMeta, type StoredAppMeta } from './present';
import * as repo from './repo';

type ListQuery = z.output<typeof appsListQuery>;
type GetQuery = z.output<typeof appGetQuery>;
type InstallBody = z.output<typeof appInstallBody>;
type UpdateBody = z.output<typeof appUpdateBody>;
type Resolve = GetQuery['resolve'];

export async function listApps(ctx: AppContext, vendorId: number, q: ListQuery): Promise<AppsList> {
  const filter = { search: q.search || undefined, types: q.app_type };
  const [rows, total, filtered] = await Promise.all([
    repo.listApps(ctx.db, vendorId, {
      ...filter,
      order: q.order ?? 'created_at',
      dir: q.order_dir ?? (q.order ? 'asc' : 'desc'),
      offset: q.page * q.page_size,
      limit: q.page_size,
    }),
    repo.countApps(ctx.db, vendorId),
    repo.countApps(ctx.db, vendorId, filter),
  ]);
  const withCreator = q.resolve.includes('creator');
  return {
    data: rows.map((r) => presentApp(r.app, withCreator ? { creator: r.creator } : {})),
    total_count: total,
    filter_count: filtered,
  };
}

export async function getApp(ctx: AppContext, app: AppRow, resolve: Resolve): Promise<App> {
  const [creator, functions] = await Promise.all([
    resolve.includes('creator') ? repo.findCreator(ctx.db, app.createdBy) : undefined,
    resolve.includes('functions') ? repo.listAppFunctions(ctx.db, app.vendorId, app.id) : undefined,
  ]);
  return presentApp(app, { creator, functions });
}

/** The app as stored now, with its creator and functions (after a write). */
const reread = async (ctx: AppContext, vendorId: number, appId: number) =>
  getApp(ctx, await vendorApp(ctx.db, vendorId, appId), ['creator', 'functions']);

/** The catalogue as `GET …/apps/available` answers it: app_key → {name, description, type, icon}. */
export function availableApps(): Record<string, AvailableApp> {
  const out: Record<string, AvailableApp> = {};
  for (const m of appCatalogue().values()) {
    out[m.app_key] = { name: m.name, description: m.description, type: m.type, icon: m.icon };
  }
  return out;
}

/** The app's icon: its `select.icon` parameter when set, else the manifest's (or the stored) icon. */
function metaFor(manifest: AppManifest | null, parameters: Record<string, unknown>, current: StoredAppMeta) {
  const iconDef = manifest?.parameters.find((d) => d.type === 'select.icon');
  const chosen = iconDef ? parameters[valueKeyOf(iconDef)!] : undefined;
  return {
    icon: typeof chosen === 'string' && chosen !== '' ? `icon:${chosen}` : (manifest?.icon ?? current.icon),
    icon_is_standalone: manifest?.icon_is_standalone ?? current.icon_is_standalone,
  };
}

/** Defaults merged with `given`, validated per definition; field errors under `parameters`. */
function checkParameters(
  manifest: AppManifest,
  given: Record<string, unknown> | undefined,
): { value: Record<string, unknown> } | { errors: FieldErrors } {
  const result = validateParameters(
    manifest.parameters,
    { ...manifest.defaults, ...given },
    { isIcon: isKnownIcon },
  );
  return result.ok ? { value: result.value } : { errors: result.errors };
}

export async function installApp(
  ctx: AppContext,
  vendorId: number,
  userId: number,
  body: InstallBody,
): Promise<App> {
  const manifest = findManifest(body.app_key);
  if (!manifest) throw validationError({ app_key: 'Unknown app' });
  const checked = checkParameters(manifest, body.parameters);
  if ('errors' in checked) throw validationError({ parameters: checked.errors });
  // Answering out of the box beats a first message that fails: start with the vendor's first chat model.
  const completionVendorModelId = await repo.firstVendorChatModelId(ctx.db, vendorId);
  const row = await withVendorLock(ctx.db, vendorId, async (tx) => {
    await assertPlanAllows(ctx, tx, vendorId, 'apps');
    return repo.insertApp(tx, vendorId, {
      appKey: manifest.app_key,
      type: manifest.type,
      name: manifest.name,
      description: manifest.description,
      parameters: checked.value,
      meta: metaFor(manifest, checked.value, { icon: null, icon_is_standalone: false }),
      completionVendorModelId,
      createdBy: userId,
    });
  });
  return getApp(ctx, row, ['creator', 'functions']);
}

export async function updateApp(
  ctx: AppContext,
  vendorId: number,
  app: AppRow,
  body: UpdateBody,
): Promise<App> {
  const appId = app.id;
  const errors: FieldErrors = {};
  const changes: repo.AppChanges = { name: body.name };
  if (body.description !== undefined) changes.description = body.description;

  if (body.parameters !== undefined) {
    const manifest = findManifest(app.appKey);
    // An app whose manifest left the catalogue keeps free-form parameters.
    const checked = manifest ? checkParameters(manifest, body.parameters) : { value: body.parameters };
    if ('errors' in checked) errors.parameters = checked.errors;
    else {
      changes.parameters = checked.value;
      changes.meta = metaFor(manifest, checked.value, readMeta(app.meta));
    }
  }

  if (body.completion_vendor_model_id !== undefined) {
    const modelId = body.completion_vendor_model_id;
    if (modelId !== null && !(await repo.isVendorChatModel(ctx.db, vendorId, modelId))) {
      errors.completion_vendor_model_id = 'Must be one of your chat completion models';
    } else changes.completionVendorModelId = modelId;
  }

  let functionsData: { functionId: number; config: Record<string, unknown> }[] | undefined;
  if (body.functions !== undefined) {
    const ids = body.functions.map((f) => f.id);
    const duplicates = [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];
    const known = await repo.installableFunctionIds(ctx.db, vendorId, appId, ids);
    const unknown = [...new Set(ids.filter((id) => !known.has(id)))];
    if (unknown.length > 0) errors.functions = { functions_data: `Unknown function: ${unknown.join(', ')}` };
    else if (duplicates.length > 0) {
      errors.functions = { functions_data: `Listed more than once: ${duplicates.join(', ')}` };
    } else {
      // Each config must satisfy its function's config schema (docs/reference/rules.md: `function_config.<id>`).
      const schemas = await configSchemasOf(ctx.db, vendorId, ids);
      const configErrors: Record<string, string> = {};
      for (const f of body.functions) {
        const problem = checkFunctionConfig(schemas.get(f.id), f.config ?? {});
        if (problem) configErrors[String(f.id)] = problem;
      }
      if (Object.keys(configErrors).length > 0) errors.function_config = configErrors;
      else functionsData = body.functions.map((f) => ({ functionId: f.id, config: f.config ?? {} }));
    }
  }

  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (!(await repo.updateApp(ctx.db, vendorId, appId, changes, functionsData))) throw notFound('App');
  return reread(ctx, vendorId, appId);
}

export async function deleteApp(ctx: AppContext, vendorId: number, appId: number): Promise<void> {
  if (!(await repo.deleteApp(ctx.db, vendorId, appId))) throw notFound('App');
}

/** The Configuration form's definitions for an app (empty when its manifest left the catalogue). */
export function parameterDefinitions(app: AppRow): ParameterDefinition[] {
  return findManifest(app.appKey)?.parameters ?? [];
}
