import type { DataEnvelope, FunctionRunStats } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { functionKeys, functionPath } from './keys';

/** GET /v1/vendors/{vendorId}/functions/{id}/runs/stats → {data: tiles of the Runs tab}. */
function getFunctionRunStats(vendorId: number, id: number): Promise<DataEnvelope<FunctionRunStats>> {
  return apiRequest<DataEnvelope<FunctionRunStats>>(`${functionPath(vendorId, id)}/runs/stats`);
}

const functionRunStatsQueryOptions = (vendorId: number, id: number) =>
  queryOptions({
    queryKey: functionKeys.runStats(vendorId, id),
    queryFn: () => getFunctionRunStats(vendorId, id),
    staleTime: 0,
  });

export function useFunctionRunStats(vendorId: number, id: number) {
  return useQuery(functionRunStatsQueryOptions(vendorId, id));
}
