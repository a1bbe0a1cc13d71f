import type { DataEnvelope, InstalledModelDetail } from '@llmor/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../api/client';
import { LOCAL_ERROR } from '../api/dataLayer';

/**
 * An installed model of the vendor, needed by several features (the models screens, the app's model
 * picker): one fetcher and one cache entry, so a model loaded by one screen is not fetched again by
 * another (docs/adr/0028-console-data-layer.md).
 */

/** Every cache key of a vendor's models starts with this (invalidate it to refresh them all). */
export const vendorModelsKey = (vendorId: number) => ['models', vendorId] as const;

export const modelDetailKey = (vendorId: number, id: string | number) =>
  [...vendorModelsKey(vendorId), 'detail', String(id)] as const;

/** GET /v1/vendors/{vendorId}/models/{id} → {data: model} (non-secret parameters, secret hints). 404 when unknown. */
function getModel(
  vendorId: number,
  id: string | number,
  signal?: AbortSignal,
): Promise<DataEnvelope<InstalledModelDetail>> {
  return apiRequest<DataEnvelope<InstalledModelDetail>>(
    `/v1/vendors/${vendorId}/models/${encodeURIComponent(String(id))}`,
    { signal },
  );
}

/** The screens that show a model say themselves when it did not load. */
export const modelQueryOptions = (vendorId: number, id: string | number) =>
  queryOptions({
    queryKey: modelDetailKey(vendorId, id),
    queryFn: ({ signal }) => getModel(vendorId, id, signal),
    meta: LOCAL_ERROR,
    retry: false,
    staleTime: 0,
  });
