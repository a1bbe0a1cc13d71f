import { AVAILABLE_MODELS_LIMIT, type AvailableModel, type ListEnvelope } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { modelKeys } from './keys';

/** GET /v1/vendors/{vendorId}/avamodels/available?limit=100 → the catalogue (the install modal shows errors itself). */
function getAvailableModels(vendorId: number): Promise<ListEnvelope<AvailableModel>> {
  return apiRequest<ListEnvelope<AvailableModel>>(`/v1/vendors/${vendorId}/avamodels/available`, {
    query: { limit: AVAILABLE_MODELS_LIMIT },
  });
}

/** Loaded afresh every time the install modal opens (docs/reference/console.md). */
const availableModelsQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: modelKeys.available(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => getAvailableModels(vendorId),
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

export function useAvailableModels(vendorId: number) {
  return useQuery(availableModelsQueryOptions(vendorId));
}
