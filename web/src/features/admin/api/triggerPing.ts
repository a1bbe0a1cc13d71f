import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';

/** POST /v1/admin/queue/ping → 202 {data: {id}}: the queue monitor's ping job. */
function triggerPing(signal?: AbortSignal): Promise<{ data: { id: string } }> {
  return apiRequest<{ data: { id: string } }>('/v1/admin/queue/ping', {
    signal,
    method: 'POST',
  });
}

export function useTriggerPing() {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) => triggerPing(signal),
  });
}
