import type {
  AdminVendor,
  AdminVendorCreateBody,
  AdminVendorCreated,
  AdminVendorsQuery,
  AdminVendorUpdateBody,
  DataEnvelope,
  ListEnvelope,
} from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';

// The admin's vendor calls (superusers only): list, one, create (invites the owner), update.

const keys = {
  list: ['admin', 'vendors'] as const,
  one: (id: number) => ['admin', 'vendors', id] as const,
};

export function getAdminVendors(query: AdminVendorsQuery): Promise<ListEnvelope<AdminVendor>> {
  return apiRequest('/v1/admin/vendors', {
    query: listQuery(query),
  });
}

export const adminVendorsQueryOptions = (query: AdminVendorsQuery) =>
  queryOptions({
    queryKey: [...keys.list, query] as const,
    meta: LOCAL_ERROR,
    queryFn: () => getAdminVendors(query),
    placeholderData: keepPreviousData,
  });

export function useAdminVendors(query: AdminVendorsQuery) {
  return useQuery(adminVendorsQueryOptions(query));
}

export function getAdminVendor(id: number): Promise<DataEnvelope<AdminVendor>> {
  return apiRequest(`/v1/admin/vendors/${id}`);
}

export function useAdminVendor(id: number) {
  return useQuery({ queryKey: keys.one(id), meta: LOCAL_ERROR, queryFn: () => getAdminVendor(id) });
}

export function createAdminVendor(
  body: AdminVendorCreateBody,
  signal?: AbortSignal,
): Promise<AdminVendorCreated> {
  return apiRequest('/v1/admin/vendors', { signal, method: 'POST', body });
}

export function useCreateAdminVendor() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: createAdminVendor,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.list });
      void client.invalidateQueries({ queryKey: ['vendors'] });
    },
  });
}

export function updateAdminVendor(
  id: number,
  body: AdminVendorUpdateBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<AdminVendor>> {
  return apiRequest(`/v1/admin/vendors/${id}`, { signal, method: 'PUT', body });
}

export function useUpdateAdminVendor(id: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: AdminVendorUpdateBody, signal) => updateAdminVendor(id, body, signal),
    onSuccess: (answer) => {
      client.setQueryData(keys.one(id), answer);
      void client.invalidateQueries({ queryKey: keys.list });
      void client.invalidateQueries({ queryKey: ['vendors'] });
    },
  });
}
