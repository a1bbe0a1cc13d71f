import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { accountKeys } from './keys';

/** DELETE /v1/account/invitations/{vendorId}: declines (204); the vendor's links stop working. */
export function declineInvitation(vendorId: number): Promise<void> {
  return apiRequest(`/v1/account/invitations/${vendorId}`, {
    method: 'DELETE',
    skipDefaultErrorHandler: true,
  });
}

export function useDeclineInvitation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: declineInvitation,
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.invitations() }),
  });
}
