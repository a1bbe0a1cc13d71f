import type { DataEnvelope, DatastoreDocument } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { datastorePath } from './keys';
import { useInvalidateDatastore } from './useInvalidateDatastore';

/** PUT /v1/datastores/{id}/docs/{docId} {document}. */
function updateDocument(
  datastoreId: number,
  id: number,
  document: unknown,
  signal?: AbortSignal,
): Promise<DataEnvelope<DatastoreDocument>> {
  return apiRequest<DataEnvelope<DatastoreDocument>>(`${datastorePath(datastoreId)}/docs/${id}`, {
    signal,
    method: 'PUT',
    body: { document },
  });
}

export function useUpdateDocument(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ id, document }: { id: number; document: unknown }, signal) =>
      updateDocument(datastoreId, id, document, signal),
    onSuccess: () => invalidate(datastoreId),
  });
}
