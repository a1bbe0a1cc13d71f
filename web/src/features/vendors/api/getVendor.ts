import type { DataEnvelope, Vendor } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';

/** GET /v1/vendors/{id} → {data: vendor}. */
export function getVendor(id: number | string): Promise<DataEnvelope<Vendor>> {
  return apiRequest<DataEnvelope<Vendor>>(`/v1/vendors/${encodeURIComponent(String(id))}`);
}

export const vendorQueryOptions = (id: number | string) =>
  queryOptions({ queryKey: ['vendors', String(id)] as const, queryFn: () => getVendor(id) });

export function useVendor(id: number | string) {
  return useQuery(vendorQueryOptions(id));
}
