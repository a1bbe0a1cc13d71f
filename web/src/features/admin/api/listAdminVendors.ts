import type { AdminVendor, AdminVendorsQuery, ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';
import { adminKeys } from './keys';

/** GET /v1/admin/vendors: search, sort, paging. */
function listAdminVendors(query: AdminVendorsQuery): Promise<ListEnvelope<AdminVendor>> {
  return apiRequest('/v1/admin/vendors', {
    query: listQuery(query),
  });
}

const adminVendorsQueryOptions = (query: AdminVendorsQuery) =>
  queryOptions({
    queryKey: adminKeys.vendorList(query),
    meta: LOCAL_ERROR,
    queryFn: () => listAdminVendors(query),
    placeholderData: keepPreviousData,
  });

export function useAdminVendors(query: AdminVendorsQuery) {
  return useQuery(adminVendorsQueryOptions(query));
}
