import { LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';
import { modelKeys } from './keys';

/** DELETE /v1/vendors/{vendorId}/models/{id} → 204. */
async function deleteModel(vendorId: number, id: string | number, signal?: AbortSignal): Promise<void> {
  await apiRequest<void>(`/v1/vendors/${vendorId}/models/${encodeURIComponent(String(id))}`, {
    signal,
    method: 'DELETE',
  });
}

export function useDeleteModel(vendorId: number) {
  const queryClient = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['models', 'delete'],
    mutationFn: (id: string | number, signal) =>
      withMinDuration(deleteModel(vendorId, id, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (_data, id) => {
      // Only the lists: the detail page is still mounted until the caller navigates away.
      queryClient.removeQueries({ queryKey: modelKeys.detail(vendorId, String(id)), type: 'inactive' });
      return queryClient.invalidateQueries({ queryKey: modelKeys.lists(vendorId) });
    },
  });
}
