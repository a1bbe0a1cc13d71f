import type { SessionsEnded } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';
import { accountKeys } from './keys';

/** POST /v1/account/sessions/signout-others → {ended}: signs out everywhere but here. */
function signOutOtherSessions(signal?: AbortSignal): Promise<SessionsEnded> {
  return apiRequest('/v1/account/sessions/signout-others', {
    signal,
    method: 'POST',
  });
}

export function useSignOutOtherSessions() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) => signOutOtherSessions(signal),
    onSuccess: () => client.invalidateQueries({ queryKey: accountKeys.sessions() }),
  });
}
