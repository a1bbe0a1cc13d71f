import type {
  AdminPlan,
  DataEnvelope,
  ListEnvelope,
  PlanBody,
  PlansQuery,
  PlanUpdateBody,
  Subscription,
  SubscriptionAssignBody,
} from '@llmor/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';

// The superuser's billing calls: plans, and a vendor's subscriptions.

const keys = {
  plans: ['admin', 'plans'] as const,
  subscriptions: (vendorId: number) => ['admin', 'vendors', vendorId, 'subscriptions'] as const,
};

export function useAdminPlans(query: PlansQuery) {
  return useQuery({
    queryKey: [...keys.plans, query],
    meta: LOCAL_ERROR,
    queryFn: () =>
      apiRequest<ListEnvelope<AdminPlan>>('/v1/admin/plans', {
        query: listQuery(query),
      }),
    placeholderData: keepPreviousData,
  });
}

/** Creates a plan (`id` null) or updates one. */
export function useSavePlan() {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ id, body }: { id: number | null; body: PlanBody | PlanUpdateBody }, signal) =>
      apiRequest<DataEnvelope<AdminPlan>>(id === null ? '/v1/admin/plans' : `/v1/admin/plans/${id}`, {
        signal,
        method: id === null ? 'POST' : 'PUT',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.plans }),
  });
}

export function useVendorSubscriptions(vendorId: number) {
  return useQuery({
    queryKey: keys.subscriptions(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<ListEnvelope<Subscription>>(`/v1/admin/vendors/${vendorId}/subscriptions`),
  });
}

export function useAssignSubscription(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: SubscriptionAssignBody, signal) =>
      apiRequest<DataEnvelope<Subscription>>(`/v1/admin/vendors/${vendorId}/subscriptions`, {
        signal,
        method: 'POST',
        body,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.subscriptions(vendorId) });
      // The vendor list names each vendor's plan.
      void client.invalidateQueries({ queryKey: ['admin', 'vendors'] });
      void client.invalidateQueries({ queryKey: ['billing', vendorId] });
    },
  });
}
