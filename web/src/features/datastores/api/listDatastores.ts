import type { Datastore, ListEnvelope } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { datastoreKeys, datastoresPath } from './keys';

/** GET /v1/vendors/{vendorId}/apps/{appId}/datastores. */
function listDatastores(vendorId: number, appId: string): Promise<ListEnvelope<Datastore>> {
  return apiRequest<ListEnvelope<Datastore>>(datastoresPath(vendorId, appId));
}

const datastoresQueryOptions = (vendorId: number, appId: string) =>
  queryOptions({
    queryKey: datastoreKeys.list(vendorId, appId),
    meta: LOCAL_ERROR,
    queryFn: () => listDatastores(vendorId, appId),
    select: (r) => r.data,
  });

export function useDatastores(vendorId: number, appId: string) {
  return useQuery(datastoresQueryOptions(vendorId, appId));
}
