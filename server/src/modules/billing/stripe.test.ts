/**
 * Billing with Stripe, against the local fake speaking Stripe's wire format: the customer per vendor,
 * Checkout, the portal, the address synced, cancel at period end at Stripe, and the webhook (good,
 * forged, stale, replayed) keeping subscriptions and invoices in step.
 */
import { createServer } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { FakeStripe } from '../../test/fakes/stripe';
import { Client, createTestServer, makeUser, makeVendor, type TestServer, uniq } from '../../test/harness';
import type { VendorRow } from '../vendors/repo';
import { upsertStripeSubscription } from './repo';
import { STRIPE_UNREACHABLE } from './service';
import { verifyWebhook } from './stripe';
import { INVALID_SIGNATURE } from './webhook';

const WEBHOOK_SECRET = 'whsec_test_secret';
let stripe: FakeStripe;
let server: TestServer;
let admin: Client;

beforeAll(async () => {
  stripe = await new FakeStripe('sk_test_llmor').start();
  server = await createTestServer({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_llmor',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: stripe.url,
      PUBLIC_URL: 'https://console.example.test',
    },
  });
  const su = await makeUser(server.ctx, { isSu: true });
  admin = await Client.signedIn(server.app, su.email, su.password);
});
afterEach(() => {
  stripe.expectNoFailures();
});
afterAll(async () => {
  await server?.close();
  await stripe?.close();
});

async function tables() {
  const parts: string[] = [];
  for (const name of ['subscriptions', 'invoices', 'stripeEvents', 'vendorSettings', 'plans'] as const) {
    const rows = await server.ctx.db
      .select()
      .from(schema[name] as typeof schema.plans)
      .orderBy(sql`1`);
    parts.push(`${name}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function ownerOf(vendor: VendorRow): Promise<Client> {
  const user = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
  return Client.signedIn(server.app, user.email, user.password);
}

async function stripePlan(priceMinor = 2900) {
  const price = stripe.addPrice({ unitAmount: priceMinor, currency: 'chf' });
  const res = await admin.post('/v1/admin/plans', {
    name: uniq('Pro '),
    price_minor: priceMinor,
    currency: 'CHF',
    interval: 'month',
    limits: { requests: 1000, tokens: null, apps: 10, members: 5 },
    stripe_price_id: price,
  });
  return { plan: res.json().data as { id: number; name: string }, price };
}

const deliver = (payload: string, signature?: string) =>
  server.app.inject({
    method: 'POST',
    url: '/v1/billing/stripe/webhook',
    payload,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      ...(signature ? { 'stripe-signature': signature } : {}),
    },
  });

async function send(event: Record<string, unknown>, timestamp?: number) {
  const { payload, signature } = stripe.signed(event, WEBHOOK_SECRET, timestamp);
  return deliver(payload, signature);
}

/** A vendor whose owner went through Checkout and paid: the session and Stripe's subscription. */
async function checkedOut(quantity = 1) {
  const vendor = await makeVendor(server.ctx);
  const owner = await ownerOf(vendor);
  const { plan, price } = await stripePlan();
  const res = await owner.post(`/v1/vendors/${vendor.id}/billing/to/checkout`, {
    subscription_id: plan.id,
    quantity,
  });
  expect(res.statusCode, res.body).toBe(200);
  const sessionId = res.json().data.url.split('/').pop();
  const paid = stripe.completeCheckout(sessionId);
  return { vendor, owner, plan, price, ...paid };
}

describe('checkout, portal and address through Stripe', () => {
  it('creates the customer once, opens Checkout for the plan’s price with return URLs under PUBLIC_URL', async () => {
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const { plan, price } = await stripePlan();
    const first = await owner.post(`/v1/vendors/${vendor.id}/billing/to/checkout`, {
      subscription_id: plan.id,
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const again = await owner.post(`/v1/vendors/${vendor.id}/billing/to/checkout`, {
      subscription_id: plan.id,
      quantity: 3,
    });
    expect(again.statusCode).toBe(200);

    const calls = stripe.requests.filter((r) => r.path === '/v1/customers');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.params).toMatchObject({ name: vendor.name, metadata: { vendor_id: String(vendor.id) } });
    const sessions = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
    expect(sessions.map((s) => s.params)).toEqual([
      expect.objectContaining({
        mode: 'subscription',
        customer: calls.length ? expect.stringMatching(/^cus_/) : '',
        client_reference_id: String(vendor.id),
        line_items: [{ price, quantity: '1' }],
        success_url: 'https://console.example.test/settings/subscription?checkout=success',
        cancel_url: 'https://console.example.test/settings/subscription?checkout=cancelled',
        subscription_data: { metadata: { vendor_id: String(vendor.id), plan_id: String(plan.id) } },
      }),
      expect.objectContaining({ line_items: [{ price, quantity: '3' }] }),
    ]);
    expect(sessions[0]!.params.customer).toBe(sessions[1]!.params.customer);
  });

  it('refuses plans without a Stripe price, inactive or unknown plans, and answers Stripe’s refusals as 400', async () => {
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const base = `/v1/vendors/${vendor.id}/billing/to/checkout`;
    const manual = (
      await admin.post('/v1/admin/plans', {
        name: 'Manual',
        price_minor: 0,
        currency: 'CHF',
        interval: 'month',
      })
    ).json().data;
    expect((await owner.post(base, { subscription_id: manual.id })).json()).toMatchObject({
      name: 'BadRequest',
      message: 'This plan cannot be bought online; the operator assigns it.',
    });
    const { plan } = await stripePlan();
    await admin.put(`/v1/admin/plans/${plan.id}`, { active: false });
    expect((await owner.post(base, { subscription_id: plan.id })).statusCode).toBe(404);
    expect((await owner.post(base, { subscription_id: 999_999 })).statusCode).toBe(404);
    // A price Stripe does not know: Stripe's 404 becomes a clear 400.
    const ghost = (
      await admin.post('/v1/admin/plans', {
        name: 'Ghost',
        price_minor: 100,
        currency: 'CHF',
        interval: 'month',
        stripe_price_id: 'price_doesnotexist',
      })
    ).json().data;
    const refused = await owner.post(base, { subscription_id: ghost.id });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(
      /^Stripe refused the request: No such price: 'price_doesnotexist'/,
    );
    // In the console's locale: the refusal's words translated, Stripe's own message as Stripe said it.
    const inGerman = await owner.post(`${base}?locale=de_CH`, { subscription_id: ghost.id });
    expect(inGerman.json().message).toMatch(
      /^Stripe hat die Anfrage abgelehnt: No such price: 'price_doesnotexist'/,
    );
  });

  it('opens the billing portal for the vendor’s customer and syncs the address to it', async () => {
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const portal = await owner.get(`/v1/vendors/${vendor.id}/billing/to/payment-method`);
    expect(portal.statusCode).toBe(200);
    expect(portal.json().data.url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\//);
    const portalCall = stripe.requests.at(-1)!;
    expect(portalCall.params.return_url).toBe('https://console.example.test/settings/subscription');

    const address = {
      name: 'Acme AG',
      line1: 'Bahnhofstrasse 1',
      postal_code: '3011',
      city: 'Bern',
      country: 'CH',
    };
    expect((await owner.put(`/v1/vendors/${vendor.id}/billing/address`, address)).statusCode).toBe(200);
    const customer = stripe.customers.get(portalCall.params.customer as string)!;
    expect(customer).toMatchObject({
      name: 'Acme AG',
      address: {
        line1: 'Bahnhofstrasse 1',
        line2: null,
        postal_code: '3011',
        city: 'Bern',
        state: null,
        country: 'CH',
      },
    });
    // One customer for the vendor throughout.
    expect(stripe.requests.filter((r) => r.method === 'POST' && r.path === '/v1/customers')).toHaveLength(
      stripe.customers.size,
    );
  });
});

describe('the webhook', () => {
  it('applies a completed checkout: the subscription in force with Stripe’s period; invoices follow', async () => {
    const { vendor, owner, plan, session, subscription } = await checkedOut(2);
    const completed = await send(stripe.event('checkout.session.completed', session));
    expect(completed.statusCode, completed.body).toBe(200);
    expect(completed.json()).toEqual({ received: true });

    const limits = (await owner.get(`/v1/vendors/${vendor.id}/billing/subscription_limits`)).json().data;
    expect(limits.subscription).toMatchObject({
      plan_id: plan.id,
      status: 'active',
      quantity: 2,
      managed_by: 'stripe',
      cancel_at_period_end: false,
    });
    const item = (
      subscription.items as { data: { current_period_start: number; current_period_end: number }[] }
    ).data[0]!;
    expect(limits.period_start).toBe(new Date(item.current_period_start * 1000).toISOString());
    expect(limits.period_end).toBe(new Date(item.current_period_end * 1000).toISOString());
    expect(limits.limits.requests.limit).toBe(2000);

    const invoice = stripe.invoiceFor(subscription, { status: 'open', number: 'LLM-0001' });
    expect((await send(stripe.event('invoice.finalized', invoice))).statusCode).toBe(200);
    expect((await send(stripe.event('invoice.paid', { ...invoice, status: 'paid' }))).statusCode).toBe(200);
    const invoices = (await owner.get(`/v1/vendors/${vendor.id}/billing/invoices`)).json();
    expect(invoices.total_count).toBe(1);
    expect(invoices.data[0]).toEqual({
      id: expect.any(Number),
      number: 'LLM-0001',
      amount_minor: 5800,
      currency: 'CHF',
      status: 'paid',
      period_start: new Date(item.current_period_start * 1000).toISOString(),
      period_end: new Date(item.current_period_end * 1000).toISOString(),
      pdf_url: `https://pay.stripe.com/invoice/${invoice.id}/pdf`,
    });
  });

  it('keeps the subscription in step: cancel at period end goes to Stripe, updated and deleted events follow', async () => {
    const { vendor, owner, subscription } = await checkedOut();
    await send(stripe.event('customer.subscription.created', subscription));
    const base = `/v1/vendors/${vendor.id}/billing`;
    const local = (await owner.get(`${base}/subscription_limits`)).json().data.subscription;

    const cancelled = await owner.post(`${base}/to/cancel`, { subscription_id: local.id });
    expect(cancelled.json().data).toMatchObject({ cancel_at_period_end: true, status: 'active' });
    expect(stripe.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/v1/subscriptions/${subscription.id}`,
      params: { cancel_at_period_end: 'true' },
    });
    expect(stripe.subscriptions.get(subscription.id as string)!.cancel_at_period_end).toBe(true);

    // Stripe's state changes with the event (the same second as `created`: the webhook asks Stripe).
    stripe.subscriptions.get(subscription.id as string)!.status = 'past_due';
    await send(stripe.event('customer.subscription.updated', { ...subscription, status: 'past_due' }));
    expect((await owner.get(`${base}/subscription_limits`)).json().data.subscription.status).toBe('past_due');
    await send(stripe.event('customer.subscription.deleted', { ...subscription, status: 'canceled' }));
    const after = (await owner.get(`${base}/subscription_limits`)).json().data;
    expect(after.subscription).toBeNull();
    const listed = (await admin.get(`/v1/admin/vendors/${vendor.id}/subscriptions`)).json().data;
    expect(listed).toMatchObject([{ id: local.id, status: 'canceled' }]);
  });

  it('an operator’s assignment replaces a Stripe subscription and cancels it at Stripe', async () => {
    const { vendor, subscription } = await checkedOut();
    await send(stripe.event('customer.subscription.created', subscription));
    const other = (
      await admin.post('/v1/admin/plans', {
        name: uniq('Gift '),
        price_minor: 0,
        currency: 'CHF',
        interval: 'month',
      })
    ).json().data;
    expect(
      (await admin.post(`/v1/admin/vendors/${vendor.id}/subscriptions`, { plan_id: other.id })).statusCode,
    ).toBe(201);
    expect(stripe.requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: `/v1/subscriptions/${subscription.id}`,
    });
  });

  it('changes nothing for a forged, unsigned, stale or replayed event', async () => {
    const { vendor, session, subscription } = await checkedOut();
    const event = stripe.event('customer.subscription.created', subscription);
    const before = await tables();

    // Signed with another secret; a body changed after signing; no signature; older than 300 s.
    const forged = stripe.signed(event, 'whsec_attacker');
    const good = stripe.signed(event, WEBHOOK_SECRET);
    const tampered = good.payload.replace('"active"', '"trialing"');
    for (const [i, res] of [
      await deliver(forged.payload, forged.signature),
      await deliver(tampered, good.signature),
      await deliver(good.payload),
      await send(event, Math.floor(Date.now() / 1000) - 301),
    ].entries()) {
      expect(res.statusCode, `delivery ${i}`).toBe(400);
      expect(res.json()).toMatchObject({ name: 'BadRequest', message: INVALID_SIGNATURE });
    }
    expect((await deliver('not json', good.signature)).statusCode).toBe(400);
    expect(await tables()).toBe(before);

    // Applied once; the same event again (Stripe retries) changes nothing, even if its content differs.
    expect((await send(event)).statusCode).toBe(200);
    const applied = await tables();
    expect(applied).not.toBe(before);
    expect((await send(event)).statusCode).toBe(200);
    const replayed = stripe.event(
      'customer.subscription.updated',
      { ...subscription, status: 'canceled' },
      event.id as string,
    );
    expect((await send(replayed)).statusCode).toBe(200);
    expect(await tables()).toBe(applied);
    // A completed checkout replayed does not fetch or apply anything again.
    const completed = stripe.event('checkout.session.completed', session);
    await send(completed);
    const fetched = stripe.requests.length;
    await send(completed);
    expect(stripe.requests.length).toBe(fetched);
    expect((await admin.get(`/v1/admin/vendors/${vendor.id}/subscriptions`)).json().total_count).toBe(1);
  });

  it('ignores events of unknown customers and event types it does not handle', async () => {
    const before = await tables();
    const stranger = {
      ...stripe.invoiceFor(
        {
          id: 'sub_unknown',
          customer: 'cus_unknown',
          metadata: {},
          items: {
            data: [
              {
                current_period_start: 1,
                current_period_end: 2,
                quantity: 1,
                price: { unit_amount: 1, currency: 'chf' },
              },
            ],
          },
        },
        {},
      ),
    };
    expect((await send(stripe.event('invoice.paid', stranger))).statusCode).toBe(200);
    expect(
      (await send(stripe.event('customer.created', { id: 'cus_x', object: 'customer' }))).statusCode,
    ).toBe(200);
    // Only the event ids were recorded.
    const after = await tables();
    expect(after.replace(/stripeEvents:.*\n/, '')).toBe(before.replace(/stripeEvents:.*\n/, ''));
  });
});

/** Every order of `items`. */
function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

type StripeObj = Record<string, unknown>;

/** A copy of a Stripe subscription with its item changed (the item holds quantity and period). */
function withItem(sub: StripeObj, item: StripeObj, top: StripeObj = {}): StripeObj {
  const items = sub.items as { data: StripeObj[] };
  return { ...sub, ...top, items: { ...items, data: [{ ...items.data[0], ...item }] } };
}

/** The vendor's subscriptions and invoices as the webhook left them (ids of our rows left out). */
async function billingRows(vendorId: number) {
  const subs = await server.ctx.db
    .select()
    .from(schema.subscriptions)
    .where(sql`${schema.subscriptions.vendorId} = ${vendorId}`);
  const invoices = await server.ctx.db
    .select()
    .from(schema.invoices)
    .where(sql`${schema.invoices.vendorId} = ${vendorId}`);
  return {
    subscriptions: subs.map((s) => ({
      externalId: s.externalId,
      planId: s.planId,
      status: s.status,
      quantity: s.quantity,
      cancelAtPeriodEnd: s.cancelAtPeriodEnd,
      currentPeriodStart: s.currentPeriodStart,
      currentPeriodEnd: s.currentPeriodEnd,
    })),
    invoices: invoices.map((i) => ({
      externalId: i.externalId,
      status: i.status,
      linked: i.subscriptionId !== null && i.subscriptionId === subs[0]?.id,
    })),
  };
}

describe('events in any order (ADR 0024)', () => {
  it('created, updated, invoice.paid and deleted end in the same right state in every order', async () => {
    const orders = permutations(['created', 'updated', 'paid', 'deleted'] as const);
    expect(orders).toHaveLength(24);
    for (const order of orders) {
      const { vendor, plan, subscription } = await checkedOut();
      const t0 = Math.floor(Date.now() / 1000) - 600;
      const updated = withItem(subscription, { quantity: 2 }, { cancel_at_period_end: true });
      const deleted = { ...updated, status: 'canceled', canceled_at: t0 + 120, ended_at: t0 + 120 };
      // Stripe's subscription is as it is now: cancelled.
      stripe.subscriptions.set(subscription.id as string, deleted);
      const invoice = stripe.invoiceFor(subscription, { status: 'paid' });
      const events = {
        created: stripe.event('customer.subscription.created', subscription, undefined, t0),
        paid: stripe.event('invoice.paid', invoice, undefined, t0 + 30),
        updated: stripe.event('customer.subscription.updated', updated, undefined, t0 + 60),
        deleted: stripe.event('customer.subscription.deleted', deleted, undefined, t0 + 120),
      };
      for (const name of order) {
        const res = await send(events[name]);
        expect(res.statusCode, `${order.join(' → ')}: ${name}`).toBe(200);
      }
      const item = (updated.items as { data: { current_period_start: number; current_period_end: number }[] })
        .data[0]!;
      expect(await billingRows(vendor.id), order.join(' → ')).toEqual({
        subscriptions: [
          {
            externalId: subscription.id,
            planId: plan.id,
            status: 'canceled',
            quantity: 2,
            cancelAtPeriodEnd: true,
            currentPeriodStart: new Date(item.current_period_start * 1000),
            currentPeriodEnd: new Date(item.current_period_end * 1000),
          },
        ],
        invoices: [{ externalId: invoice.id, status: 'paid', linked: true }],
      });
    }
  });

  it('an older update after a newer one changes nothing; a late invoice.finalized keeps the invoice paid', async () => {
    const { vendor, owner, subscription } = await checkedOut();
    const t0 = Math.floor(Date.now() / 1000) - 600;
    const base = `/v1/vendors/${vendor.id}/billing/subscription_limits`;
    await send(
      stripe.event(
        'customer.subscription.updated',
        { ...subscription, status: 'past_due' },
        undefined,
        t0 + 60,
      ),
    );
    await send(stripe.event('customer.subscription.updated', subscription, undefined, t0));
    expect((await owner.get(base)).json().data.subscription.status).toBe('past_due');

    const invoice = stripe.invoiceFor(subscription, { status: 'paid' });
    await send(stripe.event('invoice.paid', invoice, undefined, t0 + 90));
    await send(stripe.event('invoice.finalized', { ...invoice, status: 'open' }, undefined, t0 + 80));
    const invoices = (await owner.get(`/v1/vendors/${vendor.id}/billing/invoices`)).json().data;
    expect(invoices).toMatchObject([{ status: 'paid' }]);
  });

  it('events of the same second leave the order in doubt: the subscription is fetched from Stripe', async () => {
    for (const order of [
      ['created', 'updated'],
      ['updated', 'created'],
    ] as const) {
      const { vendor, subscription } = await checkedOut();
      const t = Math.floor(Date.now() / 1000) - 60;
      const pastDue = { ...subscription, status: 'past_due' };
      stripe.subscriptions.set(subscription.id as string, pastDue);
      const events = {
        created: stripe.event('customer.subscription.created', subscription, undefined, t),
        updated: stripe.event('customer.subscription.updated', pastDue, undefined, t),
      };
      const before = stripe.requests.length;
      for (const name of order) expect((await send(events[name])).statusCode).toBe(200);
      expect(stripe.requests.slice(before)).toEqual([
        { method: 'GET', path: `/v1/subscriptions/${subscription.id}`, params: {} },
      ]);
      expect((await billingRows(vendor.id)).subscriptions).toMatchObject([{ status: 'past_due' }]);
    }
  });
});

describe('invoices by their subscription', () => {
  it('stores the invoice of a subscription llmor knows even when llmor did not create its customer', async () => {
    const { vendor, owner, plan, subscription } = await checkedOut();
    // A subscription made at Stripe for a customer created there (our metadata names vendor and plan).
    const foreign = {
      ...subscription,
      id: 'sub_foreigncustomer1',
      customer: 'cus_madeatstripe1',
      metadata: { vendor_id: String(vendor.id), plan_id: String(plan.id) },
    };
    expect((await send(stripe.event('customer.subscription.created', foreign))).statusCode).toBe(200);
    const invoice = stripe.invoiceFor(foreign, { status: 'paid', number: 'EXT-0001' });
    // The invoice names the subscription (parent.subscription_details) but no vendor of ours in metadata.
    (invoice.parent as { subscription_details: { metadata: unknown } }).subscription_details.metadata = {};
    expect((await send(stripe.event('invoice.paid', invoice))).statusCode).toBe(200);
    const invoices = (await owner.get(`/v1/vendors/${vendor.id}/billing/invoices`)).json();
    expect(invoices.data).toMatchObject([{ number: 'EXT-0001', status: 'paid' }]);
    expect((await billingRows(vendor.id)).invoices).toEqual([
      { externalId: invoice.id, status: 'paid', linked: true },
    ]);
  });
});

describe('the signature’s time: 300 s either way', () => {
  it('accepts a signature 299 s old or ahead and refuses one 301 s old or ahead', async () => {
    const receivedAtMs = 1_800_000_000_500;
    const at = Math.floor(receivedAtMs / 1000);
    const event = stripe.event('customer.created', { id: 'cus_time', object: 'customer' });
    const verify = (offset: number) => {
      const { payload, signature } = stripe.signed(event, WEBHOOK_SECRET, at + offset);
      return verifyWebhook(payload, signature, WEBHOOK_SECRET, receivedAtMs);
    };
    await expect(verify(-299)).resolves.toMatchObject({ id: event.id });
    await expect(verify(299)).resolves.toMatchObject({ id: event.id });
    await expect(verify(-301)).rejects.toThrow();
    await expect(verify(301)).rejects.toThrow();
  });

  it('the webhook refuses an event signed 600 s ahead and changes nothing; 299 s ahead is applied', async () => {
    const { vendor, subscription } = await checkedOut();
    const event = stripe.event('customer.subscription.created', subscription);
    const now = Math.floor(Date.now() / 1000);
    const before = await tables();
    const ahead = await send(event, now + 600);
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json()).toMatchObject({ name: 'BadRequest', message: INVALID_SIGNATURE });
    expect(await tables()).toBe(before);
    expect((await send(event, now + 299)).statusCode).toBe(200);
    expect((await billingRows(vendor.id)).subscriptions).toMatchObject([{ status: 'active' }]);
  });
});

describe('Stripe unreachable', () => {
  let down: TestServer;

  beforeAll(async () => {
    // A port nothing listens on: Stripe's connection is refused.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as { port: number };
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    down = await createTestServer({
      env: {
        STRIPE_SECRET_KEY: 'sk_test_llmor',
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        STRIPE_API_URL: `http://127.0.0.1:${port}`,
      },
    });
  });
  afterAll(async () => {
    await down?.close();
  });

  it('checkout, the portal, the address and cancel answer 502 "Could not reach Stripe." and change nothing', async () => {
    const su = await makeUser(down.ctx, { isSu: true });
    const operator = await Client.signedIn(down.app, su.email, su.password);
    const vendor = await makeVendor(down.ctx);
    const user = await makeUser(down.ctx, { vendors: [vendor], role: 'owner' });
    const owner = await Client.signedIn(down.app, user.email, user.password);
    const plan = (
      await operator.post('/v1/admin/plans', {
        name: uniq('Pro '),
        price_minor: 2900,
        currency: 'CHF',
        interval: 'month',
        stripe_price_id: 'price_somewhere',
      })
    ).json().data;
    const sub = await upsertStripeSubscription(down.ctx.db, vendor.id, {
      externalId: 'sub_unreachable1',
      planId: plan.id,
      quantity: 1,
      status: 'active',
      currentPeriodStart: new Date(),
      currentPeriodEnd: new Date(Date.now() + 86_400_000),
      cancelAtPeriodEnd: false,
      stripeStateAt: new Date(),
      fresh: false,
    });
    const base = `/v1/vendors/${vendor.id}/billing`;
    for (const res of [
      await owner.post(`${base}/to/checkout`, { subscription_id: plan.id }),
      await owner.get(`${base}/to/payment-method`),
      await owner.put(`${base}/address`, {
        name: 'Acme AG',
        line1: 'Weg 1',
        postal_code: '3011',
        city: 'Bern',
        country: 'CH',
      }),
      await owner.post(`${base}/to/cancel`, { subscription_id: sub!.id }),
    ]) {
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json()).toMatchObject({ name: 'BadGateway', message: STRIPE_UNREACHABLE });
    }
    expect((await owner.get(`${base}/address`)).json().data.name).toBe('');
    const limits = (await owner.get(`${base}/subscription_limits`)).json().data;
    expect(limits.subscription).toMatchObject({ id: sub!.id, cancel_at_period_end: false });
  });
});
