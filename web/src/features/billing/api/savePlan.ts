import type { AdminPlan, DataEnvelope, PlanBody, PlanUpdateBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { adminBillingKeys } from './keys';

/** POST /v1/admin/plans (`id` null) or PUT /v1/admin/plans/{id}. */
function savePlan(
  id: number | null,
  body: PlanBody | PlanUpdateBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<AdminPlan>> {
  return apiRequest<DataEnvelope<AdminPlan>>(id === null ? '/v1/admin/plans' : `/v1/admin/plans/${id}`, {
    signal,
    method: id === null ? 'POST' : 'PUT',
    body,
  });
}

export function useSavePlan() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ id, body }: { id: number | null; body: PlanBody | PlanUpdateBody }, signal) =>
      savePlan(id, body, signal),
    onSuccess: () => client.invalidateQueries({ queryKey: adminBillingKeys.plans }),
  });
}
