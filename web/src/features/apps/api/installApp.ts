import type { AppInstallBody, AppResponse } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';

/** POST /v1/vendors/{vendorId}/apps {app_key, parameters} → 201 {data: app}. Errors: shown by the dialog. */
export function installApp(vendorId: number, body: AppInstallBody): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps`, {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
  });
}

export function useInstallApp(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['apps', vendorId, 'install'] as const,
    mutationFn: (appKey: string) => installApp(vendorId, { app_key: appKey }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['apps', vendorId, 'list'] }),
  });
}
