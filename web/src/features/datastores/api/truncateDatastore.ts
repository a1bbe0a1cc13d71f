import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';
import { datastorePath } from './keys';
import { useInvalidateDatastore } from './useInvalidateDatastore';

/** POST /v1/datastores/{id}/truncate → {message} (the success toast). */
function truncateDatastore(datastoreId: number, signal?: AbortSignal): Promise<{ message: string }> {
  return apiRequest<{ message: string }>(`${datastorePath(datastoreId)}/truncate`, {
    signal,
    method: 'POST',
  });
}

export function useTruncateDatastore(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) => truncateDatastore(datastoreId, signal),
    onSuccess: () => invalidate(datastoreId),
  });
}
