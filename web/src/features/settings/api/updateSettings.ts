import type { DataEnvelope, VendorSettings, VendorSettingsBody } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { settingsKeys } from './keys';

/** PUT /v1/vendors/{vendorId}/settings: only the fields sent change; secrets are write-only. */
export function updateSettings(
  vendorId: number,
  body: VendorSettingsBody,
): Promise<DataEnvelope<VendorSettings>> {
  return apiRequest(`/v1/vendors/${vendorId}/settings`, {
    method: 'PUT',
    body,
    skipDefaultErrorHandler: true,
  });
}

export function useUpdateSettings(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: VendorSettingsBody) => updateSettings(vendorId, body),
    onSuccess: (answer) => {
      client.setQueryData(settingsKeys.settings(vendorId), answer);
      // The vendor's name and currency show in the switcher and the session.
      void client.invalidateQueries({ queryKey: ['vendors'] });
    },
  });
}
