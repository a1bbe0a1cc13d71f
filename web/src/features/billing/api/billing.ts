import type {
  BillingAddress,
  BillingAddressBody,
  CancelBody,
  CheckoutBody,
  DataEnvelope,
  Invoice,
  InvoicesQuery,
  ListEnvelope,
  Plan,
  RedirectUrl,
  Subscription,
  SubscriptionLimits,
} from '@llmor/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';

// A vendor's billing calls (owners): the plan in force and its limits, plans, invoices, the address,
// checkout, cancel, and the payment-method portal.

const keys = {
  all: (vendorId: number) => ['billing', vendorId] as const,
  limits: (vendorId: number) => ['billing', vendorId, 'limits'] as const,
  plans: (vendorId: number) => ['billing', vendorId, 'plans'] as const,
  invoices: (vendorId: number, q: InvoicesQuery) => ['billing', vendorId, 'invoices', q] as const,
  address: (vendorId: number) => ['billing', vendorId, 'address'] as const,
};
const base = (vendorId: number) => `/v1/vendors/${vendorId}/billing`;

export function useSubscriptionLimits(vendorId: number) {
  return useQuery({
    queryKey: keys.limits(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<DataEnvelope<SubscriptionLimits>>(`${base(vendorId)}/subscription_limits`),
  });
}

export function useAvailablePlans(vendorId: number) {
  return useQuery({
    queryKey: keys.plans(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<DataEnvelope<Plan[]>>(`${base(vendorId)}/available_subs`),
  });
}

export function useInvoices(vendorId: number, query: InvoicesQuery) {
  return useQuery({
    queryKey: keys.invoices(vendorId, query),
    meta: LOCAL_ERROR,
    queryFn: () =>
      apiRequest<ListEnvelope<Invoice>>(`${base(vendorId)}/invoices`, {
        query: listQuery(query),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useBillingAddress(vendorId: number) {
  return useQuery({
    queryKey: keys.address(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<DataEnvelope<BillingAddress>>(`${base(vendorId)}/address`),
  });
}

export function useSaveBillingAddress(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: BillingAddressBody, signal) =>
      apiRequest<DataEnvelope<BillingAddress>>(`${base(vendorId)}/address`, {
        signal,
        method: 'PUT',
        body,
      }),
    onSuccess: (answer) => client.setQueryData(keys.address(vendorId), answer),
  });
}

/** Stripe Checkout for a plan: the answer's URL is where the browser goes next. */
export function useCheckout(vendorId: number) {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: CheckoutBody, signal) =>
      apiRequest<DataEnvelope<RedirectUrl>>(`${base(vendorId)}/to/checkout`, {
        signal,
        method: 'POST',
        body,
      }),
  });
}

export function useCancelSubscription(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: CancelBody, signal) =>
      apiRequest<DataEnvelope<Subscription>>(`${base(vendorId)}/to/cancel`, {
        signal,
        method: 'POST',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all(vendorId) }),
  });
}

/** Stripe's billing portal: the answer's URL is where the browser goes next. */
export function usePaymentMethodPortal(vendorId: number) {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: () => apiRequest<DataEnvelope<RedirectUrl>>(`${base(vendorId)}/to/payment-method`),
  });
}
