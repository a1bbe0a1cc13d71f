import type { UsageResponse } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { usageKeys } from './keys';

/** GET /v1/vendors/{vendorId}/usage?app_id= → {data: {today, last_7_days, last_30_days, total}}. */
function getUsage(vendorId: number, appId: string): Promise<UsageResponse> {
  return apiRequest<UsageResponse>(`/v1/vendors/${vendorId}/usage`, {
    query: { app_id: appId },
  });
}

const appUsageQueryOptions = (vendorId: number, appId: string) =>
  queryOptions({
    queryKey: usageKeys.app(vendorId, appId),
    queryFn: () => getUsage(vendorId, appId),
    select: (r) => r.data,
    staleTime: 0,
    retry: false,
    meta: LOCAL_ERROR,
  });

export function useAppUsage(vendorId: number, appId: string) {
  return useQuery(appUsageQueryOptions(vendorId, appId));
}
