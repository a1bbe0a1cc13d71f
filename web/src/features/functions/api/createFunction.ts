import { type FunctionCreateBody, type FunctionSaved, LOADING_BUTTON_MIN_MS } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { withMinDuration } from '../../../lib/minDuration';
import { functionKeys, functionPath } from './keys';

/**
 * POST /v1/vendors/{vendorId}/functions {name, function_key, description, runtime, is_library,
 * specific_app_id?} → 201 {data: function, code_error?}. Errors (message + field map) go to the form.
 */
export function createFunction(vendorId: number, body: FunctionCreateBody): Promise<FunctionSaved> {
  return apiRequest<FunctionSaved>(functionPath(vendorId), {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
  });
}

/** The button stays loading for at least LOADING_BUTTON_MIN_MS; the new function is cached. */
export function useCreateFunction(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['functions', vendorId, 'create'],
    mutationFn: (body: FunctionCreateBody) =>
      withMinDuration(createFunction(vendorId, body), LOADING_BUTTON_MIN_MS),
    onSuccess: (saved) => {
      client.setQueryData(functionKeys.detail(vendorId, saved.data.id), { data: saved.data });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
