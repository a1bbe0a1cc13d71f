import type { AppsList } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { type AppsListParams, appKeys } from './keys';

/** GET /v1/vendors/{vendorId}/apps → {data, total_count, filter_count}. */
function listApps(vendorId: number, p: AppsListParams): Promise<AppsList> {
  return apiRequest<AppsList>(`/v1/vendors/${vendorId}/apps`, {
    query: {
      resolve: 'creator',
      search: p.search.trim() || undefined,
      app_type: p.appTypes.length > 0 ? p.appTypes : undefined,
      page: p.page,
      page_size: p.pageSize,
      order: p.order,
      order_dir: p.orderDir,
      count: 1,
    },
  });
}

const appsListQueryOptions = (vendorId: number, p: AppsListParams) =>
  queryOptions({
    queryKey: appKeys.list(vendorId, p),
    meta: LOCAL_ERROR,
    queryFn: () => listApps(vendorId, p),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export function useAppsList(vendorId: number, p: AppsListParams) {
  return useQuery(appsListQueryOptions(vendorId, p));
}
