import type { SessionsEnded } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { accountKeys } from './keys';

/** POST /v1/account/sessions/signout-others → {ended}: signs out everywhere but here. */
export function signOutOtherSessions(): Promise<SessionsEnded> {
  return apiRequest('/v1/account/sessions/signout-others', {
    method: 'POST',
    skipDefaultErrorHandler: true,
  });
}

export function useSignOutOtherSessions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: signOutOtherSessions,
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
