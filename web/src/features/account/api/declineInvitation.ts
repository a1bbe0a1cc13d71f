import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { accountKeys } from './keys';

/** DELETE /v1/account/invitations/{vendorId}: declines (204); the vendor's links stop working. */
function declineInvitation(vendorId: number, signal?: AbortSignal): Promise<void> {
  return apiRequest(`/v1/account/invitations/${vendorId}`, {
    signal,
    method: 'DELETE',
  });
}

export function useDeclineInvitation() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: declineInvitation,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.invitations() }),
  });
}
