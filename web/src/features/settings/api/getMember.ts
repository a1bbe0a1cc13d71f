import type { DataEnvelope, Member } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { settingsKeys } from './keys';

/** GET /v1/vendors/{vendorId}/users/{userId}. */
function getMember(vendorId: number, userId: number): Promise<DataEnvelope<Member>> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}`);
}

const memberQueryOptions = (vendorId: number, userId: number) =>
  queryOptions({
    queryKey: settingsKeys.member(vendorId, userId),
    meta: LOCAL_ERROR,
    queryFn: () => getMember(vendorId, userId),
  });

export function useMember(vendorId: number, userId: number) {
  return useQuery(memberQueryOptions(vendorId, userId));
}
