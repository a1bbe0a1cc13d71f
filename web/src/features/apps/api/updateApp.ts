import type { AppResponse, AppUpdateBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';
import { appKeys } from './keys';

/** PUT /v1/vendors/{vendorId}/apps/{appId} → {data: app}. Errors (message + field map) go to the form. */
function updateApp(
  vendorId: number,
  appId: number,
  body: AppUpdateBody,
  signal?: AbortSignal,
): Promise<AppResponse> {
  return apiRequest<AppResponse>(`/v1/vendors/${vendorId}/apps/${appId}`, {
    signal,
    method: 'PUT',
    body,
    query: { resolve: 'creator' },
  });
}

/** Saving keeps the button loading for at least LOADING_BUTTON_MIN_MS; the cached app is replaced. */
export function useUpdateApp(vendorId: number, appId: number, minMs: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: appKeys.update(vendorId, appId),
    mutationFn: (body: AppUpdateBody, signal) =>
      withMinDuration(updateApp(vendorId, appId, body, signal), minMs),
    onSuccess: (response) => {
      client.setQueryData(appKeys.detail(vendorId, appId), response);
      void client.invalidateQueries({ queryKey: appKeys.lists(vendorId) });
    },
  });
}
