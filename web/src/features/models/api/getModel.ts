import type { DataEnvelope, InstalledModelDetail } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { modelKeys } from './keys';

/** GET /v1/vendors/{vendorId}/models/{id} → {data: model} (non-secret parameters, secret hints). 404 when unknown. */
export function getModel(vendorId: number, id: string): Promise<DataEnvelope<InstalledModelDetail>> {
  return apiRequest<DataEnvelope<InstalledModelDetail>>(
    `/v1/vendors/${vendorId}/models/${encodeURIComponent(id)}`,
  );
}

export const modelQueryOptions = (vendorId: number, id: string) =>
  queryOptions({
    queryKey: modelKeys.detail(vendorId, id),
    meta: LOCAL_ERROR,
    queryFn: () => getModel(vendorId, id),
    retry: false,
    staleTime: 0,
  });

export function useModel(vendorId: number, id: string) {
  return useQuery(modelQueryOptions(vendorId, id));
}
