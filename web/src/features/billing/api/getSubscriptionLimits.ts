import type { DataEnvelope, SubscriptionLimits } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { billingKeys, billingPath } from './keys';

/** GET /v1/vendors/{vendorId}/billing/subscription_limits: the plan in force and its limits. */
function getSubscriptionLimits(vendorId: number): Promise<DataEnvelope<SubscriptionLimits>> {
  return apiRequest<DataEnvelope<SubscriptionLimits>>(`${billingPath(vendorId)}/subscription_limits`);
}

const subscriptionLimitsQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: billingKeys.limits(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => getSubscriptionLimits(vendorId),
  });

export function useSubscriptionLimits(vendorId: number) {
  return useQuery(subscriptionLimitsQueryOptions(vendorId));
}
