import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';
import { settingsKeys } from './keys';

/** DELETE /v1/vendors/{vendorId}/users/{userId}: the membership goes, the account stays. */
function removeMember(vendorId: number, userId: number, signal?: AbortSignal): Promise<void> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}`, {
    signal,
    method: 'DELETE',
  });
}

export function useRemoveMember(vendorId: number, userId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) => removeMember(vendorId, userId, signal),
    // The lists, not the removed member's own page: asked again, it would only answer 404.
    onSuccess: () =>
      client.invalidateQueries({
        queryKey: settingsKeys.members(vendorId),
        predicate: (query) => query.queryKey[3] !== userId,
      }),
  });
}
