import type { ApiClient, ClientsQuery, ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';
import { clientKeys, clientsPath } from './keys';

/** GET /v1/vendors/{vendorId}/apps/{appId}/clients: sorted, paged. */
function listClients(vendorId: number, appId: string, query: ClientsQuery): Promise<ListEnvelope<ApiClient>> {
  return apiRequest<ListEnvelope<ApiClient>>(clientsPath(vendorId, appId), {
    query: listQuery(query),
  });
}

const clientsQueryOptions = (vendorId: number, appId: string, query: ClientsQuery) =>
  queryOptions({
    queryKey: clientKeys.list(vendorId, appId, query),
    meta: LOCAL_ERROR,
    queryFn: () => listClients(vendorId, appId, query),
    placeholderData: keepPreviousData,
  });

export function useClients(vendorId: number, appId: string, query: ClientsQuery) {
  return useQuery(clientsQueryOptions(vendorId, appId, query));
}
