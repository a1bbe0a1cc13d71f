import type { PasswordChangeBody, SessionsEnded } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { accountKeys } from './keys';

/**
 * POST /v1/account/password {current_password, password} → {ended}: every other session is signed out
 * (400 with `errors.current_password` when the current password is wrong).
 */
export function changePassword(body: PasswordChangeBody): Promise<SessionsEnded> {
  return apiRequest('/v1/account/password', { method: 'POST', body, skipDefaultErrorHandler: true });
}

export function useChangePassword() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
