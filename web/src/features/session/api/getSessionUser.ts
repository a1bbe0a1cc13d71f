import type { SessionUser } from '@llmor/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { sessionKeys } from './keys';

/** GET /v1/auth/session/user. The caller handles an invalid session (reload after 3 s, docs/reference/rules.md). */
function getSessionUser(): Promise<SessionUser> {
  return apiRequest<SessionUser>('/v1/auth/session/user', {
    skipInvalidSessionHandler: true,
  });
}

export const sessionUserQueryOptions = () =>
  queryOptions({
    queryKey: sessionKeys.user,
    queryFn: getSessionUser,
    staleTime: 0,
    retry: false,
  });
