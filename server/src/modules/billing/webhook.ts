import type Stripe from 'stripe';
import type { AppContext } from '../../platform/context';
import type { Db } from '../../platform/db';
import { badRequest } from '../../platform/errors';
import { findVendorById } from '../vendors/repo';
import {
  applyEventOnce,
  eventSeen,
  findPlan,
  planByStripePrice,
  stripeSubscriptionState,
  subscriptionIdByExternal,
  TERMINAL_STATUSES,
  upsertInvoice,
  upsertStripeSubscription,
  vendorIdByCustomer,
  vendorIdBySubscription,
} from './repo';
import { fromUnix, idOf, stripeClient, verifyWebhook } from './stripe';

export const INVALID_SIGNATURE =
  'The Stripe signature is missing, invalid, or not dated within 300 s of now.';

const SUBSCRIPTION_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
];
const INVOICE_EVENTS = ['invoice.paid', 'invoice.payment_failed', 'invoice.finalized'];

/** Our vendor of a Stripe object: the customer we created for it, else the vendor id we put in its metadata. */
async function vendorOf(
  db: Db,
  customer: string | { id: string } | null,
  metadataVendorId: string | null | undefined,
): Promise<number | null> {
  const customerId = idOf(customer);
  const byCustomer = customerId ? await vendorIdByCustomer(db, customerId) : null;
  if (byCustomer) return byCustomer;
  const id = Number(metadataVendorId);
  if (!Number.isSafeInteger(id) || id <= 0) return null;
  return (await findVendorById(db, id)) ? id : null;
}

/** A subscription's state to apply, as of `at` (the event's time); `fresh` when just fetched from Stripe. */
interface SubscriptionState {
  sub: Stripe.Subscription;
  at: Date;
  fresh: boolean;
}

/** Stripe's subscription into ours: the plan by the item's price (a plan change in the portal), else by metadata. */
async function applySubscription(ctx: AppContext, db: Db, { sub, at, fresh }: SubscriptionState) {
  const vendorId = await vendorOf(db, sub.customer, sub.metadata?.vendor_id);
  const item = sub.items.data[0];
  const byPrice = item ? await planByStripePrice(db, item.price.id) : null;
  const planId = Number(sub.metadata?.plan_id);
  const plan = byPrice ?? (Number.isSafeInteger(planId) && planId > 0 ? await findPlan(db, planId) : null);
  if (!vendorId || !plan) {
    ctx.log.warn({ subscription: sub.id }, 'a Stripe subscription of no known vendor or plan was ignored');
    return;
  }
  await upsertStripeSubscription(db, vendorId, {
    externalId: sub.id,
    planId: plan.id,
    quantity: item?.quantity ?? 1,
    status: sub.status,
    currentPeriodStart: fromUnix(item?.current_period_start),
    currentPeriodEnd: fromUnix(item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
    stripeStateAt: at,
    fresh,
  });
}

/** The Stripe subscription an invoice bills: `parent.subscription_details` since 2025, `subscription` before. */
const invoiceSubscription = (invoice: Stripe.Invoice): string | null =>
  idOf(
    invoice.parent?.subscription_details?.subscription ??
      (invoice as { subscription?: string | { id: string } | null }).subscription,
  );

/** Our vendor of an invoice: its customer's, else its subscription's (any customer), else its metadata's. */
async function invoiceVendor(db: Db, invoice: Stripe.Invoice): Promise<number | null> {
  const customerId = idOf(invoice.customer);
  const byCustomer = customerId ? await vendorIdByCustomer(db, customerId) : null;
  if (byCustomer) return byCustomer;
  const subscription = invoiceSubscription(invoice);
  const bySubscription = subscription ? await vendorIdBySubscription(db, subscription) : null;
  return bySubscription ?? vendorOf(db, null, invoice.metadata?.vendor_id);
}

async function applyInvoice(ctx: AppContext, db: Db, invoice: Stripe.Invoice) {
  const vendorId = await invoiceVendor(db, invoice);
  if (!vendorId || !invoice.id) {
    ctx.log.warn({ invoice: invoice.id }, 'a Stripe invoice of no known vendor was ignored');
    return;
  }
  const externalSubscription = invoiceSubscription(invoice);
  // The subscription's line carries the period billed (the invoice's own period is the one before).
  const period = invoice.lines?.data[0]?.period;
  await upsertInvoice(db, vendorId, invoice.id, {
    subscriptionId: externalSubscription
      ? await subscriptionIdByExternal(db, vendorId, externalSubscription)
      : null,
    number: invoice.number,
    amountMinor: invoice.total,
    currency: invoice.currency.toUpperCase(),
    status: invoice.status ?? 'draft',
    periodStart: fromUnix(period?.start ?? invoice.period_start),
    periodEnd: fromUnix(period?.end ?? invoice.period_end),
    pdfUrl: invoice.invoice_pdf ?? invoice.hosted_invoice_url ?? null,
  });
}

/**
 * Stripe's subscription as it is now (before the transaction: no network inside it); null when Stripe
 * knows no such subscription. Any other failure throws, so nothing is recorded and Stripe retries.
 */
async function fetchSubscription(ctx: AppContext, id: string, at: Date): Promise<SubscriptionState | null> {
  const stripe = await stripeClient(ctx.config);
  if (!stripe) return null;
  try {
    return { sub: await stripe.subscriptions.retrieve(id), at, fresh: true };
  } catch (err) {
    if ((err as { code?: string }).code === 'resource_missing') return null;
    throw err;
  }
}

/**
 * The subscription state an event brings, decided by state and time rather than arrival (ADR 0024):
 * a completed checkout's subscription is fetched; an event as old as the state already applied (Stripe's
 * times are whole seconds) leaves the order in doubt, so the subscription is fetched from Stripe; an
 * invoice of a subscription llmor does not know yet fetches it, so the invoice finds its subscription.
 * Older events are dropped by `upsertStripeSubscription` itself.
 */
async function subscriptionStateOf(ctx: AppContext, event: Stripe.Event): Promise<SubscriptionState | null> {
  const at = new Date(event.created * 1000);
  if (event.type === 'checkout.session.completed') {
    const session = event.data.object;
    const id = session.mode === 'subscription' ? idOf(session.subscription) : null;
    return id ? fetchSubscription(ctx, id, at) : null;
  }
  if (SUBSCRIPTION_EVENTS.includes(event.type)) {
    const object = event.data.object as Stripe.Subscription;
    const sub: Stripe.Subscription =
      event.type === 'customer.subscription.deleted' ? { ...object, status: 'canceled' } : object;
    if (TERMINAL_STATUSES.includes(sub.status)) return { sub, at, fresh: false };
    const vendorId = await vendorOf(ctx.db, sub.customer, sub.metadata?.vendor_id);
    const stored = vendorId ? await stripeSubscriptionState(ctx.db, vendorId, sub.id) : null;
    const tie =
      stored &&
      !TERMINAL_STATUSES.includes(stored.status) &&
      stored.stripeStateAt?.getTime() === at.getTime();
    return tie ? fetchSubscription(ctx, sub.id, at) : { sub, at, fresh: false };
  }
  if (INVOICE_EVENTS.includes(event.type)) {
    const id = invoiceSubscription(event.data.object as Stripe.Invoice);
    if (id && !(await vendorIdBySubscription(ctx.db, id))) return fetchSubscription(ctx, id, at);
  }
  return null;
}

/**
 * `POST /v1/billing/stripe/webhook`: verifies `Stripe-Signature` over the raw body (300 s tolerance either way)
 * and applies the event once by its id, whatever order events arrive in (ADR 0024). Anything not
 * verified answers 400 and changes nothing.
 */
export async function handleStripeWebhook(
  ctx: AppContext,
  rawBody: string | undefined,
  signature: string | undefined,
): Promise<{ received: boolean }> {
  const secret = ctx.config.STRIPE_WEBHOOK_SECRET;
  if (!secret || !rawBody || !signature) throw badRequest(INVALID_SIGNATURE);
  let event: Stripe.Event;
  try {
    event = await verifyWebhook(rawBody, signature, secret, Date.now());
  } catch {
    throw badRequest(INVALID_SIGNATURE);
  }
  if (await eventSeen(ctx.db, event.id)) return { received: true };

  const subscription = await subscriptionStateOf(ctx, event);
  await applyEventOnce(ctx.db, event, async (tx) => {
    if (subscription) await applySubscription(ctx, tx, subscription);
    if (INVOICE_EVENTS.includes(event.type)) await applyInvoice(ctx, tx, event.data.object as Stripe.Invoice);
  });
  return { received: true };
}
