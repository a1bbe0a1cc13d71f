import type { CancelBody, DataEnvelope, Subscription } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { billingKeys, billingPath } from './keys';

/** POST /v1/vendors/{vendorId}/billing/to/cancel. */
function cancelSubscription(
  vendorId: number,
  body: CancelBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<Subscription>> {
  return apiRequest<DataEnvelope<Subscription>>(`${billingPath(vendorId)}/to/cancel`, {
    signal,
    method: 'POST',
    body,
  });
}

export function useCancelSubscription(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: CancelBody, signal) => cancelSubscription(vendorId, body, signal),
    onSuccess: () => client.invalidateQueries({ queryKey: billingKeys.all(vendorId) }),
  });
}
