import type { DataEnvelope, VendorSettings, VendorSettingsBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { vendorsKey } from '../../../lib/entities/vendors';
import { settingsKeys } from './keys';

/** PUT /v1/vendors/{vendorId}/settings: only the fields sent change; secrets are write-only. */
function updateSettings(
  vendorId: number,
  body: VendorSettingsBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<VendorSettings>> {
  return apiRequest(`/v1/vendors/${vendorId}/settings`, {
    signal,
    method: 'PUT',
    body,
  });
}

export function useUpdateSettings(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: VendorSettingsBody, signal) => updateSettings(vendorId, body, signal),
    onSuccess: (answer) => {
      client.setQueryData(settingsKeys.settings(vendorId), answer);
      // The vendor's name and currency show in the switcher and the session.
      void client.invalidateQueries({ queryKey: vendorsKey });
    },
  });
}
