import type { FunctionBuildBody, FunctionBuildResponse } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { functionKeys, functionPath } from './keys';

/**
 * POST /v1/vendors/{vendorId}/functions/{id}/build {code, arguments, config} → the run result (status,
 * took, memory, result, console, run_id; debug / error; schemas). Errors are only logged (docs/reference/console.md).
 */
export function buildFunction(
  vendorId: number,
  id: number,
  body: FunctionBuildBody,
): Promise<FunctionBuildResponse> {
  return apiRequest<FunctionBuildResponse>(`${functionPath(vendorId, id)}/build`, {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
  });
}

/** Every build is stored as a run: the runs, stats and list counters are refreshed afterwards. */
export function useBuildFunction(vendorId: number, id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationKey: ['functions', vendorId, 'build', id],
    mutationFn: (body: FunctionBuildBody) => buildFunction(vendorId, id, body),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: functionKeys.runs(vendorId, id) });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
