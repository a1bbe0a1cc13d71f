import type { FunctionOrderColumn, FunctionRuntime } from '@llmor/contracts';

/** The list query the screens send (`functionsListQuery` in contracts). */
export interface FunctionsListParams {
  page: number;
  page_size: number;
  order?: FunctionOrderColumn;
  order_dir?: 'asc' | 'desc';
  search?: string;
  runtime?: FunctionRuntime;
  /** Only the functions this app may use. */
  app_id?: number;
}

export interface FunctionRunsParams {
  page: number;
  page_size: number;
  status?: 1 | -1;
}

/** Query keys of the functions feature; `functionKeys.all(vendorId)` covers everything of a vendor. */
export const functionKeys = {
  all: (vendorId: number) => ['functions', vendorId] as const,
  lists: (vendorId: number) => ['functions', vendorId, 'list'] as const,
  list: (vendorId: number, params: FunctionsListParams) => ['functions', vendorId, 'list', params] as const,
  detail: (vendorId: number, id: number) => ['functions', vendorId, 'detail', id] as const,
  runs: (vendorId: number, id: number) => ['functions', vendorId, 'detail', id, 'runs'] as const,
  runList: (vendorId: number, id: number, params: FunctionRunsParams) =>
    ['functions', vendorId, 'detail', id, 'runs', 'list', params] as const,
  runStats: (vendorId: number, id: number) => ['functions', vendorId, 'detail', id, 'runs', 'stats'] as const,
  run: (vendorId: number, id: number, runId: number) =>
    ['functions', vendorId, 'detail', id, 'runs', 'run', runId] as const,
  app: (vendorId: number, appId: string) => ['functions', vendorId, 'app', appId] as const,
};

export const functionPath = (vendorId: number, id?: number) =>
  id === undefined ? `/v1/vendors/${vendorId}/functions` : `/v1/vendors/${vendorId}/functions/${id}`;
