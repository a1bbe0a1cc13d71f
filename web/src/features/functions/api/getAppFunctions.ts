import type { AppResponse } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { functionKeys } from './keys';

/** GET /v1/vendors/{vendorId}/apps/{appId}?resolve=functions → {data: app with its installed functions}. */
function getAppFunctions(vendorId: number, appId: string): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps/${encodeURIComponent(appId)}`, {
    query: { resolve: 'functions' },
  });
}

const appFunctionsQueryOptions = (vendorId: number, appId: string) =>
  queryOptions({
    queryKey: functionKeys.app(vendorId, appId),
    meta: LOCAL_ERROR,
    queryFn: () => getAppFunctions(vendorId, appId),
    select: (r) => r.data,
    staleTime: 0,
    retry: false,
  });

export function useAppFunctions(vendorId: number, appId: string) {
  return useQuery(appFunctionsQueryOptions(vendorId, appId));
}
