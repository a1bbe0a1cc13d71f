import { type FunctionSaved, type FunctionUpdateBody, LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';
import { functionKeys, functionPath } from './keys';

/** PUT /v1/vendors/{vendorId}/functions/{id} (the Details form) → {data: function, code_error?}. */
function updateFunction(
  vendorId: number,
  id: number,
  body: FunctionUpdateBody,
  signal?: AbortSignal,
): Promise<FunctionSaved> {
  return apiRequest<FunctionSaved>(functionPath(vendorId, id), {
    signal,
    method: 'PUT',
    body,
  });
}

/** The button stays loading for at least LOADING_BUTTON_MIN_MS; the cached function is replaced. */
export function useUpdateFunction(vendorId: number, id: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['functions', vendorId, 'update', id],
    mutationFn: (body: FunctionUpdateBody, signal) =>
      withMinDuration(updateFunction(vendorId, id, body, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (saved) => {
      client.setQueryData(functionKeys.detail(vendorId, id), { data: saved.data });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
