import type { AvailableAppsResponse } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { appKeys } from './keys';

/** GET /v1/vendors/{vendorId}/apps/available → {data: {app_key: {name, description, type, icon}}}. */
function getAvailableApps(vendorId: number): Promise<AvailableAppsResponse> {
  return apiRequest<AvailableAppsResponse>(`/v1/vendors/${vendorId}/apps/available`);
}

const availableAppsQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: appKeys.available(vendorId),
    queryFn: () => getAvailableApps(vendorId),
    select: (r) => Object.entries(r.data).map(([appKey, meta]) => ({ appKey, ...meta })),
  });

export function useAvailableApps(vendorId: number, enabled = true) {
  return useQuery({ ...availableAppsQueryOptions(vendorId), enabled });
}
