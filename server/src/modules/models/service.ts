import {
  type AvailableModel,
  type AvailableModelsQuery,
  ErrorCode,
  type InstalledModel,
  type InstalledModelDetail,
  type ListEnvelope,
  MODEL_PICKER_LIMIT,
  type ModelSearchQuery,
  type ModelsListQuery,
  type ParameterSchema,
  type VendorModelPick,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { notFound, validationError } from '../../platform/errors';
import { OutboundRefused } from '../../platform/outbound/guard';
import type { VendorRow } from '../vendors/repo';
import { CATALOGUE, type CatalogueEntry, catalogueEntry } from './catalogue';
import { checkParameters, failureSchema } from './parameters';
import { presentAvailable, presentDetail, presentInstalled, presentPick } from './present';
import {
  countVendorModels,
  deleteVendorModel,
  findVendorModel,
  insertVendorModel,
  listVendorModels,
  searchVendorModels,
  type VendorModelRow,
} from './repo';

const INSTALL_VALIDATION_MESSAGE = 'The model parameters are invalid.';

function matches(entry: CatalogueEntry, search: string): boolean {
  const s = search.toLowerCase();
  return [entry.id, entry.name, entry.description, entry.provider].some((f) => f.toLowerCase().includes(s));
}

export function listAvailable(vendor: VendorRow, q: AvailableModelsQuery): ListEnvelope<AvailableModel> {
  const filtered = CATALOGUE.filter(
    (e) => (!q.type || e.type === q.type) && (!q.search || matches(e, q.search)),
  );
  return {
    data: filtered.slice(0, q.limit).map((e) => presentAvailable(e, vendor.currency)),
    total_count: CATALOGUE.length,
    filter_count: filtered.length,
  };
}

/** The name an installed model gets: the catalogue name, plus the model for a generic server. */
function installedName(entry: CatalogueEntry, parameters: Record<string, unknown>): string {
  // The model the user named (or, on Azure, the deployment) tells installs of one entry apart.
  const named = entry.provider === 'azure' ? parameters.deployment : parameters.model;
  return entry.providerModel === undefined && typeof named === 'string'
    ? `${named} (${entry.name})`
    : entry.name;
}

function openSecrets(ctx: AppContext, row: VendorModelRow): Record<string, string> {
  if (!row.secretEnc) return {};
  try {
    return JSON.parse(ctx.secretBox.open(row.secretEnc)) as Record<string, string>;
  } catch {
    // A key sealed under another ENCRYPTION_KEY: the model needs reinstalling; show no hint.
    return {};
  }
}

function invalidParameters(schema: ParameterSchema) {
  return validationError(
    { parameters: schema } as never,
    INSTALL_VALIDATION_MESSAGE,
    ErrorCode.MODEL_PARAMETER_VALIDATION_FAILED,
  );
}

/**
 * A base URL on a network the operator has not opened is refused at install, as a field error
 * (ADR 0020). Every request checks again: the name may resolve elsewhere later.
 */
async function checkBaseUrl(ctx: AppContext, entry: CatalogueEntry, parameters: Record<string, unknown>) {
  if (typeof parameters.base_url !== 'string') return;
  try {
    await ctx.outbound.checkUrl(parameters.base_url);
  } catch (err) {
    if (!(err instanceof OutboundRefused)) throw err;
    throw invalidParameters(failureSchema(entry, parameters, { base_url: err.message }));
  }
}

/** A vendor's installation of the catalogue's `modelKey` with the `parameters` its installer submitted. */
interface ModelInstall {
  modelKey: string;
  parameters: Record<string, unknown>;
  /** The installing user (the row's `createdBy`). */
  userId: number;
}

export async function installModel(
  ctx: AppContext,
  vendor: VendorRow,
  { modelKey, parameters: submitted, userId }: ModelInstall,
): Promise<InstalledModelDetail> {
  const entry = catalogueEntry(modelKey);
  if (!entry) throw notFound('Model');
  const check = checkParameters(entry, submitted);
  if (!check.ok) throw invalidParameters(check.schema);
  const oneOf = entry.oneOfRequired;
  if (oneOf && !oneOf.some((k) => k in check.parameters)) {
    const titles = oneOf.map((k) => entry.schema.properties[k]!.title).join(', ');
    throw invalidParameters(
      failureSchema(entry, check.parameters, { [oneOf[0]!]: `Give one of: ${titles}.` }),
    );
  }
  await checkBaseUrl(ctx, entry, check.parameters);
  const cost =
    typeof check.parameters.cost_per_1k === 'number' ? check.parameters.cost_per_1k : entry.costPer1kMinor;
  const row = await insertVendorModel(ctx.db, vendor.id, {
    modelKey: entry.id,
    name: installedName(entry, check.parameters),
    type: entry.type,
    provider: entry.provider,
    image: entry.image,
    parameters: check.parameters,
    secretEnc: Object.keys(check.secrets).length ? ctx.secretBox.seal(JSON.stringify(check.secrets)) : null,
    costPer1kMinor: cost,
    createdBy: userId,
  });
  return presentDetail(row, vendor.currency, entry.description, check.secrets);
}

export async function listInstalled(
  ctx: AppContext,
  vendor: VendorRow,
  q: ModelsListQuery,
): Promise<ListEnvelope<InstalledModel>> {
  const filter = { type: q.type, search: q.search };
  const [rows, total, filtered] = await Promise.all([
    listVendorModels(ctx.db, vendor.id, {
      ...filter,
      offset: q.page * q.page_size,
      limit: q.page_size,
      order: q.order,
      orderDir: q.order_dir,
    }),
    countVendorModels(ctx.db, vendor.id),
    countVendorModels(ctx.db, vendor.id, filter),
  ]);
  return {
    data: rows.map((r) => presentInstalled(r, vendor.currency)),
    total_count: total,
    filter_count: filtered,
  };
}

export async function getInstalled(
  ctx: AppContext,
  vendor: VendorRow,
  id: number,
): Promise<InstalledModelDetail> {
  const row = await findVendorModel(ctx.db, vendor.id, id);
  if (!row) throw notFound('Model');
  const description = catalogueEntry(row.modelKey)?.description ?? '';
  return presentDetail(row, vendor.currency, description, openSecrets(ctx, row));
}

export async function removeInstalled(ctx: AppContext, vendor: VendorRow, id: number): Promise<void> {
  if (!(await deleteVendorModel(ctx.db, vendor.id, id))) throw notFound('Model');
}

export async function pickInstalled(
  ctx: AppContext,
  vendor: VendorRow,
  q: ModelSearchQuery,
): Promise<{ data: VendorModelPick[] }> {
  const rows = await searchVendorModels(
    ctx.db,
    vendor.id,
    { type: q.type, search: q.search },
    MODEL_PICKER_LIMIT,
  );
  return { data: rows.map((r) => presentPick(r, vendor.currency)) };
}
