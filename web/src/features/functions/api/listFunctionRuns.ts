import type { FunctionRunsList } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { type FunctionRunsParams, functionKeys, functionPath } from './keys';

/** GET /v1/vendors/{vendorId}/functions/{id}/runs?page&page_size&status → newest first. */
function listFunctionRuns(
  vendorId: number,
  id: number,
  params: FunctionRunsParams,
): Promise<FunctionRunsList> {
  return apiRequest<FunctionRunsList>(`${functionPath(vendorId, id)}/runs`, {
    query: { page: params.page, page_size: params.page_size, status: params.status },
  });
}

const functionRunsQueryOptions = (vendorId: number, id: number, params: FunctionRunsParams) =>
  queryOptions({
    queryKey: functionKeys.runList(vendorId, id, params),
    meta: LOCAL_ERROR,
    queryFn: () => listFunctionRuns(vendorId, id, params),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useFunctionRuns(vendorId: number, id: number, params: FunctionRunsParams) {
  return useQuery(functionRunsQueryOptions(vendorId, id, params));
}
