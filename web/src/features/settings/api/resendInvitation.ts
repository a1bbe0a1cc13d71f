import type { MemberInvited } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';

/** POST /v1/vendors/{vendorId}/users/{userId}/invitation: a new link; the earlier one stops working. */
function resendInvitation(vendorId: number, userId: number, signal?: AbortSignal): Promise<MemberInvited> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}/invitation`, {
    signal,
    method: 'POST',
  });
}

export function useResendInvitation(vendorId: number, userId: number) {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) => resendInvitation(vendorId, userId, signal),
  });
}
