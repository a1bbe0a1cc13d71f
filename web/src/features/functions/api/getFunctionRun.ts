import type { DataEnvelope, FunctionRunDetail } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { functionKeys, functionPath } from './keys';

/** GET /v1/vendors/{vendorId}/functions/{id}/runs/{runId} → {data: run with arguments, result, console}. */
function getFunctionRun(
  vendorId: number,
  id: number,
  runId: number,
): Promise<DataEnvelope<FunctionRunDetail>> {
  return apiRequest<DataEnvelope<FunctionRunDetail>>(`${functionPath(vendorId, id)}/runs/${runId}`);
}

const functionRunQueryOptions = (vendorId: number, id: number, runId: number) =>
  queryOptions({
    queryKey: functionKeys.run(vendorId, id, runId),
    meta: LOCAL_ERROR,
    queryFn: () => getFunctionRun(vendorId, id, runId),
    retry: false,
  });

export function useFunctionRun(vendorId: number, id: number, runId: number | null) {
  return useQuery({ ...functionRunQueryOptions(vendorId, id, runId ?? 0), enabled: runId !== null });
}
