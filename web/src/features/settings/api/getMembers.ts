import type { ListEnvelope, Member, MembersQuery } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { settingsKeys } from './keys';

/** GET /v1/vendors/{vendorId}/users (owners): search, sort, paging. */
export function getMembers(vendorId: number, query: MembersQuery): Promise<ListEnvelope<Member>> {
  return apiRequest(`/v1/vendors/${vendorId}/users`, {
    query: {
      page: Number(query.page ?? 0),
      page_size: Number(query.page_size ?? 20),
      order: query.order,
      order_dir: query.order_dir,
      search: query.search || undefined,
    },
    skipDefaultErrorHandler: true,
  });
}

export const membersQueryOptions = (vendorId: number, query: MembersQuery) =>
  queryOptions({
    queryKey: [...settingsKeys.members(vendorId), query] as const,
    queryFn: () => getMembers(vendorId, query),
    placeholderData: keepPreviousData,
  });

export function useMembers(vendorId: number, query: MembersQuery) {
  return useQuery(membersQueryOptions(vendorId, query));
}
