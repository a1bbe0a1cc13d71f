import type { AdminVendor, DataEnvelope } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { adminKeys } from './keys';

/** GET /v1/admin/vendors/{id}. */
function getAdminVendor(id: number): Promise<DataEnvelope<AdminVendor>> {
  return apiRequest(`/v1/admin/vendors/${id}`);
}

const adminVendorQueryOptions = (id: number) =>
  queryOptions({ queryKey: adminKeys.vendor(id), meta: LOCAL_ERROR, queryFn: () => getAdminVendor(id) });

export function useAdminVendor(id: number) {
  return useQuery(adminVendorQueryOptions(id));
}
