import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { datastorePath } from './keys';
import { useInvalidateDatastore } from './useInvalidateDatastore';

/** DELETE /v1/datastores/{id}/docs/{docId}. */
function deleteDocument(datastoreId: number, id: number, signal?: AbortSignal): Promise<void> {
  return apiRequest<void>(`${datastorePath(datastoreId)}/docs/${id}`, {
    signal,
    method: 'DELETE',
  });
}

export function useDeleteDocument(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (id: number, signal) => deleteDocument(datastoreId, id, signal),
    onSuccess: () => invalidate(datastoreId),
  });
}
