import type { DataEnvelope, LinkInfo } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { authKeys } from './keys';

/** GET /v1/auth/links/{token}: what an invitation or password-reset link is for (400 when it is invalid, used or expired). */
function getLinkInfo(token: string): Promise<DataEnvelope<LinkInfo>> {
  return apiRequest(`/v1/auth/links/${encodeURIComponent(token)}`);
}

const linkInfoQueryOptions = (token: string) =>
  queryOptions({
    queryKey: authKeys.link(token),
    queryFn: () => getLinkInfo(token),
    retry: false,
  });

export function useLinkInfo(token: string) {
  return useQuery(linkInfoQueryOptions(token));
}
