import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { settingsKeys } from './keys';

/** DELETE /v1/vendors/{vendorId}/users/{userId}: the membership goes, the account stays. */
export function removeMember(vendorId: number, userId: number): Promise<void> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}`, {
    method: 'DELETE',
    skipDefaultErrorHandler: true,
  });
}

export function useRemoveMember(vendorId: number, userId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => removeMember(vendorId, userId),
    // The lists, not the removed member's own page: asked again, it would only answer 404.
    onSuccess: () =>
      client.invalidateQueries({
        queryKey: settingsKeys.members(vendorId),
        predicate: (query) => query.queryKey[3] !== userId,
      }),
  });
}
