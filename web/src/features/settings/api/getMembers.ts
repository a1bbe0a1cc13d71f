import type { ListEnvelope, Member, MembersQuery } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';
import { settingsKeys } from './keys';

/** GET /v1/vendors/{vendorId}/users (owners): search, sort, paging. */
function getMembers(vendorId: number, query: MembersQuery): Promise<ListEnvelope<Member>> {
  return apiRequest(`/v1/vendors/${vendorId}/users`, {
    query: listQuery(query),
  });
}

const membersQueryOptions = (vendorId: number, query: MembersQuery) =>
  queryOptions({
    queryKey: settingsKeys.memberList(vendorId, query),
    meta: LOCAL_ERROR,
    queryFn: () => getMembers(vendorId, query),
    placeholderData: keepPreviousData,
  });

export function useMembers(vendorId: number, query: MembersQuery) {
  return useQuery(membersQueryOptions(vendorId, query));
}
