import type { AppResponse, AppUpdateBody } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { withMinDuration } from '../../../lib/minDuration';
import { appQueryKey } from './getApp';

/** PUT /v1/vendors/{vendorId}/apps/{appId} → {data: app}. Errors (message + field map) go to the form. */
export function updateApp(vendorId: number, appId: number, body: AppUpdateBody): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps/${appId}`, {
    method: 'PUT',
    body,
    query: { resolve: 'creator' },
    skipDefaultErrorHandler: true,
  });
}

/** Saving keeps the button loading for at least LOADING_BUTTON_MIN_MS; the cached app is replaced. */
export function useUpdateApp(vendorId: number, appId: number, minMs: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['apps', vendorId, 'update', appId] as const,
    mutationFn: (body: AppUpdateBody) => withMinDuration(updateApp(vendorId, appId, body), minMs),
    onSuccess: (response) => {
      client.setQueryData(appQueryKey(vendorId, appId), response);
      void client.invalidateQueries({ queryKey: ['apps', vendorId, 'list'] });
    },
  });
}
