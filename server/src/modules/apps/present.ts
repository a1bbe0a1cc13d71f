import type { App, AppFunction, AppType } from '@llmor/contracts';
import { isPlainObject } from '@llmor/contracts';
import type { AppFunctionRow, AppRow, CreatorRow } from './repo';

export interface PresentOptions {
  /** Present `creator` (`undefined`: leave it out; null: the creator was deleted). */
  creator?: CreatorRow | null;
  functions?: AppFunctionRow[];
}

/** What `apps.meta` holds: `{icon, icon_is_standalone}`; presented under `meta.data`. */
export interface StoredAppMeta {
  icon: string | null;
  icon_is_standalone: boolean;
}

export function readMeta(meta: unknown): StoredAppMeta {
  const m = isPlainObject(meta) ? meta : {};
  return {
    icon: typeof m.icon === 'string' ? m.icon : null,
    icon_is_standalone: m.icon_is_standalone === true,
  };
}

function presentAppFunction(row: AppFunctionRow): AppFunction {
  return {
    id: row.id,
    name: row.name,
    function_key: row.functionKey,
    description: row.description,
    runtime: row.runtime,
    config: isPlainObject(row.config) ? row.config : {},
    argument_schema: row.argumentSchema ?? null,
    config_schema: row.configSchema ?? null,
  };
}

export function presentApp(row: AppRow, opts: PresentOptions = {}): App {
  const app: App = {
    id: row.id,
    vendor_id: row.vendorId,
    name: row.name,
    description: row.description,
    app_key: row.appKey,
    type: row.type as AppType,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
    completion_vendor_model_id: row.completionVendorModelId,
    parameters: isPlainObject(row.parameters) ? row.parameters : {},
    meta: { data: readMeta(row.meta) },
  };
  if (opts.creator !== undefined) {
    app.creator = opts.creator
      ? {
          data: {
            id: opts.creator.id,
            firstname: opts.creator.firstname,
            lastname: opts.creator.lastname,
            email: opts.creator.email,
          },
        }
      : null;
  }
  if (opts.functions) app.functions = opts.functions.map(presentAppFunction);
  return app;
}
