/**
 * Billing without Stripe: plans edited by the superuser, subscriptions assigned in admin, the owner's
 * billing calls, and limits enforced where usage happens (sends 402 code 60 before any provider call,
 * apps and members 402 code 61).
 */
import { BILLING_NOT_CONFIGURED } from '@llmor/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { Client, createTestServer, makeUser, makeVendor, type TestServer, uniq } from '../../test/harness';
import {
  finish,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  text,
} from '../completion/testing';
import type { VendorRow } from '../vendors/repo';
import { addMonths, calendarMonth, currentPeriod } from './period';

let server: TestServer;
let admin: Client;
let providerCalls = 0;

/** Every model request answers "ok" with 10 + 5 tokens, and is counted. */
function countingModel() {
  providerCalls++;
  return new ScriptedModel([[text('ok'), finish({ promptTokens: 10, completionTokens: 5 })]]);
}

async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const [name, table] of Object.entries(schema)) {
    if (name === 'sessions') continue;
    const rows = await server.ctx.db
      .select()
      .from(table as typeof schema.apps)
      .orderBy(sql`1`);
    parts.push(`${name}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

async function ownerOf(vendor: VendorRow): Promise<Client> {
  const user = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
  const c = await Client.signedIn(server.app, user.email, user.password);
  c.vendorKey = vendor.key;
  return c;
}

async function makePlan(limits: Record<string, number | null>, extra: Record<string, unknown> = {}) {
  const res = await admin.post('/v1/admin/plans', {
    name: uniq('Plan '),
    price_minor: 1900,
    currency: 'CHF',
    interval: 'month',
    limits,
    ...extra,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; name: string };
}

const assign = (vendorId: number, planId: number, quantity?: number) =>
  admin.post(`/v1/admin/vendors/${vendorId}/subscriptions`, {
    plan_id: planId,
    ...(quantity !== undefined ? { quantity } : {}),
  });

beforeAll(async () => {
  server = await createTestServer({ engine: { resolveModel: countingModel } });
  const su = await makeUser(server.ctx, { isSu: true });
  admin = await Client.signedIn(server.app, su.email, su.password);
});
afterAll(async () => {
  await server?.close();
});

describe('periods', () => {
  it('counts in the calendar month without a subscription period, and rolls a stored period on', () => {
    expect(calendarMonth(new Date('2026-02-17T10:00:00Z'))).toEqual({
      start: new Date('2026-02-01T00:00:00Z'),
      end: new Date('2026-03-01T00:00:00Z'),
    });
    expect(addMonths(new Date('2026-01-31T12:00:00Z'), 1)).toEqual(new Date('2026-02-28T12:00:00Z'));
    const stored = { start: new Date('2026-01-10T00:00:00Z'), end: new Date('2026-02-10T00:00:00Z') };
    expect(currentPeriod(stored, 'month', new Date('2026-02-01T00:00:00Z'))).toEqual(stored);
    // Past the stored end (no renewal heard of): the following periods of the interval.
    expect(currentPeriod(stored, 'month', new Date('2026-04-15T00:00:00Z'))).toEqual({
      start: new Date('2026-04-10T00:00:00Z'),
      end: new Date('2026-05-10T00:00:00Z'),
    });
    expect(currentPeriod(stored, 'year', new Date('2026-02-10T00:00:00Z'))).toEqual({
      start: new Date('2026-02-10T00:00:00Z'),
      end: new Date('2027-02-10T00:00:00Z'),
    });
  });
});

describe('plans (superuser)', () => {
  it('creates, lists, reads and edits plans; validates input; hides them from everyone else', async () => {
    const created = await admin.post('/v1/admin/plans', {
      name: 'Team',
      description: 'For teams',
      price_minor: 4900,
      currency: 'EUR',
      interval: 'year',
      limits: { requests: 1000, tokens: null, apps: 5, members: 10 },
      stripe_price_id: 'price_team123',
    });
    expect(created.statusCode).toBe(201);
    const plan = created.json().data;
    expect(plan).toMatchObject({
      name: 'Team',
      price_minor: 4900,
      currency: 'EUR',
      interval: 'year',
      limits: { requests: 1000, tokens: null, apps: 5, members: 10 },
      active: true,
      default: false,
      stripe_price_id: 'price_team123',
      purchasable: true,
    });
    // Limits left out are unlimited; PUT changes only what it names.
    const edited = await admin.put(`/v1/admin/plans/${plan.id}`, { limits: { apps: 6 }, active: false });
    expect(edited.json().data).toMatchObject({
      limits: { requests: 1000, tokens: null, apps: 6, members: 10 },
      active: false,
      name: 'Team',
    });
    expect((await admin.get(`/v1/admin/plans/${plan.id}`)).json().data.active).toBe(false);
    const list = (await admin.get('/v1/admin/plans?order=name')).json();
    expect(list.data.map((p: { id: number }) => p.id)).toContain(plan.id);

    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const before = await snapshot();
    const bad = await admin.post('/v1/admin/plans', {
      name: '',
      price_minor: 12.5,
      currency: 'euro',
      interval: 'week',
      limits: { requests: -1 },
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors).sort()).toEqual(
      ['currency', 'interval', 'limits.requests', 'name', 'price_minor'].sort(),
    );
    const malformed = await admin.request({
      method: 'POST',
      url: '/v1/admin/plans',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect((await admin.put('/v1/admin/plans/999999', { name: 'x' })).statusCode).toBe(404);
    expect((await admin.get('/v1/admin/plans/abc')).json()).toMatchObject({ message: 'Plan not found' });

    // Not a superuser: 404 on every plan route.
    expect((await owner.get('/v1/admin/plans')).statusCode).toBe(404);
    expect((await owner.post('/v1/admin/plans', { name: 'Mine' })).statusCode).toBe(404);
    expect((await owner.put(`/v1/admin/plans/${plan.id}`, { price_minor: 0 })).statusCode).toBe(404);
    expect(await snapshot()).toBe(before);
  });

  it('keeps one default plan: marking another default unmarks the first', async () => {
    const a = await makePlan({}, { default: true });
    const b = await makePlan({}, { default: true });
    expect((await admin.get(`/v1/admin/plans/${a.id}`)).json().data.default).toBe(false);
    expect((await admin.get(`/v1/admin/plans/${b.id}`)).json().data.default).toBe(true);
    // Back to no default: other tests' vendors are unlimited without a subscription.
    await admin.put(`/v1/admin/plans/${b.id}`, { default: false });
  });
});

describe('subscriptions assigned by the operator', () => {
  it('assigns a plan now, replacing the current one; lists them; names the plan in the vendor list', async () => {
    const vendor = await makeVendor(server.ctx);
    const small = await makePlan({ requests: 10 });
    const big = await makePlan({ requests: 100 });
    expect((await admin.get(`/v1/admin/vendors/${vendor.id}/subscriptions`)).json()).toEqual({
      data: [],
      total_count: 0,
      filter_count: 0,
    });
    const first = await assign(vendor.id, small.id);
    expect(first.statusCode).toBe(201);
    expect(first.json().data).toMatchObject({
      plan_id: small.id,
      plan: small.name,
      status: 'active',
      quantity: 1,
    });
    const second = (await assign(vendor.id, big.id, 3)).json().data;
    expect(second).toMatchObject({ plan_id: big.id, status: 'active', quantity: 3, managed_by: 'operator' });
    expect(new Date(second.current_period_end).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000);

    const listed = (await admin.get(`/v1/admin/vendors/${vendor.id}/subscriptions`)).json();
    expect(listed.data.map((s: { plan_id: number; status: string }) => [s.plan_id, s.status])).toEqual([
      [big.id, 'active'],
      [small.id, 'canceled'],
    ]);
    const vendors = await admin.get(`/v1/admin/vendors?search=${vendor.key}`);
    expect(vendors.json().data?.[0]?.plan, vendors.body).toBe(big.name);

    // Limits scale with the quantity.
    const owner = await ownerOf(vendor);
    const limits = (await owner.get(`/v1/vendors/${vendor.id}/billing/subscription_limits`)).json().data;
    expect(limits.limits.requests).toMatchObject({ limit: 300, used: 0 });
    expect(limits.subscription.id).toBe(second.id);

    const before = await snapshot();
    expect((await assign(vendor.id, 999_999)).statusCode).toBe(404);
    expect((await assign(999_999, big.id)).statusCode).toBe(404);
    expect((await assign(vendor.id, big.id, 0)).statusCode).toBe(400);
    expect(
      (await owner.post(`/v1/admin/vendors/${vendor.id}/subscriptions`, { plan_id: big.id })).statusCode,
    ).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});

describe("a vendor's billing (owners)", () => {
  it('lists active plans; refuses checkout and the portal clearly without Stripe; keeps the address', async () => {
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const base = `/v1/vendors/${vendor.id}/billing`;
    const active = await makePlan({ requests: 5 });
    const inactive = await makePlan({}, { active: false });
    const plans = (await owner.get(`${base}/available_subs`)).json().data.map((p: { id: number }) => p.id);
    expect(plans).toContain(active.id);
    expect(plans).not.toContain(inactive.id);

    const before = await snapshot();
    const checkout = await owner.post(`${base}/to/checkout`, { subscription_id: active.id });
    expect(checkout.statusCode).toBe(400);
    expect(checkout.json()).toMatchObject({ name: 'BadRequest', message: BILLING_NOT_CONFIGURED });
    expect((await owner.get(`${base}/to/payment-method`)).json().message).toBe(BILLING_NOT_CONFIGURED);
    expect((await owner.post(`${base}/to/checkout`, { subscription_id: 'x' })).statusCode).toBe(400);
    expect(await snapshot()).toBe(before);

    expect((await owner.get(`${base}/address`)).json().data).toEqual({
      name: '',
      line1: '',
      line2: '',
      postal_code: '',
      city: '',
      state: '',
      country: '',
    });
    const invalid = await owner.put(`${base}/address`, {
      name: 'Acme',
      line1: '',
      city: 'Bern',
      country: 'Swiss',
    });
    expect(invalid.statusCode).toBe(400);
    expect(Object.keys(invalid.json().errors).sort()).toEqual(['country', 'line1', 'postal_code']);
    // Two letters are not yet a country: "SW" (Switzerland misspelt) is no ISO 3166 code.
    const misspelt = await owner.put(`${base}/address`, {
      name: 'Acme',
      line1: 'Bahnhofstrasse 1',
      postal_code: '3011',
      city: 'Bern',
      country: 'SW',
    });
    expect(misspelt.statusCode).toBe(400);
    expect(misspelt.json().errors).toEqual({ country: 'Choose a country' });
    expect(await snapshot()).toBe(before);
    const address = {
      name: 'Acme AG',
      line1: 'Bahnhofstrasse 1',
      postal_code: '3011',
      city: 'Bern',
      country: 'CH',
    };
    const saved = await owner.put(`${base}/address`, address);
    expect(saved.statusCode).toBe(200);
    expect((await owner.get(`${base}/address`)).json().data).toEqual({ ...address, line2: '', state: '' });

    expect((await owner.get(`${base}/invoices`)).json()).toEqual({
      data: [],
      total_count: 0,
      filter_count: 0,
    });
  });

  it('cancels at period end; another vendor’s subscription and an ended one are refused', async () => {
    const vendor = await makeVendor(server.ctx);
    const other = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const plan = await makePlan({ requests: 5 });
    const mine = (await assign(vendor.id, plan.id)).json().data;
    const theirs = (await assign(other.id, plan.id)).json().data;
    const base = `/v1/vendors/${vendor.id}/billing`;

    const before = await snapshot();
    expect((await owner.post(`${base}/to/cancel`, { subscription_id: theirs.id })).statusCode).toBe(404);
    expect((await owner.post(`${base}/to/cancel`, { subscription_id: 999_999 })).statusCode).toBe(404);
    expect((await owner.post(`${base}/to/cancel`, {})).statusCode).toBe(400);
    expect(await snapshot()).toBe(before);

    const cancelled = await owner.post(`${base}/to/cancel`, { subscription_id: mine.id });
    expect(cancelled.json().data).toMatchObject({
      id: mine.id,
      cancel_at_period_end: true,
      status: 'active',
    });
    // In force until the period ends.
    const limits = (await owner.get(`${base}/subscription_limits`)).json().data;
    expect(limits.subscription).toMatchObject({ id: mine.id, cancel_at_period_end: true });
    // Once the period has ended it no longer counts, and cannot be cancelled again.
    await server.ctx.db.execute(
      sql`update subscriptions set current_period_end = now() - interval '1 second' where id = ${mine.id}`,
    );
    expect((await owner.get(`${base}/subscription_limits`)).json().data.subscription).toBeNull();
    const replaced = (await assign(vendor.id, plan.id)).json().data;
    await server.ctx.db.execute(sql`update subscriptions set status = 'canceled' where id = ${replaced.id}`);
    expect((await owner.post(`${base}/to/cancel`, { subscription_id: replaced.id })).statusCode).toBe(409);
  });

  it('answers members 404 on every billing route', async () => {
    const vendor = await makeVendor(server.ctx);
    const memberUser = await makeUser(server.ctx, { vendors: [vendor], role: 'member' });
    const member = await Client.signedIn(server.app, memberUser.email, memberUser.password);
    const base = `/v1/vendors/${vendor.id}/billing`;
    const before = await snapshot();
    for (const [method, path, body] of [
      ['GET', 'available_subs'],
      ['POST', 'to/checkout', { subscription_id: 1 }],
      ['POST', 'to/cancel', { subscription_id: 1 }],
      ['GET', 'to/payment-method'],
      ['GET', 'invoices'],
      ['GET', 'address'],
      ['PUT', 'address', { name: 'x', line1: 'x', postal_code: '1', city: 'x', country: 'CH' }],
      ['GET', 'subscription_limits'],
    ] as const) {
      const res = await member.request({
        method,
        url: `${base}/${path}`,
        ...(body ? { payload: body } : {}),
      });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    expect(await snapshot()).toBe(before);
  });
});

describe('limits where usage happens', () => {
  async function sendingVendor(limits: Record<string, number | null>) {
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const model = await makeVendorModel(server.ctx, vendor);
    const app = await makeChatApp(server.ctx, vendor, { model });
    const conversation = await makeConversation(server.ctx, app);
    const plan = await makePlan(limits);
    await assign(vendor.id, plan.id);
    const send = () => owner.post(`/v1/conversations/${conversation.token}`, { content: 'hello' });
    const usage = async () =>
      (await owner.get(`/v1/vendors/${vendor.id}/billing/subscription_limits`)).json().data.limits;
    return { vendor, owner, plan, app, send, usage };
  }

  it('refuses a send past the requests limit with 402 code 60 and calls no provider', async () => {
    const { vendor, send, usage } = await sendingVendor({ requests: 2 });
    expect((await send()).statusCode).toBe(200);
    expect((await send()).statusCode).toBe(200);
    const calls = providerCalls;
    const refused = await send();
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ name: 'PaymentRequired', code: 60 });
    expect(refused.json().message).toMatch(/2 requests for this period are used up.*Upgrade the plan/);
    expect(providerCalls).toBe(calls);
    expect((await usage()).requests).toMatchObject({ limit: 2, used: 2 });
    // The refused message was not stored either.
    const messages = await server.ctx.db.select().from(schema.messages).where(sql`vendor_id = ${vendor.id}`);
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(2);

    // A bigger plan: sending works again.
    const bigger = await makePlan({ requests: 100 });
    await assign(vendor.id, bigger.id);
    expect((await send()).statusCode).toBe(200);
  });

  it('counts tokens after each reply and refuses once the tokens limit is reached', async () => {
    const { send, usage } = await sendingVendor({ tokens: 20 });
    expect((await send()).statusCode).toBe(200);
    expect((await usage()).tokens).toMatchObject({ limit: 20, used: 15 });
    expect((await send()).statusCode).toBe(200); // 15 < 20: allowed, ends at 30
    expect((await usage()).tokens.used).toBe(30);
    const calls = providerCalls;
    const refused = await send();
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toMatchObject({ code: 60 });
    expect(refused.json().message).toMatch(/20 tokens/);
    expect(providerCalls).toBe(calls);
  });

  it("refuses opening a conversation once the plan is used up, with the send's message, and stores none", async () => {
    const { vendor, owner, app, send } = await sendingVendor({ requests: 1 });
    const body = { vendor_app_id: app.id, vendor_channel: 'management', parameters: {} };
    const open = (query = '') => owner.post(`/v1/conversations${query}`, body);
    expect((await open()).statusCode).toBe(201); // room left: opening counts nothing
    expect((await send()).statusCode).toBe(200);
    const refusedSend = (await send()).json();
    const conversations = async () =>
      (await server.ctx.db.select().from(schema.conversations).where(sql`vendor_id = ${vendor.id}`)).length;
    const before = await conversations();
    const refused = await open();
    expect(refused.statusCode).toBe(402);
    expect(refused.json()).toEqual({ name: 'PaymentRequired', code: 60, message: refusedSend.message });
    expect(await conversations()).toBe(before);
    const inGerman = await open('?locale=de_CH');
    expect(inGerman.json().message).toMatch(/^Die 1 Anfragen des Plans .* sind aufgebraucht/);
  });

  it('a plan with no requests refuses the first send', async () => {
    const { send } = await sendingVendor({ requests: 0 });
    expect((await send()).statusCode).toBe(402);
  });

  it('refuses an app past the apps limit and a member past the members limit with 402 code 61', async () => {
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor); // member 1 of 2
    const plan = await makePlan({ apps: 1, members: 2 });
    await assign(vendor.id, plan.id);
    const v = `/v1/vendors/${vendor.id}`;
    expect((await owner.post(`${v}/apps`, { app_key: 'chatbot' })).statusCode).toBe(201);
    const before = await snapshot();
    const app = await owner.post(`${v}/apps`, { app_key: 'chatbot' });
    expect(app.statusCode).toBe(402);
    expect(app.json()).toMatchObject({
      name: 'PaymentRequired',
      code: 61,
      message: expect.stringMatching(/1 app\b/),
    });
    expect(await snapshot()).toBe(before);

    expect(
      (await owner.post(`${v}/users`, { email: `${uniq('a')}@x.test`, role: 'member' })).statusCode,
    ).toBe(201);
    const before2 = await snapshot();
    const member = await owner.post(`${v}/users`, { email: `${uniq('b')}@x.test`, role: 'member' });
    expect(member.statusCode).toBe(402);
    expect(member.json()).toMatchObject({ code: 61, message: expect.stringMatching(/2 members/) });
    expect(await snapshot()).toBe(before2);
    const limits = (await owner.get(`${v}/billing/subscription_limits`)).json().data.limits;
    expect(limits.apps).toEqual({ limit: 1, used: 1, period_start: null, period_end: null });
    expect(limits.members).toMatchObject({ limit: 2, used: 2 });
  });

  it('puts vendors without a subscription on the default plan, unlimited without one', async () => {
    const { send } = await sendingVendor({});
    const vendor = await makeVendor(server.ctx);
    const owner = await ownerOf(vendor);
    const unlimited = (await owner.get(`/v1/vendors/${vendor.id}/billing/subscription_limits`)).json().data;
    expect(unlimited).toMatchObject({ plan: null, subscription: null, stripe: false });
    expect(unlimited.limits.requests.limit).toBeNull();
    const start = new Date(unlimited.period_start);
    expect(start.getUTCDate()).toBe(1);

    const free = await makePlan({ apps: 0 }, { default: true });
    try {
      const limits = (await owner.get(`/v1/vendors/${vendor.id}/billing/subscription_limits`)).json().data;
      expect(limits.plan.id).toBe(free.id);
      expect((await owner.post(`/v1/vendors/${vendor.id}/apps`, { app_key: 'chatbot' })).statusCode).toBe(
        402,
      );
      // A vendor with its own subscription is not on the default plan.
      expect((await send()).statusCode).toBe(200);
    } finally {
      await admin.put(`/v1/admin/plans/${free.id}`, { default: false });
    }
  });
});
