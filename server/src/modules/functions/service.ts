import {
  type FieldErrors,
  FUNCTION_KEY_EXISTS,
  type FunctionBuildResponse,
  type FunctionCodeError,
  type FunctionConsoleEntry,
  type FunctionDetail,
  type FunctionRunDetail,
  type FunctionRunStats,
  type FunctionRunStatusCode,
  type FunctionRunsList,
  type FunctionRuntime,
  type FunctionSaved,
  type FunctionsList,
  type functionBuildBody,
  type functionCreateBody,
  type functionRunsQuery,
  type functionsListQuery,
  type functionUpdateBody,
} from '@llmor/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { notFound, validationError } from '../../platform/errors';
import type { TraceContext } from '../../platform/tracing';
import { findVendorApp } from '../vendors/owned';
import { presentFunction, presentFunctionDetail, presentRun, presentRunDetail, successRate } from './present';
import * as repo from './repo';
import { baseHost, loadSchemas, runAndStore } from './sandbox';

type ListQuery = z.output<typeof functionsListQuery>;
type CreateBody = z.output<typeof functionCreateBody>;
type UpdateBody = z.output<typeof functionUpdateBody>;
type BuildBody = z.output<typeof functionBuildBody>;
type RunsQuery = z.output<typeof functionRunsQuery>;

export async function listFunctions(ctx: AppContext, vendorId: number, q: ListQuery): Promise<FunctionsList> {
  if (q.app_id !== undefined && !(await findVendorApp(ctx.db, vendorId, q.app_id))) {
    throw validationError({ app_id: 'Unknown app' });
  }
  const filter: repo.FunctionListFilter = {
    search: q.search || undefined,
    runtime: q.runtime,
    isLibrary: q.is_library,
    appId: q.app_id,
  };
  const [rows, total, filtered] = await Promise.all([
    repo.listFunctions(ctx.db, vendorId, {
      ...filter,
      order: q.order ?? 'name',
      dir: q.order_dir ?? 'asc',
      offset: q.page * q.page_size,
      limit: q.page_size,
    }),
    repo.countFunctions(ctx.db, vendorId),
    repo.countFunctions(ctx.db, vendorId, filter),
  ]);
  return { data: rows.map(presentFunction), total_count: total, filter_count: filtered };
}

async function requireFunction(ctx: AppContext, vendorId: number, id: number): Promise<repo.FunctionRow> {
  const row = await repo.findFunction(ctx.db, vendorId, id);
  if (!row) throw notFound('Function');
  return row;
}

export async function getFunction(ctx: AppContext, vendorId: number, id: number): Promise<FunctionDetail> {
  return presentFunctionDetail(await requireFunction(ctx, vendorId, id));
}

/** Unique-index violations (two saves racing for one key) are the same field error as the pre-check. */
function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

async function checkFields(
  ctx: AppContext,
  vendorId: number,
  body: CreateBody | UpdateBody,
  exceptId?: number,
): Promise<void> {
  const errors: FieldErrors = {};
  if (await repo.functionKeyTaken(ctx.db, vendorId, body.function_key, exceptId)) {
    errors.function_key = FUNCTION_KEY_EXISTS;
  }
  if (
    body.specific_app_id !== undefined &&
    body.specific_app_id !== null &&
    !(await findVendorApp(ctx.db, vendorId, body.specific_app_id))
  ) {
    errors.specific_app_id = 'Unknown app';
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/** Schemas for saved code; code that does not load keeps the current ones and reports why. */
async function schemasFor(
  vendorId: number,
  code: string,
  current: { argumentSchema: unknown; configSchema: unknown },
): Promise<{ argumentSchema: unknown; configSchema: unknown; codeError?: FunctionCodeError }> {
  if (code.trim() === '') return { argumentSchema: null, configSchema: null };
  const loaded = await loadSchemas(code, vendorId);
  if (loaded.ok) return { argumentSchema: loaded.argumentSchema, configSchema: loaded.configSchema };
  return { ...current, codeError: loaded.error };
}

function saved(row: repo.FunctionRow, codeError?: FunctionCodeError): FunctionSaved {
  return codeError
    ? { data: presentFunctionDetail(row), code_error: codeError }
    : { data: presentFunctionDetail(row) };
}

export async function createFunction(
  ctx: AppContext,
  vendorId: number,
  userId: number,
  body: CreateBody,
): Promise<FunctionSaved> {
  await checkFields(ctx, vendorId, body);
  const code = body.code ?? '';
  const schemas = await schemasFor(vendorId, code, { argumentSchema: null, configSchema: null });
  try {
    const row = await repo.insertFunction(ctx.db, vendorId, {
      name: body.name,
      functionKey: body.function_key,
      description: body.description ?? '',
      runtime: body.runtime ?? 'silicon',
      isLibrary: body.is_library ?? false,
      code,
      argumentSchema: schemas.argumentSchema,
      configSchema: schemas.configSchema,
      specificAppId: body.specific_app_id ?? null,
      createdBy: userId,
    });
    return saved(row, schemas.codeError);
  } catch (err) {
    if (isUniqueViolation(err)) throw validationError({ function_key: FUNCTION_KEY_EXISTS });
    throw err;
  }
}

export async function updateFunction(
  ctx: AppContext,
  vendorId: number,
  id: number,
  body: UpdateBody,
): Promise<FunctionSaved> {
  const current = await requireFunction(ctx, vendorId, id);
  await checkFields(ctx, vendorId, body, id);
  const changes: repo.FunctionChanges = { name: body.name, functionKey: body.function_key };
  if (body.description !== undefined) changes.description = body.description;
  if (body.runtime !== undefined) changes.runtime = body.runtime;
  if (body.is_library !== undefined) changes.isLibrary = body.is_library;
  if (body.specific_app_id !== undefined) changes.specificAppId = body.specific_app_id;
  let codeError: FunctionCodeError | undefined;
  if (body.code !== undefined) {
    const schemas = await schemasFor(vendorId, body.code, current);
    changes.code = body.code;
    changes.argumentSchema = schemas.argumentSchema;
    changes.configSchema = schemas.configSchema;
    codeError = schemas.codeError;
  }
  try {
    const row = await repo.updateFunction(ctx.db, vendorId, id, changes);
    if (!row) throw notFound('Function');
    return saved(row, codeError);
  } catch (err) {
    if (isUniqueViolation(err)) throw validationError({ function_key: FUNCTION_KEY_EXISTS });
    throw err;
  }
}

export async function saveCode(
  ctx: AppContext,
  vendorId: number,
  id: number,
  code: string,
): Promise<FunctionSaved> {
  const current = await requireFunction(ctx, vendorId, id);
  const schemas = await schemasFor(vendorId, code, current);
  const row = await repo.updateFunction(ctx.db, vendorId, id, {
    code,
    argumentSchema: schemas.argumentSchema,
    configSchema: schemas.configSchema,
  });
  if (!row) throw notFound('Function');
  return saved(row, schemas.codeError);
}

export async function deleteFunction(ctx: AppContext, vendorId: number, id: number): Promise<void> {
  if (!(await repo.deleteFunction(ctx.db, vendorId, id))) throw notFound('Function');
}

/** The editor's Run: the given code (saved or not) with the default limits; stored as a run. */
export async function buildFunction(
  ctx: AppContext,
  vendorId: number,
  id: number,
  body: BuildBody,
  trace?: TraceContext,
): Promise<FunctionBuildResponse> {
  const fn = await requireFunction(ctx, vendorId, id);
  const { result: r, run } = await runAndStore(ctx, fn, {
    code: body.code,
    arguments: body.arguments ?? {},
    config: body.config ?? {},
    host: baseHost({ scratchState: true }),
    trace,
  });
  if (!run) throw notFound('Function');
  const out: FunctionBuildResponse = {
    data: {
      status: r.status as FunctionRunStatusCode,
      took: r.took,
      memory: r.memory,
      result: r.result ?? null,
      console: r.console as FunctionConsoleEntry[],
      run_id: run.id,
    },
  };
  if (r.debug) out.debug = r.debug;
  if (r.error) out.error = r.error;
  if (r.argument_schema !== undefined) out.argument_schema = r.argument_schema as Record<string, unknown>;
  if (r.config_schema !== undefined) out.config_schema = r.config_schema as Record<string, unknown>;
  return out;
}

export async function listRuns(
  ctx: AppContext,
  vendorId: number,
  id: number,
  q: RunsQuery,
): Promise<FunctionRunsList> {
  await requireFunction(ctx, vendorId, id);
  const [rows, total, filtered] = await Promise.all([
    repo.listRuns(ctx.db, vendorId, id, {
      status: q.status,
      offset: q.page * q.page_size,
      limit: q.page_size,
    }),
    repo.countRuns(ctx.db, vendorId, id),
    repo.countRuns(ctx.db, vendorId, id, q.status),
  ]);
  return { data: rows.map(presentRun), total_count: total, filter_count: filtered };
}

export async function getRun(
  ctx: AppContext,
  vendorId: number,
  id: number,
  runId: number,
): Promise<FunctionRunDetail> {
  const row = await repo.findRun(ctx.db, vendorId, id, runId);
  if (!row) throw notFound('Run');
  return presentRunDetail(row);
}

export async function runStats(ctx: AppContext, vendorId: number, id: number): Promise<FunctionRunStats> {
  const fn = await requireFunction(ctx, vendorId, id);
  return {
    total_runs: fn.runCount,
    success_runs: fn.runCountSuccess,
    success_rate: successRate(fn.runCount, fn.runCountSuccess),
    last_run: fn.lastRun?.toISOString() ?? null,
    runtime: fn.runtime as FunctionRuntime,
    average_took: await repo.averageTook(ctx.db, vendorId, id),
  };
}
