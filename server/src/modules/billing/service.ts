import {
  type AdminPlan,
  BILLING_NOT_CONFIGURED,
  type BillingAddress,
  type BillingAddressBody,
  type CancelBody,
  type CheckoutBody,
  ErrorCode,
  type Invoice,
  type InvoicesQuery,
  type ListEnvelope,
  message,
  type Plan,
  type PlanBody,
  type PlanInterval,
  type PlanLimits,
  type PlansQuery,
  type PlanUpdateBody,
  type RedirectUrl,
  type Subscription,
  type SubscriptionAssignBody,
  type SubscriptionLimits,
} from '@llmor/contracts';
import type Stripe from 'stripe';
import type { AppContext } from '../../platform/context';
import type { Db } from '../../platform/db';
import { badGateway, badRequest, conflict, notFound, paymentRequired } from '../../platform/errors';
import type { VendorRow } from '../../platform/http/identity';
import { readSetting, writeSetting } from '../settings/repo';
import { findVendorById } from '../vendors/repo';
import { addMonths, currentPeriod, type Period } from './period';
import { limitsOf, presentAdminPlan, presentInvoice, presentPlan, presentSubscription } from './present';
import {
  activePlans,
  addTokens,
  BILLING_SETTING,
  countApps,
  countInvoices,
  countMembers,
  countPlans,
  findPlan,
  findSubscription,
  LIVE_STATUSES,
  listInvoices,
  listPlans,
  listSubscriptions,
  type PlanRow,
  planInForce,
  type planTermsQuery,
  readUsage,
  replaceSubscription,
  reserveRequest,
  type SubscriptionWithPlan,
  savePlan,
  setCancelAtPeriodEnd,
} from './repo';
import { stripeClient } from './stripe';

/** What a vendor keeps in vendor_settings under `billing`. */
interface BillingSetting {
  customerId: string;
  address: BillingAddress;
}

const EMPTY_ADDRESS: BillingAddress = {
  name: '',
  line1: '',
  line2: '',
  postal_code: '',
  city: '',
  state: '',
  country: '',
};
const UNLIMITED: PlanLimits = { requests: null, tokens: null, apps: null, members: null };

// ------------------------------------------------------------------------------------------------
// The plan in force
// ------------------------------------------------------------------------------------------------

interface BillingState {
  subscription: SubscriptionWithPlan | null;
  /** The subscription's plan, else the default plan, else none (unlimited). */
  plan: PlanRow | null;
  period: Period;
  /** The plan's limits × the subscription's quantity; null is unlimited. */
  limits: PlanLimits;
}

async function billingState(ctx: AppContext, vendorId: number, now = new Date()): Promise<BillingState> {
  const inForce = await planInForce(ctx.db, vendorId);
  const plan = inForce?.plan ?? null;
  const s = inForce?.subscription;
  const subscription = s && plan ? { subscription: s, plan } : null;
  const terms = plan && {
    interval: plan.interval,
    limits: plan.limits,
    quantity: s?.quantity ?? null,
    periodStart: s?.currentPeriodStart ?? null,
    periodEnd: s?.currentPeriodEnd ?? null,
  };
  return { subscription, plan, ...termsState(terms, now) };
}

/** The plan in force as a reply's check reads it (`planTermsQuery`); null: no plan, unlimited. */
export type PlanTerms = Awaited<ReturnType<typeof planTermsQuery>>[number];

/** The period a plan's terms put `now` in, and their limits × the subscription's quantity. */
function termsState(terms: PlanTerms | null, now: Date): Pick<BillingState, 'period' | 'limits'> {
  const period = currentPeriod(
    { start: terms?.periodStart ?? null, end: terms?.periodEnd ?? null },
    (terms?.interval ?? 'month') as PlanInterval,
    now,
  );
  const base = terms ? limitsOf(terms) : UNLIMITED;
  const quantity = terms?.quantity ?? 1;
  const scaled = (v: number | null) => (v === null ? null : v * quantity);
  return {
    period,
    limits: {
      requests: scaled(base.requests),
      tokens: scaled(base.tokens),
      apps: scaled(base.apps),
      members: scaled(base.members),
    },
  };
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** A reply's request as counted: the period it counts in (the conversations' `ReplyReservation`). */
export interface Reservation {
  periodStart: Date;
}

/**
 * What a reply's request is counted against: the plan's period now and its requests and tokens limits.
 * The reply's first write counts it (`reservationUpsert`, docs/adr/0046); past the requests limit, or once
 * the tokens used reach the tokens limit, nothing is counted and `refusedReply` says why.
 */
export interface ReplyTerms {
  period: Period;
  limits: Pick<PlanLimits, 'requests' | 'tokens'>;
}

/**
 * The plan as replies meet it: the conversations' `SpendingPort` and the completion engine's spending,
 * this object itself (the server builds one).
 */
export class ReplySpending {
  constructor(private readonly ctx: AppContext) {}

  async replyTerms(
    vendorId: number,
    /** The plan in force when the request read it with its other rows (`planTermsQuery`). */
    terms?: PlanTerms | null,
  ): Promise<ReplyTerms> {
    const { period, limits } =
      terms === undefined ? await billingState(this.ctx, vendorId) : termsState(terms, new Date());
    return { period, limits: { requests: limits.requests, tokens: limits.tokens } };
  }

  /** The refusal (402 code 60) of a reply whose request its terms did not allow. */
  refusedReply(vendorId: number, { period, limits }: ReplyTerms): Promise<Error> {
    return usedUp(this.ctx, vendorId, period, limits);
  }

  /**
   * Counts one more provider call of a running reply (ADR 0021) as a request, by the same statement and
   * rule as a reply's first write, in the reply's period: a call is refused (402 code 60) once the requests
   * are used up or the tokens used reach the limit, before the provider is asked.
   */
  async reserveCall(vendorId: number, reservation?: Reservation): Promise<void> {
    const { period, limits } = await billingState(this.ctx, vendorId);
    const counted = reservation ? { start: reservation.periodStart, end: period.end } : period;
    if (await reserveRequest(this.ctx.db, vendorId, counted.start, limits)) return;
    throw await usedUp(this.ctx, vendorId, counted, limits);
  }

  /**
   * Refuses (402 code 60, the text `refusedReply` answers) when the period's requests or tokens are used
   * up, counting nothing: a conversation is not opened for a send the plan would refuse.
   */
  async assertReplyRoom(vendorId: number): Promise<void> {
    const { period, limits } = await billingState(this.ctx, vendorId);
    if (limits.requests === null && limits.tokens === null) return;
    const used = await readUsage(this.ctx.db, vendorId, period.start);
    // The rule of `reserveRequest`: room while both counts are below their limits.
    const full =
      (limits.requests !== null && used.requests >= limits.requests) ||
      (limits.tokens !== null && used.tokens >= limits.tokens);
    if (full) throw await usedUp(this.ctx, vendorId, period, limits);
  }

  /**
   * Adds a reply's tokens to the period its request was reserved in (no second look at the plan on the
   * reply's path), else to the current period.
   */
  async recordTokens(vendorId: number, tokens: number, reservation?: Reservation): Promise<void> {
    if (tokens <= 0) return;
    const periodStart = reservation?.periodStart ?? (await billingState(this.ctx, vendorId)).period.start;
    await addTokens(this.ctx.db, vendorId, periodStart, tokens);
  }
}

/** The refusal of a request past the plan: which limit is used up and when the period ends. */
async function usedUp(
  ctx: AppContext,
  vendorId: number,
  period: Period,
  limits: Pick<PlanLimits, 'requests' | 'tokens'>,
) {
  const used = await readUsage(ctx.db, vendorId, period.start);
  const text =
    limits.tokens !== null && used.tokens >= limits.tokens
      ? message('usedUpTokens', { count: limits.tokens, date: day(period.end) })
      : message('usedUpRequests', { count: limits.requests ?? 0, date: day(period.end) });
  return paymentRequired(text, ErrorCode.USAGE_LIMIT_REACHED);
}

/**
 * Refuses a new app or member past the plan's `apps`/`members` limit (402 code 61). `tx` holds the vendor's
 * lock (`withVendorLock`) and makes the insert that follows, so parallel creates cannot both pass.
 */
export async function assertPlanAllows(
  ctx: AppContext,
  tx: Db,
  vendorId: number,
  what: 'apps' | 'members',
): Promise<void> {
  // Every read through `tx`: on PGlite a query outside the open transaction would wait for it.
  const { limits } = await billingState({ ...ctx, db: tx }, vendorId);
  const limit = limits[what];
  if (limit === null) return;
  const used = what === 'apps' ? await countApps(tx, vendorId) : await countMembers(tx, vendorId);
  if (used < limit) return;
  const text =
    what === 'apps'
      ? limit === 1
        ? message('planAllowsOneApp')
        : message('planAllowsApps', { limit })
      : limit === 1
        ? message('planAllowsOneMember')
        : message('planAllowsMembers', { limit });
  throw paymentRequired(text, ErrorCode.PLAN_LIMIT_REACHED);
}

// ------------------------------------------------------------------------------------------------
// Plans (superuser)
// ------------------------------------------------------------------------------------------------

export async function listAdminPlans(ctx: AppContext, q: PlansQuery): Promise<ListEnvelope<AdminPlan>> {
  const page = Number(q.page ?? 0);
  const pageSize = Number(q.page_size ?? 20);
  const [rows, total] = await Promise.all([
    listPlans(ctx.db, {
      order: q.order ?? 'price_minor',
      dir: q.order_dir ?? 'asc',
      offset: page * pageSize,
      limit: pageSize,
    }),
    countPlans(ctx.db),
  ]);
  return { data: rows.map(presentAdminPlan), total_count: total, filter_count: total };
}

async function requirePlan(ctx: AppContext, id: number): Promise<PlanRow> {
  const plan = await findPlan(ctx.db, id);
  if (!plan) throw notFound('Plan');
  return plan;
}

export async function getAdminPlan(ctx: AppContext, id: number): Promise<AdminPlan> {
  return presentAdminPlan(await requirePlan(ctx, id));
}

export async function createPlan(ctx: AppContext, body: PlanBody): Promise<AdminPlan> {
  const row = await savePlan(ctx.db, null, {
    name: body.name,
    description: body.description ?? '',
    priceMinor: body.price_minor,
    currency: body.currency,
    interval: body.interval,
    limits: { ...UNLIMITED, ...body.limits },
    active: body.active ?? true,
    isDefault: body.default ?? false,
    stripePriceId: body.stripe_price_id ?? null,
  });
  return presentAdminPlan(row!);
}

export async function updatePlan(ctx: AppContext, id: number, body: PlanUpdateBody): Promise<AdminPlan> {
  const plan = await requirePlan(ctx, id);
  const row = await savePlan(ctx.db, id, {
    ...(body.name !== undefined ? { name: body.name } : {}),
    ...(body.description !== undefined ? { description: body.description } : {}),
    ...(body.price_minor !== undefined ? { priceMinor: body.price_minor } : {}),
    ...(body.currency !== undefined ? { currency: body.currency } : {}),
    ...(body.interval !== undefined ? { interval: body.interval } : {}),
    ...(body.limits !== undefined ? { limits: { ...limitsOf(plan), ...body.limits } } : {}),
    ...(body.active !== undefined ? { active: body.active } : {}),
    ...(body.default !== undefined ? { isDefault: body.default } : {}),
    ...(body.stripe_price_id !== undefined ? { stripePriceId: body.stripe_price_id } : {}),
  });
  return presentAdminPlan(row!);
}

// ------------------------------------------------------------------------------------------------
// Subscriptions (superuser)
// ------------------------------------------------------------------------------------------------

async function requireVendor(ctx: AppContext, vendorId: number): Promise<VendorRow> {
  const vendor = await findVendorById(ctx.db, vendorId);
  if (!vendor) throw notFound('Vendor');
  return vendor;
}

export async function vendorSubscriptions(
  ctx: AppContext,
  vendorId: number,
): Promise<ListEnvelope<Subscription>> {
  await requireVendor(ctx, vendorId);
  const rows = await listSubscriptions(ctx.db, vendorId);
  return { data: rows.map(presentSubscription), total_count: rows.length, filter_count: rows.length };
}

/**
 * The operator puts a vendor on a plan, in force now for one interval (renewing) and replacing the
 * current subscription; one Stripe billed is cancelled at Stripe too, so it bills no more.
 */
export async function assignSubscription(
  ctx: AppContext,
  vendorId: number,
  body: SubscriptionAssignBody,
): Promise<Subscription> {
  await requireVendor(ctx, vendorId);
  const plan = await requirePlan(ctx, body.plan_id);
  const now = new Date();
  const { created, ended } = await replaceSubscription(ctx.db, vendorId, {
    planId: plan.id,
    quantity: body.quantity ?? 1,
    status: 'active',
    currentPeriodStart: now,
    currentPeriodEnd: addMonths(now, plan.interval === 'year' ? 12 : 1),
  });
  const stripe = await stripeClient(ctx.config);
  for (const old of ended) {
    if (!old.externalId || !stripe) continue;
    await stripe.subscriptions
      .cancel(old.externalId)
      .catch((err: unknown) =>
        ctx.log.warn(
          { err, subscription: old.id },
          'the replaced subscription could not be cancelled at Stripe',
        ),
      );
  }
  return presentSubscription({ subscription: created, plan });
}

// ------------------------------------------------------------------------------------------------
// A vendor's billing (owners)
// ------------------------------------------------------------------------------------------------

export async function availablePlans(ctx: AppContext): Promise<Plan[]> {
  return (await activePlans(ctx.db)).map(presentPlan);
}

async function requireStripe(ctx: AppContext): Promise<Stripe> {
  const stripe = await stripeClient(ctx.config);
  if (!stripe) throw badRequest(BILLING_NOT_CONFIGURED);
  return stripe;
}

export const STRIPE_UNREACHABLE = message('stripeUnreachable');

/**
 * Stripe's refusals (a bad price id, a deleted customer) answer 400 with Stripe's message; Stripe not
 * reached (connection refused or reset, timed out) answers 502.
 */
async function atStripe<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    const e = err as { type?: string; message?: string };
    if (e.type === 'StripeConnectionError') throw badGateway(STRIPE_UNREACHABLE);
    if (typeof e.type === 'string' && e.type.startsWith('Stripe')) {
      throw badRequest(message('stripeRefused', { reason: e.message ?? e.type }));
    }
    throw err;
  }
}

const stripeAddress = (a: BillingAddress) => ({
  line1: a.line1,
  line2: a.line2,
  postal_code: a.postal_code,
  city: a.city,
  state: a.state,
  country: a.country,
});

/** The vendor's Stripe customer, created once and kept in vendor_settings. */
async function ensureCustomer(ctx: AppContext, stripe: Stripe, vendor: VendorRow): Promise<string> {
  const setting = await readSetting<BillingSetting>(ctx.db, vendor.id, BILLING_SETTING);
  if (setting.customerId) return setting.customerId;
  const customer = await atStripe(
    stripe.customers.create({
      name: setting.address?.name || vendor.name,
      metadata: { vendor_id: String(vendor.id), vendor_key: vendor.key },
      ...(setting.address?.line1 ? { address: stripeAddress(setting.address) } : {}),
    }),
  );
  await writeSetting(ctx.db, vendor.id, BILLING_SETTING, { ...setting, customerId: customer.id });
  return customer.id;
}

const subscriptionPage = (ctx: AppContext) => `${ctx.publicUrl}/settings/subscription`;

export async function checkout(ctx: AppContext, vendor: VendorRow, body: CheckoutBody): Promise<RedirectUrl> {
  const stripe = await requireStripe(ctx);
  const plan = await findPlan(ctx.db, body.subscription_id);
  if (!plan?.active) throw notFound('Plan');
  if (!plan.stripePriceId) {
    throw badRequest(message('planNotOnline'));
  }
  const customer = await ensureCustomer(ctx, stripe, vendor);
  const page = subscriptionPage(ctx);
  const metadata = { vendor_id: String(vendor.id), plan_id: String(plan.id) };
  const session = await atStripe(
    stripe.checkout.sessions.create({
      mode: 'subscription',
      customer,
      client_reference_id: String(vendor.id),
      line_items: [{ price: plan.stripePriceId, quantity: body.quantity ?? 1 }],
      success_url: `${page}?checkout=success`,
      cancel_url: `${page}?checkout=cancelled`,
      metadata,
      subscription_data: { metadata },
    }),
  );
  if (!session.url) throw badRequest(message('stripeNoCheckoutUrl'));
  return { url: session.url };
}

/** Cancels at the end of the current period (at Stripe when Stripe bills it). */
export async function cancelSubscription(
  ctx: AppContext,
  vendor: VendorRow,
  body: CancelBody,
): Promise<Subscription> {
  const found = await findSubscription(ctx.db, vendor.id, body.subscription_id);
  if (!found) throw notFound('Subscription');
  const s = found.subscription;
  if (!LIVE_STATUSES.includes(s.status)) throw conflict(message('subscriptionEnded'));
  if (s.externalId) {
    const stripe = await requireStripe(ctx);
    await atStripe(stripe.subscriptions.update(s.externalId, { cancel_at_period_end: true }));
  }
  await setCancelAtPeriodEnd(ctx.db, vendor.id, s.id);
  return presentSubscription((await findSubscription(ctx.db, vendor.id, s.id))!);
}

/** Stripe's billing portal (payment methods, invoices), returning to the subscription page. */
export async function paymentMethodPortal(ctx: AppContext, vendor: VendorRow): Promise<RedirectUrl> {
  const stripe = await requireStripe(ctx);
  const customer = await ensureCustomer(ctx, stripe, vendor);
  const session = await atStripe(
    stripe.billingPortal.sessions.create({ customer, return_url: subscriptionPage(ctx) }),
  );
  return { url: session.url };
}

export async function vendorInvoices(
  ctx: AppContext,
  vendorId: number,
  q: InvoicesQuery,
): Promise<ListEnvelope<Invoice>> {
  const page = Number(q.page ?? 0);
  const pageSize = Number(q.page_size ?? 20);
  const [rows, total] = await Promise.all([
    listInvoices(ctx.db, vendorId, { dir: q.order_dir ?? 'desc', offset: page * pageSize, limit: pageSize }),
    countInvoices(ctx.db, vendorId),
  ]);
  return { data: rows.map(presentInvoice), total_count: total, filter_count: total };
}

export async function billingAddress(ctx: AppContext, vendorId: number): Promise<BillingAddress> {
  const setting = await readSetting<BillingSetting>(ctx.db, vendorId, BILLING_SETTING);
  return { ...EMPTY_ADDRESS, ...setting.address };
}

/** Stores the address; with Stripe the customer gets it first (a refusal changes nothing here). */
export async function saveBillingAddress(
  ctx: AppContext,
  vendor: VendorRow,
  body: BillingAddressBody,
): Promise<BillingAddress> {
  const address: BillingAddress = { ...EMPTY_ADDRESS, ...body };
  const stripe = await stripeClient(ctx.config);
  if (stripe) {
    const customer = await ensureCustomer(ctx, stripe, vendor);
    await atStripe(
      stripe.customers.update(customer, { name: address.name, address: stripeAddress(address) }),
    );
  }
  const setting = await readSetting<BillingSetting>(ctx.db, vendor.id, BILLING_SETTING);
  await writeSetting(ctx.db, vendor.id, BILLING_SETTING, { ...setting, address });
  return address;
}

export async function subscriptionLimits(ctx: AppContext, vendorId: number): Promise<SubscriptionLimits> {
  const state = await billingState(ctx, vendorId);
  const [used, apps, members] = await Promise.all([
    readUsage(ctx.db, vendorId, state.period.start),
    countApps(ctx.db, vendorId),
    countMembers(ctx.db, vendorId),
  ]);
  const periodStart = state.period.start.toISOString();
  const periodEnd = state.period.end.toISOString();
  const inPeriod = (limit: number | null, n: number) => ({
    limit,
    used: n,
    period_start: periodStart,
    period_end: periodEnd,
  });
  const total = (limit: number | null, n: number) => ({
    limit,
    used: n,
    period_start: null,
    period_end: null,
  });
  return {
    plan: state.plan ? presentPlan(state.plan) : null,
    subscription: state.subscription ? presentSubscription(state.subscription) : null,
    period_start: periodStart,
    period_end: periodEnd,
    stripe: Boolean(ctx.config.STRIPE_SECRET_KEY),
    limits: {
      requests: inPeriod(state.limits.requests, used.requests),
      tokens: inPeriod(state.limits.tokens, used.tokens),
      apps: total(state.limits.apps, apps),
      members: total(state.limits.members, members),
    },
  };
}
