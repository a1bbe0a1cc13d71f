import { LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { withMinDuration } from '../../../lib/minDuration';
import { functionKeys, functionPath } from './keys';

/** DELETE /v1/vendors/{vendorId}/functions/{id} → 204 (its runs and app installations go with it). */
export async function deleteFunction(vendorId: number, id: number): Promise<void> {
  await apiRequest<void>(functionPath(vendorId, id), { method: 'DELETE', skipDefaultErrorHandler: true });
}

export function useDeleteFunction(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['functions', vendorId, 'delete'],
    mutationFn: (id: number) => withMinDuration(deleteFunction(vendorId, id), LOADING_BUTTON_MIN_MS),
    onSuccess: (_data, id) => {
      client.removeQueries({ queryKey: functionKeys.detail(vendorId, id), type: 'inactive' });
      return client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
