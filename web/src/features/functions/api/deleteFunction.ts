import { LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';
import { functionKeys, functionPath } from './keys';

/** DELETE /v1/vendors/{vendorId}/functions/{id} → 204 (its runs and app installations go with it). */
async function deleteFunction(vendorId: number, id: number, signal?: AbortSignal): Promise<void> {
  await apiRequest<void>(functionPath(vendorId, id), { signal, method: 'DELETE' });
}

export function useDeleteFunction(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['functions', vendorId, 'delete'],
    mutationFn: (id: number, signal) =>
      withMinDuration(deleteFunction(vendorId, id, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: functionKeys.detail(vendorId, id), type: 'inactive' });
      return client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
