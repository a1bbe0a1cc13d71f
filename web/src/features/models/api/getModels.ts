import type { InstalledModel, ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { type ModelsListParams, modelKeys } from './keys';

/**
 * GET /v1/vendors/{vendorId}/models?page&page_size&order&order_dir → the installed models.
 * Failures are only logged by the caller (docs/reference/console.md), never bannered.
 */
function getModels(vendorId: number, params: ModelsListParams): Promise<ListEnvelope<InstalledModel>> {
  return apiRequest<ListEnvelope<InstalledModel>>(`/v1/vendors/${vendorId}/models`, {
    query: {
      page: params.page,
      page_size: params.page_size,
      order: params.order,
      order_dir: params.order ? params.order_dir : undefined,
    },
  });
}

const modelsQueryOptions = (vendorId: number, params: ModelsListParams) =>
  queryOptions({
    queryKey: modelKeys.list(vendorId, params),
    meta: LOCAL_ERROR,
    queryFn: () => getModels(vendorId, params),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useModels(vendorId: number, params: ModelsListParams) {
  return useQuery(modelsQueryOptions(vendorId, params));
}
