import type {
  DataEnvelope,
  InvitationAcceptBody,
  LinkInfo,
  MessageResponse,
  PasswordForgotBody,
  PasswordResetBody,
  User,
} from '@llmor/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';

// Invitation and password-reset links (docs/reference/api.md "Organisations"); errors are shown by the pages.

/** GET /v1/auth/links/{token}: what the link is for (400 when it is invalid, used or expired). */
export function getLinkInfo(token: string): Promise<DataEnvelope<LinkInfo>> {
  return apiRequest(`/v1/auth/links/${encodeURIComponent(token)}`);
}

export function useLinkInfo(token: string) {
  return useQuery({ queryKey: ['auth', 'link', token], queryFn: () => getLinkInfo(token), retry: false });
}

/** POST /v1/auth/invitations/accept or /v1/auth/password/reset: sets the password and signs the session in. */
export function useLink(purpose: 'invite' | 'reset') {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: InvitationAcceptBody | PasswordResetBody, signal): Promise<DataEnvelope<User>> =>
      apiRequest(purpose === 'invite' ? '/v1/auth/invitations/accept' : '/v1/auth/password/reset', {
        signal,
        method: 'POST',
        body,
      }),
  });
}

/** POST /v1/auth/password/forgot: the same answer whether or not the address has an account. */
export function useForgotPassword() {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: PasswordForgotBody, signal): Promise<MessageResponse> =>
      apiRequest('/v1/auth/password/forgot', { signal, method: 'POST', body }),
  });
}
