import type { AdminVendor, AdminVendorUpdateBody, DataEnvelope } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { vendorsKey } from '../../../lib/entities/vendors';
import { adminKeys } from './keys';

/** PUT /v1/admin/vendors/{id}. */
function updateAdminVendor(
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
      client.setQueryData(adminKeys.vendor(id), answer);
      void client.invalidateQueries({ queryKey: adminKeys.vendors });
      void client.invalidateQueries({ queryKey: vendorsKey });
    },
  });
}
