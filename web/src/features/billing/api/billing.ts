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
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
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
    queryFn: () =>
      apiRequest<DataEnvelope<SubscriptionLimits>>(`${base(vendorId)}/subscription_limits`, {
        skipDefaultErrorHandler: true,
      }),
  });
}

export function useAvailablePlans(vendorId: number) {
  return useQuery({
    queryKey: keys.plans(vendorId),
    queryFn: () =>
      apiRequest<DataEnvelope<Plan[]>>(`${base(vendorId)}/available_subs`, { skipDefaultErrorHandler: true }),
  });
}

export function useInvoices(vendorId: number, query: InvoicesQuery) {
  return useQuery({
    queryKey: keys.invoices(vendorId, query),
    queryFn: () =>
      apiRequest<ListEnvelope<Invoice>>(`${base(vendorId)}/invoices`, {
        query: listQuery(query),
        skipDefaultErrorHandler: true,
      }),
    placeholderData: keepPreviousData,
  });
}

export function useBillingAddress(vendorId: number) {
  return useQuery({
    queryKey: keys.address(vendorId),
    queryFn: () =>
      apiRequest<DataEnvelope<BillingAddress>>(`${base(vendorId)}/address`, {
        skipDefaultErrorHandler: true,
      }),
  });
}

export function useSaveBillingAddress(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: BillingAddressBody) =>
      apiRequest<DataEnvelope<BillingAddress>>(`${base(vendorId)}/address`, {
        method: 'PUT',
        body,
        skipDefaultErrorHandler: true,
      }),
    onSuccess: (answer) => client.setQueryData(keys.address(vendorId), answer),
  });
}

/** Stripe Checkout for a plan: the answer's URL is where the browser goes next. */
export function useCheckout(vendorId: number) {
  return useMutation({
    mutationFn: (body: CheckoutBody) =>
      apiRequest<DataEnvelope<RedirectUrl>>(`${base(vendorId)}/to/checkout`, {
        method: 'POST',
        body,
        skipDefaultErrorHandler: true,
      }),
  });
}

export function useCancelSubscription(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CancelBody) =>
      apiRequest<DataEnvelope<Subscription>>(`${base(vendorId)}/to/cancel`, {
        method: 'POST',
        body,
        skipDefaultErrorHandler: true,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.all(vendorId) }),
  });
}

/** Stripe's billing portal: the answer's URL is where the browser goes next. */
export function usePaymentMethodPortal(vendorId: number) {
  return useMutation({
    mutationFn: () =>
      apiRequest<DataEnvelope<RedirectUrl>>(`${base(vendorId)}/to/payment-method`, {
        skipDefaultErrorHandler: true,
      }),
  });
}
