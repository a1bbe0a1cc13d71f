/**
 * The requests limit holds under concurrency: two app instances on one PostgreSQL database, many
 * parallel sends in separate conversations, and never more replies than the plan allows.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
} from '../../test/harness';
import {
  finish,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  text,
} from '../completion/testing';

const DATABASE_URL = process.env.DATABASE_URL;
const LIMIT = 7;
const SENDS_PER_INSTANCE = 15;

describe.runIf(Boolean(DATABASE_URL))('requests limit across two instances (PostgreSQL)', () => {
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  let providerCalls = 0;

  beforeAll(async () => {
    const resolveModel = () => {
      providerCalls++;
      return new ScriptedModel([[text('ok'), finish()]]);
    };
    a = await createListeningTestServer({ engine: { resolveModel } });
    b = await createListeningTestServer({ databaseUrl: a.databaseUrl, engine: { resolveModel } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it(`never answers more than ${LIMIT} of ${2 * SENDS_PER_INSTANCE} parallel sends`, async () => {
    const vendor = await makeVendor(a.ctx);
    const user = await makeUser(a.ctx, { vendors: [vendor], role: 'owner' });
    const su = await makeUser(a.ctx, { isSu: true });
    const admin = await Client.signedIn(a.app, su.email, su.password);
    const plan = (
      await admin.post('/v1/admin/plans', {
        name: 'Tiny',
        price_minor: 0,
        currency: 'CHF',
        interval: 'month',
        limits: { requests: LIMIT },
      })
    ).json().data;
    expect(
      (await admin.post(`/v1/admin/vendors/${vendor.id}/subscriptions`, { plan_id: plan.id })).statusCode,
    ).toBe(201);
    const app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
    const clients = await Promise.all(
      [a, b].map(async (server) => {
        const c = await Client.signedIn(server.app, user.email, user.password);
        c.vendorKey = vendor.key;
        return c;
      }),
    );
    // One conversation per send: replies in one conversation are serialised anyway.
    const conversations = await Promise.all(
      Array.from({ length: 2 * SENDS_PER_INSTANCE }, () => makeConversation(a.ctx, app)),
    );
    const answers = await Promise.all(
      conversations.map((conversation, i) =>
        clients[i % 2]!.post(`/v1/conversations/${conversation.token}`, { content: `hello ${i}` }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 402)).toHaveLength(2 * SENDS_PER_INSTANCE - LIMIT);
    expect(providerCalls).toBe(LIMIT);
    const [usage] = await a.ctx.db
      .select()
      .from(schema.billingUsage)
      .where(eq(schema.billingUsage.vendorId, vendor.id));
    expect(usage!.requests).toBe(LIMIT);
  });

  it('never creates more apps or members than the plan allows, whichever instance takes the calls', async () => {
    const vendor = await makeVendor(a.ctx);
    const owner = await makeUser(a.ctx, { vendors: [vendor], role: 'owner' });
    const su = await makeUser(a.ctx, { isSu: true });
    const admin = await Client.signedIn(a.app, su.email, su.password);
    const plan = (
      await admin.post('/v1/admin/plans', {
        name: 'Two of each',
        price_minor: 0,
        currency: 'CHF',
        interval: 'month',
        limits: { apps: 2, members: 2 },
      })
    ).json().data;
    await admin.post(`/v1/admin/vendors/${vendor.id}/subscriptions`, { plan_id: plan.id });
    const clients = await Promise.all(
      [a, b].map(async (server) => {
        const c = await Client.signedIn(server.app, owner.email, owner.password);
        return c;
      }),
    );
    const installs = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        clients[i % 2]!.post(`/v1/vendors/${vendor.id}/apps`, { app_key: 'chatbot' }),
      ),
    );
    expect(installs.filter((r) => r.statusCode === 201)).toHaveLength(2);
    expect(installs.filter((r) => r.statusCode === 402).map((r) => r.json().code)).toEqual(Array(6).fill(61));
    // The owner is the first member: one more fits.
    const invites = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        clients[i % 2]!.post(`/v1/vendors/${vendor.id}/users`, {
          email: `person${i}@example.test`,
          firstname: 'P',
          lastname: String(i),
          role: 'member',
        }),
      ),
    );
    expect(invites.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const members = await a.ctx.db
      .select()
      .from(schema.vendorUsers)
      .where(eq(schema.vendorUsers.vendorId, vendor.id));
    expect(members).toHaveLength(2);
    const apps = await a.ctx.db.select().from(schema.apps).where(eq(schema.apps.vendorId, vendor.id));
    expect(apps).toHaveLength(2);
  });
});
