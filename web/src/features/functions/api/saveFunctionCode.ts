import type { FunctionSaved } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { functionKeys, functionPath } from './keys';

/** PUT /v1/vendors/{vendorId}/functions/{id}/code {code} → {data, code_error?} (the editor's save icon). */
function saveFunctionCode(
  vendorId: number,
  id: number,
  code: string,
  signal?: AbortSignal,
): Promise<FunctionSaved> {
  return apiRequest<FunctionSaved>(`${functionPath(vendorId, id)}/code`, {
    signal,
    method: 'PUT',
    body: { code },
  });
}

export function useSaveFunctionCode(vendorId: number, id: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['functions', vendorId, 'code', id],
    mutationFn: (code: string, signal) => saveFunctionCode(vendorId, id, code, signal),
    onSuccess: (saved) => {
      client.setQueryData(functionKeys.detail(vendorId, id), { data: saved.data });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
