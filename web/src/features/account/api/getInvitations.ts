import type { DataEnvelope, PendingInvitation } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { accountKeys } from './keys';

/** GET /v1/account/invitations: the person's own pending invitations. */
function getInvitations(): Promise<DataEnvelope<PendingInvitation[]>> {
  return apiRequest('/v1/account/invitations');
}

const invitationsQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.invitations(), meta: LOCAL_ERROR, queryFn: getInvitations });

export function useInvitations() {
  return useQuery(invitationsQueryOptions());
}

/** How many invitations wait for an answer (the user menu's badge); 0 while unknown. */
export function usePendingInvitationCount(): number {
  const { data } = useQuery({ ...invitationsQueryOptions(), staleTime: 60_000 });
  return data?.data.length ?? 0;
}
