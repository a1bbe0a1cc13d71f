import type { FunctionsList } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { type FunctionsListParams, functionKeys, functionPath } from './keys';

/**
 * GET /v1/vendors/{vendorId}/functions?page&page_size&order&order_dir&search&runtime&app_id → paged list.
 * Failures are only logged by the caller (docs/reference/console.md).
 */
function listFunctions(vendorId: number, params: FunctionsListParams): Promise<FunctionsList> {
  return apiRequest<FunctionsList>(functionPath(vendorId), {
    query: {
      page: params.page,
      page_size: params.page_size,
      order: params.order,
      order_dir: params.order ? params.order_dir : undefined,
      search: params.search || undefined,
      runtime: params.runtime || undefined,
      app_id: params.app_id,
    },
  });
}

const functionsQueryOptions = (vendorId: number, params: FunctionsListParams) =>
  queryOptions({
    queryKey: functionKeys.list(vendorId, params),
    meta: LOCAL_ERROR,
    queryFn: () => listFunctions(vendorId, params),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useFunctions(vendorId: number, params: FunctionsListParams, enabled = true) {
  return useQuery({ ...functionsQueryOptions(vendorId, params), enabled });
}
