import { type FunctionCreateBody, type FunctionSaved, LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { withMinDuration } from '../../../lib/minDuration';
import { functionKeys, functionPath } from './keys';

/**
 * POST /v1/vendors/{vendorId}/functions {name, function_key, description, runtime, is_library,
 * specific_app_id?} → 201 {data: function, code_error?}. Errors (message + field map) go to the form.
 */
function createFunction(
  vendorId: number,
  body: FunctionCreateBody,
  signal?: AbortSignal,
): Promise<FunctionSaved> {
  return apiRequest<FunctionSaved>(functionPath(vendorId), {
    signal,
    method: 'POST',
    body,
  });
}

/** The button stays loading for at least LOADING_BUTTON_MIN_MS; the new function is cached. */
export function useCreateFunction(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['functions', vendorId, 'create'],
    mutationFn: (body: FunctionCreateBody, signal) =>
      withMinDuration(createFunction(vendorId, body, signal), LOADING_BUTTON_MIN_MS),
    onSuccess: (saved) => {
      client.setQueryData(functionKeys.detail(vendorId, saved.data.id), { data: saved.data });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
