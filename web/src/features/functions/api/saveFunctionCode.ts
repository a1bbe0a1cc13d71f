import type { FunctionSaved } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { functionKeys, functionPath } from './keys';

/** PUT /v1/vendors/{vendorId}/functions/{id}/code {code} → {data, code_error?} (the editor's save icon). */
export function saveFunctionCode(vendorId: number, id: number, code: string): Promise<FunctionSaved> {
  return apiRequest<FunctionSaved>(`${functionPath(vendorId, id)}/code`, {
    method: 'PUT',
    body: { code },
    skipDefaultErrorHandler: true,
  });
}

export function useSaveFunctionCode(vendorId: number, id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['functions', vendorId, 'code', id],
    mutationFn: (code: string) => saveFunctionCode(vendorId, id, code),
    onSuccess: (saved) => {
      client.setQueryData(functionKeys.detail(vendorId, id), { data: saved.data });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
