import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { appKeys } from './keys';

/** DELETE /v1/vendors/{vendorId}/apps/{appId} → 204. Errors become a toast, not a banner. */
function deleteApp(vendorId: number, appId: number, signal?: AbortSignal): Promise<void> {
  return apiRequest<void>(`/v1/vendors/${vendorId}/apps/${appId}`, {
    signal,
    method: 'DELETE',
  });
}

export function useDeleteApp() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ vendorId, appId }: { vendorId: number; appId: number }, signal) =>
      deleteApp(vendorId, appId, signal),
    onSuccess: (_r, { vendorId }) => client.invalidateQueries({ queryKey: appKeys.lists(vendorId) }),
  });
}
