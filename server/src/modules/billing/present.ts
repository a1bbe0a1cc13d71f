import type {
  AdminPlan,
  Invoice,
  Plan,
  PlanInterval,
  PlanLimits,
  Subscription,
  SubscriptionStatus,
} from '@llmor/contracts';
import type { InvoiceRow, PlanRow, SubscriptionWithPlan } from './repo';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** Stored limits as the wire shows them: a limit not set is unlimited (null). */
export function limitsOf(row: Pick<PlanRow, 'limits'>): PlanLimits {
  const stored = (row.limits ?? {}) as Partial<PlanLimits>;
  return {
    requests: stored.requests ?? null,
    tokens: stored.tokens ?? null,
    apps: stored.apps ?? null,
    members: stored.members ?? null,
  };
}

export function presentPlan(row: PlanRow): Plan {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    price_minor: row.priceMinor,
    currency: row.currency,
    interval: row.interval as PlanInterval,
    limits: limitsOf(row),
    purchasable: Boolean(row.stripePriceId),
  };
}

export function presentAdminPlan(row: PlanRow): AdminPlan {
  return {
    ...presentPlan(row),
    active: row.active,
    default: row.isDefault,
    stripe_price_id: row.stripePriceId,
    created_at: row.createdAt.toISOString(),
  };
}

export function presentSubscription({ subscription: s, plan }: SubscriptionWithPlan): Subscription {
  return {
    id: s.id,
    plan_id: plan.id,
    plan: plan.name,
    quantity: s.quantity,
    status: s.status as SubscriptionStatus,
    managed_by: s.externalId ? 'stripe' : 'operator',
    current_period_start: iso(s.currentPeriodStart),
    current_period_end: iso(s.currentPeriodEnd),
    cancel_at_period_end: s.cancelAtPeriodEnd,
    created_at: s.createdAt.toISOString(),
  };
}

export function presentInvoice(row: InvoiceRow): Invoice {
  return {
    id: row.id,
    number: row.number,
    amount_minor: row.amountMinor,
    currency: row.currency,
    status: row.status,
    period_start: iso(row.periodStart),
    period_end: iso(row.periodEnd),
    pdf_url: row.pdfUrl,
  };
}
