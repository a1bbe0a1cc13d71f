import type { AccountSession, DataEnvelope } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { accountKeys } from './keys';

/** GET /v1/account/sessions: the person's signed-in sessions, most recently used first. */
function getSessions(): Promise<DataEnvelope<AccountSession[]>> {
  return apiRequest('/v1/account/sessions');
}

const sessionsQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.sessions(), meta: LOCAL_ERROR, queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions());
}
