import type { AdminVendorCreateBody, AdminVendorCreated } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { vendorsKey } from '../../../lib/entities/vendors';
import { adminKeys } from './keys';

/** POST /v1/admin/vendors: creates the vendor and invites its owner. */
function createAdminVendor(body: AdminVendorCreateBody, signal?: AbortSignal): Promise<AdminVendorCreated> {
  return apiRequest('/v1/admin/vendors', { signal, method: 'POST', body });
}

export function useCreateAdminVendor() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: createAdminVendor,
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminKeys.vendors });
      void client.invalidateQueries({ queryKey: vendorsKey });
    },
  });
}
