import type { ListEnvelope, Subscription } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { adminBillingKeys } from './keys';

/** GET /v1/admin/vendors/{vendorId}/subscriptions (superusers). */
function listVendorSubscriptions(vendorId: number): Promise<ListEnvelope<Subscription>> {
  return apiRequest<ListEnvelope<Subscription>>(`/v1/admin/vendors/${vendorId}/subscriptions`);
}

const vendorSubscriptionsQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: adminBillingKeys.subscriptions(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => listVendorSubscriptions(vendorId),
  });

export function useVendorSubscriptions(vendorId: number) {
  return useQuery(vendorSubscriptionsQueryOptions(vendorId));
}
