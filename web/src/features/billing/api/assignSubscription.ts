import type { DataEnvelope, Subscription, SubscriptionAssignBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { adminBillingKeys, billingKeys } from './keys';

/** POST /v1/admin/vendors/{vendorId}/subscriptions (superusers): gives the vendor a plan. */
function assignSubscription(
  vendorId: number,
  body: SubscriptionAssignBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<Subscription>> {
  return apiRequest<DataEnvelope<Subscription>>(`/v1/admin/vendors/${vendorId}/subscriptions`, {
    signal,
    method: 'POST',
    body,
  });
}

export function useAssignSubscription(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: SubscriptionAssignBody, signal) => assignSubscription(vendorId, body, signal),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: adminBillingKeys.subscriptions(vendorId) });
      void client.invalidateQueries({ queryKey: adminBillingKeys.vendors });
      void client.invalidateQueries({ queryKey: billingKeys.all(vendorId) });
    },
  });
}
