import type {
  AdminVendor,
  AdminVendorCreateBody,
  AdminVendorCreated,
  AdminVendorsQuery,
  AdminVendorUpdateBody,
  DataEnvelope,
  ListEnvelope,
} from '@llmor/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { listQuery } from '../../../lib/api/query';

// The admin's vendor calls (superusers only): list, one, create (invites the owner), update.

const keys = {
  list: ['admin', 'vendors'] as const,
  one: (id: number) => ['admin', 'vendors', id] as const,
};

export function getAdminVendors(query: AdminVendorsQuery): Promise<ListEnvelope<AdminVendor>> {
  return apiRequest('/v1/admin/vendors', {
    query: listQuery(query),
    skipDefaultErrorHandler: true,
  });
}

export const adminVendorsQueryOptions = (query: AdminVendorsQuery) =>
  queryOptions({
    queryKey: [...keys.list, query] as const,
    queryFn: () => getAdminVendors(query),
    placeholderData: keepPreviousData,
  });

export function useAdminVendors(query: AdminVendorsQuery) {
  return useQuery(adminVendorsQueryOptions(query));
}

export function getAdminVendor(id: number): Promise<DataEnvelope<AdminVendor>> {
  return apiRequest(`/v1/admin/vendors/${id}`, { skipDefaultErrorHandler: true });
}

export function useAdminVendor(id: number) {
  return useQuery({ queryKey: keys.one(id), queryFn: () => getAdminVendor(id) });
}

export function createAdminVendor(body: AdminVendorCreateBody): Promise<AdminVendorCreated> {
  return apiRequest('/v1/admin/vendors', { method: 'POST', body, skipDefaultErrorHandler: true });
}

export function useCreateAdminVendor() {
  const client = useQueryClient();
  return useMutation({
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
): Promise<DataEnvelope<AdminVendor>> {
  return apiRequest(`/v1/admin/vendors/${id}`, { method: 'PUT', body, skipDefaultErrorHandler: true });
}

export function useUpdateAdminVendor(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: AdminVendorUpdateBody) => updateAdminVendor(id, body),
    onSuccess: (answer) => {
      client.setQueryData(keys.one(id), answer);
      void client.invalidateQueries({ queryKey: keys.list });
      void client.invalidateQueries({ queryKey: ['vendors'] });
    },
  });
}
