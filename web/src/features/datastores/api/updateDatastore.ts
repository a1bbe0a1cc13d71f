import type { DataEnvelope, Datastore, DatastoreUpdateBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { datastoreKeys, datastoresPath } from './keys';

/** PUT …/datastores/{id}: name, embedding model. */
function updateDatastore(
  vendorId: number,
  appId: string,
  id: number,
  body: DatastoreUpdateBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<Datastore>> {
  return apiRequest<DataEnvelope<Datastore>>(`${datastoresPath(vendorId, appId)}/${id}`, {
    signal,
    method: 'PUT',
    body,
  });
}

export function useUpdateDatastore(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ id, body }: { id: number; body: DatastoreUpdateBody }, signal) =>
      updateDatastore(vendorId, appId, id, body, signal),
    onSuccess: () => client.invalidateQueries({ queryKey: datastoreKeys.list(vendorId, appId) }),
  });
}
