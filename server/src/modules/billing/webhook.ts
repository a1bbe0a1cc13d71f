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
  subscriptionIdByExternal,
  upsertInvoice,
  upsertStripeSubscription,
  vendorIdByCustomer,
} from './repo';
import { fromUnix, idOf, stripeClient, verifyWebhook } from './stripe';

export const INVALID_SIGNATURE = 'The Stripe signature is missing, invalid or too old.';

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

/** Stripe's subscription into ours: the plan by the item's price (a plan change in the portal), else by metadata. */
async function applySubscription(ctx: AppContext, db: Db, sub: Stripe.Subscription, deleted: boolean) {
  const vendorId = await vendorOf(db, sub.customer, sub.metadata?.vendor_id);
  const item = sub.items.data[0];
  const byPrice = item ? await planByStripePrice(db, item.price.id) : null;
  const planId = Number(sub.metadata?.plan_id);
  const plan = byPrice ?? (Number.isSafeInteger(planId) && planId > 0 ? await findPlan(db, planId) : null);
  if (!vendorId || !plan) {
    ctx.log.warn({ subscription: sub.id }, 'a Stripe subscription of no known vendor or plan was ignored');
    return;
  }
  await upsertStripeSubscription(db, vendorId, sub.id, {
    planId: plan.id,
    quantity: item?.quantity ?? 1,
    status: deleted ? 'canceled' : sub.status,
    currentPeriodStart: fromUnix(item?.current_period_start),
    currentPeriodEnd: fromUnix(item?.current_period_end),
    cancelAtPeriodEnd: sub.cancel_at_period_end,
  });
}

async function applyInvoice(ctx: AppContext, db: Db, invoice: Stripe.Invoice) {
  const vendorId = await vendorOf(db, invoice.customer, invoice.metadata?.vendor_id);
  if (!vendorId || !invoice.id) {
    ctx.log.warn({ invoice: invoice.id }, 'a Stripe invoice of no known vendor was ignored');
    return;
  }
  const externalSubscription = idOf(invoice.parent?.subscription_details?.subscription);
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
 * `POST /v1/billing/stripe/webhook`: verifies `Stripe-Signature` over the raw body (300 s tolerance)
 * and applies the event once by its id. Anything not verified answers 400 and changes nothing.
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

  // A completed checkout names its subscription; fetch it before the transaction (no network inside).
  let checkoutSubscription: Stripe.Subscription | null = null;
  if (event.type === 'checkout.session.completed' && event.data.object.mode === 'subscription') {
    const id = idOf(event.data.object.subscription);
    const stripe = await stripeClient(ctx.config);
    if (id && stripe) checkoutSubscription = await stripe.subscriptions.retrieve(id);
  }

  await applyEventOnce(ctx.db, event, async (tx) => {
    if (checkoutSubscription) await applySubscription(ctx, tx, checkoutSubscription, false);
    else if (SUBSCRIPTION_EVENTS.includes(event.type)) {
      const sub = event.data.object as Stripe.Subscription;
      await applySubscription(ctx, tx, sub, event.type === 'customer.subscription.deleted');
    } else if (INVOICE_EVENTS.includes(event.type)) {
      await applyInvoice(ctx, tx, event.data.object as Stripe.Invoice);
    }
  });
  return { received: true };
}
