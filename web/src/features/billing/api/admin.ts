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
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { listQuery } from '../../../lib/api/query';

// The superuser's billing calls: plans, and a vendor's subscriptions.

const keys = {
  plans: ['admin', 'plans'] as const,
  subscriptions: (vendorId: number) => ['admin', 'vendors', vendorId, 'subscriptions'] as const,
};

export function useAdminPlans(query: PlansQuery) {
  return useQuery({
    queryKey: [...keys.plans, query],
    queryFn: () =>
      apiRequest<ListEnvelope<AdminPlan>>('/v1/admin/plans', {
        query: listQuery(query),
        skipDefaultErrorHandler: true,
      }),
    placeholderData: keepPreviousData,
  });
}

/** Creates a plan (`id` null) or updates one. */
export function useSavePlan() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: PlanBody | PlanUpdateBody }) =>
      apiRequest<DataEnvelope<AdminPlan>>(id === null ? '/v1/admin/plans' : `/v1/admin/plans/${id}`, {
        method: id === null ? 'POST' : 'PUT',
        body,
        skipDefaultErrorHandler: true,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.plans }),
  });
}

export function useVendorSubscriptions(vendorId: number) {
  return useQuery({
    queryKey: keys.subscriptions(vendorId),
    queryFn: () =>
      apiRequest<ListEnvelope<Subscription>>(`/v1/admin/vendors/${vendorId}/subscriptions`, {
        skipDefaultErrorHandler: true,
      }),
  });
}

export function useAssignSubscription(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: SubscriptionAssignBody) =>
      apiRequest<DataEnvelope<Subscription>>(`/v1/admin/vendors/${vendorId}/subscriptions`, {
        method: 'POST',
        body,
        skipDefaultErrorHandler: true,
      }),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: keys.subscriptions(vendorId) });
      // The vendor list names each vendor's plan.
      void client.invalidateQueries({ queryKey: ['admin', 'vendors'] });
      void client.invalidateQueries({ queryKey: ['billing', vendorId] });
    },
  });
}
