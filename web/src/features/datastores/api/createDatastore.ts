import type { DataEnvelope, Datastore, DatastoreCreateBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { datastoreKeys, datastoresPath } from './keys';

/** POST …/datastores (resolve=creator). */
function createDatastore(
  vendorId: number,
  appId: string,
  body: DatastoreCreateBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<Datastore>> {
  return apiRequest<DataEnvelope<Datastore>>(datastoresPath(vendorId, appId), {
    signal,
    method: 'POST',
    body,
    query: { resolve: 'creator' },
  });
}

export function useCreateDatastore(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: DatastoreCreateBody, signal) => createDatastore(vendorId, appId, body, signal),
    onSuccess: () => client.invalidateQueries({ queryKey: datastoreKeys.list(vendorId, appId) }),
  });
}
