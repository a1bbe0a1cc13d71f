import type { DataEnvelope, User } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { accountKeys } from './keys';

/** GET /v1/account: the signed-in person. */
function getAccount(): Promise<DataEnvelope<User>> {
  return apiRequest('/v1/account');
}

const accountQueryOptions = () =>
  queryOptions({ queryKey: accountKeys.me(), meta: LOCAL_ERROR, queryFn: getAccount });

export function useAccount() {
  return useQuery(accountQueryOptions());
}
