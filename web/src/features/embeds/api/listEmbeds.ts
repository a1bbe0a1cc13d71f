import type { Embed, EmbedsQuery, ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';
import { embedKeys, embedsPath } from './keys';

/** GET /v1/vendors/{vendorId}/apps/{appId}/embed: sorted, paged; tokens masked. */
function listEmbeds(vendorId: number, appId: string, query: EmbedsQuery): Promise<ListEnvelope<Embed>> {
  return apiRequest<ListEnvelope<Embed>>(embedsPath(vendorId, appId), {
    query: listQuery(query),
  });
}

const embedsQueryOptions = (vendorId: number, appId: string, query: EmbedsQuery) =>
  queryOptions({
    queryKey: embedKeys.list(vendorId, appId, query),
    meta: LOCAL_ERROR,
    queryFn: () => listEmbeds(vendorId, appId, query),
    placeholderData: keepPreviousData,
  });

export function useEmbeds(vendorId: number, appId: string, query: EmbedsQuery) {
  return useQuery(embedsQueryOptions(vendorId, appId, query));
}
