import type { AppResponse } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { isApiError } from '../../../lib/api/error';
import { appKeys } from './keys';

/** GET /v1/vendors/{vendorId}/apps/{appId}?resolve=creator → {data: app}. */
function getApp(vendorId: number, appId: number | string): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps/${encodeURIComponent(String(appId))}`, {
    query: { resolve: 'creator' },
  });
}

const appQueryOptions = (vendorId: number, appId: number | string) =>
  queryOptions({
    queryKey: appKeys.detail(vendorId, appId),
    // The app page reports a failure itself (one alert, or a not-found page), never as a banner.
    meta: LOCAL_ERROR,
    queryFn: () => getApp(vendorId, appId),
    select: (r) => r.data,
    staleTime: 0,
    // A missing or foreign app stays missing: no retries.
    retry: (count, error) => !(isApiError(error) && error.status === 404) && count < 2,
  });

export function useApp(vendorId: number, appId: number | string) {
  return useQuery(appQueryOptions(vendorId, appId));
}
