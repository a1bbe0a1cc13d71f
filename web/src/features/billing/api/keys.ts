import type { InvoicesQuery, PlansQuery } from '@llmor/contracts';

/** Query keys of a vendor's billing (owners); `billingKeys.all(vendorId)` covers everything of a vendor. */
export const billingKeys = {
  all: (vendorId: number) => ['billing', vendorId] as const,
  limits: (vendorId: number) => ['billing', vendorId, 'limits'] as const,
  plans: (vendorId: number) => ['billing', vendorId, 'plans'] as const,
  invoices: (vendorId: number, q: InvoicesQuery) => ['billing', vendorId, 'invoices', q] as const,
  address: (vendorId: number) => ['billing', vendorId, 'address'] as const,
};

/** Query keys of the superuser's billing calls: plans, and a vendor's subscriptions. */
export const adminBillingKeys = {
  plans: ['admin', 'plans'] as const,
  planList: (query: PlansQuery) => ['admin', 'plans', query] as const,
  /** The admin's vendor list, which names each vendor's plan. */
  vendors: ['admin', 'vendors'] as const,
  subscriptions: (vendorId: number) => ['admin', 'vendors', vendorId, 'subscriptions'] as const,
};

export const billingPath = (vendorId: number) => `/v1/vendors/${vendorId}/billing`;
