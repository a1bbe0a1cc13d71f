import type { DataEnvelope, InvitationAcceptBody, PasswordResetBody, User } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';

/**
 * POST /v1/auth/invitations/accept or /v1/auth/password/reset: sets the password and signs the session in
 * (docs/reference/api.md "Organisations").
 */
function setLinkPassword(
  purpose: 'invite' | 'reset',
  body: InvitationAcceptBody | PasswordResetBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<User>> {
  return apiRequest(purpose === 'invite' ? '/v1/auth/invitations/accept' : '/v1/auth/password/reset', {
    signal,
    method: 'POST',
    body,
  });
}

/** Errors are shown by the link page. */
export function useLink(purpose: 'invite' | 'reset') {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: InvitationAcceptBody | PasswordResetBody, signal) =>
      setLinkPassword(purpose, body, signal),
  });
}
