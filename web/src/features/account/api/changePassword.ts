import type { PasswordChangeBody, SessionsEnded } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { accountKeys } from './keys';

/**
 * POST /v1/account/password {current_password, password} → {ended}: every other session is signed out
 * (400 with `errors.current_password` when the current password is wrong).
 */
function changePassword(body: PasswordChangeBody, signal?: AbortSignal): Promise<SessionsEnded> {
  return apiRequest('/v1/account/password', { signal, method: 'POST', body });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: changePassword,
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
