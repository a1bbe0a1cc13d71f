import type { DataEnvelope, FunctionDetail } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { functionKeys, functionPath } from './keys';

/** GET /v1/vendors/{vendorId}/functions/{id} → {data: function with code}; 404 when unknown. */
function getFunction(vendorId: number, id: number): Promise<DataEnvelope<FunctionDetail>> {
  return apiRequest<DataEnvelope<FunctionDetail>>(functionPath(vendorId, id));
}

const functionQueryOptions = (vendorId: number, id: number) =>
  queryOptions({
    queryKey: functionKeys.detail(vendorId, id),
    meta: LOCAL_ERROR,
    queryFn: () => getFunction(vendorId, id),
    retry: false,
    staleTime: 0,
  });

export function useFunction(vendorId: number, id: number | null) {
  return useQuery({ ...functionQueryOptions(vendorId, id ?? 0), enabled: id !== null });
}
