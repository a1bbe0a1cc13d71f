import type {
  FunctionConsoleEntry,
  FunctionDetail,
  FunctionRun,
  FunctionRunDetail,
  FunctionRunStatusCode,
  FunctionRuntime,
  FunctionSummary,
} from '@llmor/contracts';
import { isPlainObject } from '@llmor/contracts';
import type { FunctionListRow, FunctionRow, FunctionRunRow, RunListRow } from './repo';

/** Whole percent of successful runs, null without runs. */
export function successRate(runCount: number, successCount: number): number | null {
  return runCount > 0 ? Math.round((successCount / runCount) * 100) : null;
}

export function presentFunction(row: FunctionListRow): FunctionSummary {
  return {
    id: row.id,
    vendor_id: row.vendorId,
    name: row.name,
    description: row.description,
    function_key: row.functionKey,
    runtime: row.runtime as FunctionRuntime,
    is_library: row.isLibrary,
    specific_app_id: row.specificAppId,
    argument_schema: isPlainObject(row.argumentSchema) ? row.argumentSchema : null,
    config_schema: isPlainObject(row.configSchema) ? row.configSchema : null,
    last_run: row.lastRun?.toISOString() ?? null,
    run_count: row.runCount,
    run_count_success: row.runCountSuccess,
    success_rate: successRate(row.runCount, row.runCountSuccess),
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
  };
}

export function presentFunctionDetail(row: FunctionRow): FunctionDetail {
  return { ...presentFunction(row), code: row.code };
}

export function presentRun(row: RunListRow): FunctionRun {
  return {
    id: row.id,
    status: row.status as FunctionRunStatusCode,
    took: row.took,
    memory: row.memory,
    created_at: row.createdAt.toISOString(),
    conversation_id: row.conversationId,
  };
}

export function presentRunDetail(row: FunctionRunRow): FunctionRunDetail {
  return {
    ...presentRun(row),
    arguments: row.arguments ?? null,
    config: row.config ?? null,
    result: row.result ?? null,
    error: (row.error ?? null) as FunctionRunDetail['error'],
    console: (Array.isArray(row.console) ? row.console : []) as FunctionConsoleEntry[],
    debug: (row.debug ?? null) as FunctionRunDetail['debug'],
  };
}
