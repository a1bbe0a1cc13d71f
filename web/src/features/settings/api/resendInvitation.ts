import type { MemberInvited } from '@llmor/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';

/** POST /v1/vendors/{vendorId}/users/{userId}/invitation: a new link; the earlier one stops working. */
export function resendInvitation(vendorId: number, userId: number): Promise<MemberInvited> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}/invitation`, {
    method: 'POST',
    skipDefaultErrorHandler: true,
  });
}

export function useResendInvitation(vendorId: number, userId: number) {
  return useMutation({ mutationFn: () => resendInvitation(vendorId, userId) });
}
