import type { AppInstallBody, AppResponse } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { appKeys } from './keys';

/** POST /v1/vendors/{vendorId}/apps {app_key, parameters} → 201 {data: app}. Errors: shown by the dialog. */
function installApp(vendorId: number, body: AppInstallBody, signal?: AbortSignal): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps`, {
    signal,
    method: 'POST',
    body,
  });
}

export function useInstallApp(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: appKeys.install(vendorId),
    mutationFn: (appKey: string, signal) => installApp(vendorId, { app_key: appKey }, signal),
    onSuccess: () => client.invalidateQueries({ queryKey: appKeys.lists(vendorId) }),
  });
}
