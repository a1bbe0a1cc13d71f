import type { DatastoreDocument, ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { datastoreKeys, datastorePath } from './keys';

/** GET /v1/datastores/{id}/docs (paged; `v` is the refresh version). */
function listDocuments(
  datastoreId: number,
  page: number,
  pageSize: number,
  version: number,
): Promise<ListEnvelope<DatastoreDocument>> {
  return apiRequest<ListEnvelope<DatastoreDocument>>(`${datastorePath(datastoreId)}/docs`, {
    query: { page, page_size: pageSize, v: version },
  });
}

/** `poll` refetches every 1.5 s (while documents wait for embedding, so their sync dots turn green). */
const documentsQueryOptions = (
  datastoreId: number,
  page: number,
  pageSize: number,
  version: number,
  poll: boolean,
) =>
  queryOptions({
    refetchInterval: poll ? 1500 : false,
    queryKey: datastoreKeys.documentPage(datastoreId, page, pageSize, version),
    meta: LOCAL_ERROR,
    queryFn: () => listDocuments(datastoreId, page, pageSize, version),
    placeholderData: keepPreviousData,
  });

export function useDocuments(
  datastoreId: number,
  page: number,
  pageSize: number,
  version: number,
  poll: boolean,
) {
  return useQuery(documentsQueryOptions(datastoreId, page, pageSize, version, poll));
}
