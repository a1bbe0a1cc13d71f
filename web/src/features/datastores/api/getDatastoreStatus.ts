import type { DataEnvelope, DatastoreStatus } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { datastoreKeys, datastorePath } from './keys';

/** GET /v1/datastores/{id}/status. */
function getDatastoreStatus(datastoreId: number): Promise<DataEnvelope<DatastoreStatus>> {
  return apiRequest<DataEnvelope<DatastoreStatus>>(`${datastorePath(datastoreId)}/status`);
}

/** Polled every 1.5 s while documents wait for embedding. */
const datastoreStatusQueryOptions = (datastoreId: number) =>
  queryOptions({
    queryKey: datastoreKeys.status(datastoreId),
    queryFn: () => getDatastoreStatus(datastoreId),
    select: (r) => r.data,
    refetchInterval: (q) => ((q.state.data?.data.pending ?? 0) > 0 ? 1500 : false),
  });

export function useDatastoreStatus(datastoreId: number) {
  return useQuery(datastoreStatusQueryOptions(datastoreId));
}
