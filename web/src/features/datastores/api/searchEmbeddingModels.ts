import type { VendorModelPicks } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { datastoreKeys } from './keys';

/** The vendor's embedding models for the picker: GET /v1/vendors/{vendorId}/models/search?type=embedding. */
function searchEmbeddingModels(vendorId: number): Promise<VendorModelPicks> {
  return apiRequest<VendorModelPicks>(`/v1/vendors/${vendorId}/models/search`, {
    query: { type: 'embedding' },
  });
}

const embeddingModelsQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: datastoreKeys.embeddingModels(vendorId),
    queryFn: () => searchEmbeddingModels(vendorId),
    select: (r) => r.data,
  });

export function useEmbeddingModels(vendorId: number) {
  return useQuery(embeddingModelsQueryOptions(vendorId));
}
