import type { FunctionBuildBody, FunctionBuildResponse } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { functionKeys, functionPath } from './keys';

/**
 * POST /v1/vendors/{vendorId}/functions/{id}/build {code, arguments, config} → the run result (status,
 * took, memory, result, console, run_id; debug / error; schemas). Errors are only logged (docs/reference/console.md).
 */
function buildFunction(
  vendorId: number,
  id: number,
  body: FunctionBuildBody,
  signal?: AbortSignal,
): Promise<FunctionBuildResponse> {
  return apiRequest<FunctionBuildResponse>(`${functionPath(vendorId, id)}/build`, {
    signal,
    method: 'POST',
    body,
  });
}

/** Every build is stored as a run: the runs, stats and list counters are refreshed afterwards. */
export function useBuildFunction(vendorId: number, id: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationKey: ['functions', vendorId, 'build', id],
    mutationFn: (body: FunctionBuildBody, signal) => buildFunction(vendorId, id, body, signal),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: functionKeys.runs(vendorId, id) });
      void client.invalidateQueries({ queryKey: functionKeys.lists(vendorId) });
    },
  });
}
