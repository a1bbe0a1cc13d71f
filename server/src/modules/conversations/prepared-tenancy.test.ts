import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { createTestServer, makeFunction, makeVendor, type TestServer } from '../../test/harness';
import { readUsage, reserveRequest } from '../billing/repo';
import { findClientByTokenHash, updateClient } from '../clients/repo';
import { claimReplyLease, finishReply, type KeptRange } from '../completion/repo';
import { makeChatApp, makeConversation, makeVendorModel } from '../completion/testing';
import { findVendorByKey, type VendorRow } from '../vendors/repo';
import {
  findConversationWithApp,
  findVendorConversationWithApp,
  insertMessages,
  listMessages,
  openAppConversation,
  openConversationRow,
} from './repo';

/**
 * The send's statements are built once and reused with every caller's values
 * (docs/adr/0043-hot-statements-prepared-once.md): run for vendor A, then for vendor B, each must answer
 * only its caller's rows, and B holding A's token or ids must get nothing of A's.
 */
let server: TestServer;

beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

async function tenant(name: string, requests: number) {
  const { db } = server.ctx;
  const vendor = await makeVendor(server.ctx);
  const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
  const conversation = await makeConversation(server.ctx, app);
  await insertMessages(db, vendor.id, conversation.id, [
    { role: 'user', creator: 'user', message: `${name} secret question` },
    { role: 'assistant', creator: 'assistant', message: `${name} secret answer` },
  ]);
  const fn = await makeFunction(server.ctx, vendor, { functionKey: `${name}_tool` });
  await db.insert(schema.appFunctions).values({ vendorId: vendor.id, appId: app.id, functionId: fn.id });
  const [plan] = await db
    .insert(schema.plans)
    .values({ name: `${name} plan`, limits: { requests } })
    .returning();
  await db.insert(schema.subscriptions).values({ vendorId: vendor.id, planId: plan!.id, status: 'active' });
  return { name, vendor, app, conversation };
}

type Tenant = Awaited<ReturnType<typeof tenant>>;
const lease = (holder: string, kept?: KeptRange) => ({ holder, ms: 60_000, history: 199, kept });

const sendPeriod = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-11-01T00:00:00Z') };

/**
 * A send's statements; its first write counts the request in `sendPeriod` against `requests` (docs/adr/0046)
 * and reads the context after `kept` if it verifies it (docs/adr/0050).
 */
async function send(t: Tenant, as: VendorRow = t.vendor, requests: number | null = null, kept?: KeptRange) {
  const { db } = server.ctx;
  const vendor = await findVendorByKey(db, as.key);
  const found = await findConversationWithApp(db, vendor!.id, t.conversation.token);
  // The console's read of the same: the X-Vendor key with the token (docs/adr/0046).
  const withVendor = await findVendorConversationWithApp(db, as.key, t.conversation.token);
  expect(withVendor?.vendor.id).toBe(vendor!.id);
  expect(withVendor?.found).toEqual(found);
  const claimed = await claimReplyLease(db, {
    vendorId: vendor!.id,
    conversationId: t.conversation.id,
    lease: lease(`holder-${as.id}`, kept),
    posted: { role: 'user', creator: 'user', message: `from ${as.id}` },
    appId: t.app.id,
    reserve: { period: sendPeriod, limits: { requests, tokens: null } },
  });
  return { vendor, found, claimed };
}

const countedIn = async (vendor: VendorRow) =>
  (await readUsage(server.ctx.db, vendor.id, sendPeriod.start)).requests;

describe('the prepared send statements across vendors', () => {
  it("answer vendor B's send with B's rows only, right after A's, and nothing of A's to B", async () => {
    const { db } = server.ctx;
    const a = await tenant('alpha', 7);
    const b = await tenant('beta', 3);

    const first = await send(a);
    expect(first.vendor?.id).toBe(a.vendor.id);
    expect(first.found?.plan?.limits).toEqual({ requests: 7 });
    expect(first.claimed !== 'refused' && first.claimed?.installed.map((f) => f.functionKey)).toEqual([
      'alpha_tool',
    ]);

    // The context A's process keeps: A's messages through A's posted one.
    const claimedByA = first.claimed !== 'refused' ? first.claimed : null;
    const keptByA = { since: claimedByA!.posted.id, from: 0, count: claimedByA!.earlier.length + 1 };
    expect(claimedByA?.verified).toBe(true);

    // The attacker: vendor B with A's conversation token and ids and A's kept context, right after A's
    // statements ran. Its request counts in B's own usage; A's lease, messages and count are untouched.
    const stolen = await send(a, b.vendor, null, keptByA);
    expect(stolen.vendor?.id).toBe(b.vendor.id);
    expect(stolen.found).toBeNull();
    expect(stolen.claimed).toBeNull();
    expect((await listMessages(db, a.vendor.id, a.conversation.id)).map((m) => m.message)).toEqual([
      'alpha secret question',
      'alpha secret answer',
      `from ${a.vendor.id}`,
    ]);
    expect([await countedIn(a.vendor), await countedIn(b.vendor)]).toEqual([1, 1]);

    await finishReply(db, {
      vendorId: a.vendor.id,
      conversationId: a.conversation.id,
      holder: `holder-${a.vendor.id}`,
      stored: [],
    });
    // B's limit of 1 is used up by the stolen attempt: refused, nothing taken; A's count does not matter.
    expect((await send(b, b.vendor, 1)).claimed).toBe('refused');
    // A's kept context does not hold for B's conversation: B's whole window is read.
    const own = await send(b, b.vendor, 2, keptByA);
    expect(own.found?.conversation.id).toBe(b.conversation.id);
    expect(own.found?.app.id).toBe(b.app.id);
    expect(own.found?.plan?.limits).toEqual({ requests: 3 });
    const claimed = own.claimed !== 'refused' ? own.claimed : null;
    expect(claimed?.installed.map((f) => f.functionKey)).toEqual(['beta_tool']);
    expect(claimed?.earlier.map((m) => m.message)).toEqual(['beta secret question', 'beta secret answer']);
    expect(claimed?.verified).toBe(false);
    expect(claimed?.posted.vendorId).toBe(b.vendor.id);

    // B's last write under A's ids lets go of nothing of A's.
    const crossed = await finishReply(db, {
      vendorId: b.vendor.id,
      conversationId: a.conversation.id,
      holder: `holder-${a.vendor.id}`,
      stored: [],
    });
    expect(crossed.released).toBeNull();
    const done = await finishReply(db, {
      vendorId: b.vendor.id,
      conversationId: b.conversation.id,
      holder: `holder-${b.vendor.id}`,
      stored: [{ role: 'assistant', creator: 'assistant', message: 'beta reply' }],
    });
    expect(done.released).not.toBeNull();
    expect(done.messages.map((m) => [m.vendorId, m.conversationId, m.message])).toEqual([
      [b.vendor.id, b.conversation.id, 'beta reply'],
    ]);

    // Reservations count per vendor: B's limit of 1 does not see A's count, and back.
    const period = new Date('2026-11-01T00:00:00Z');
    const one = { requests: 1, tokens: null };
    expect(await reserveRequest(db, a.vendor.id, period, one)).toBe(true);
    expect(await reserveRequest(db, b.vendor.id, period, one)).toBe(true);
    expect(await reserveRequest(db, a.vendor.id, period, one)).toBe(false);
    expect(await reserveRequest(db, b.vendor.id, period, { requests: 2, tokens: null })).toBe(true);
    expect(await reserveRequest(db, b.vendor.id, period, { requests: null, tokens: null })).toBe(true);
  });

  it("open an app's conversation for its vendor only: B with A's app id finds and stores nothing", async () => {
    const { db } = server.ctx;
    const a = await tenant('gamma', 5);
    const b = await tenant('delta', 2);
    const values = (t: Tenant, appId: number) => ({
      appId,
      token: `${t.name}-${appId}-${Date.now()}`,
      channel: 'api',
      parameters: {},
    });
    const history = (message: string) => [
      { role: 'user', creator: 'user', message },
      { role: 'assistant', creator: 'system', message: `${message}!` },
    ];
    const storedUnder = async (token: string) =>
      (await db.select().from(schema.conversations).where(eq(schema.conversations.token, token))).length;

    // With its app, model and plan (the OpenAI-compatible call's opening, docs/adr/0046 "Amended 2026-11-25").
    const mine = await openAppConversation(db, a.vendor.id, values(a, a.app.id), history('gamma hi'));
    expect([mine?.conversation.vendorId, mine?.app.id, mine?.model?.vendorId, mine?.plan?.limits]).toEqual([
      a.vendor.id,
      a.app.id,
      a.vendor.id,
      { requests: 5 },
    ]);
    const theirs = await openAppConversation(db, b.vendor.id, values(b, b.app.id), history('delta hi'));
    expect([theirs?.conversation.vendorId, theirs?.plan?.limits]).toEqual([b.vendor.id, { requests: 2 }]);
    const stolen = values(b, a.app.id);
    expect(await openAppConversation(db, b.vendor.id, stolen, history('delta steals'))).toBeNull();
    expect(await storedUnder(stolen.token)).toBe(0);

    // With the messages it stored (a console's greeting).
    const opened = [
      await openConversationRow(db, a.vendor.id, values(a, a.app.id), history('gamma hello')),
      await openConversationRow(db, b.vendor.id, values(b, b.app.id), history('delta hello')),
    ];
    expect(
      opened.map((o) => [
        o?.conversation.vendorId,
        ...(o?.messages ?? []).map((m) => [m.vendorId, m.conversationId === o?.conversation.id, m.message]),
      ]),
    ).toEqual([
      [a.vendor.id, [a.vendor.id, true, 'gamma hello'], [a.vendor.id, true, 'gamma hello!']],
      [b.vendor.id, [b.vendor.id, true, 'delta hello'], [b.vendor.id, true, 'delta hello!']],
    ]);
    const stolenAgain = values(b, a.app.id);
    expect(await openConversationRow(db, b.vendor.id, stolenAgain, history('delta steals'))).toBeNull();
    expect(await storedUnder(stolenAgain.token)).toBe(0);

    // A's history went to A's conversation only.
    const aMessages = await db
      .select({ vendorId: schema.messages.vendorId, message: schema.messages.message })
      .from(schema.messages)
      .where(eq(schema.messages.conversationId, mine!.conversation.id));
    expect(aMessages).toEqual([
      { vendorId: a.vendor.id, message: 'gamma hi' },
      { vendorId: a.vendor.id, message: 'gamma hi!' },
    ]);
  });

  it("counts an API client's call in its lookup only when it is accepted: B's X-Vendor with A's key counts nothing", async () => {
    const { db } = server.ctx;
    const a = await tenant('epsilon', 5);
    const b = await tenant('zeta', 5);
    const client = async (t: Tenant, tokenHash: string, rate: number | null = null) => {
      const [row] = await db
        .insert(schema.clients)
        .values({
          vendorId: t.vendor.id,
          vendorAppId: t.app.id,
          tokenHash,
          tokenTail: 'tail',
          requestRateLimit: rate,
          requestRateInterval: rate,
        })
        .returning();
      return row!;
    };
    const mine = await client(a, `hash-${a.name}`);
    const limited = await client(b, `hash-${b.name}`, 10);
    const lookup = (hash: string, vendorKey?: string | null) =>
      findClientByTokenHash(db, hash, { vendorKey });
    const count = async (id: number) =>
      (await db.select().from(schema.clients).where(eq(schema.clients.id, id)))[0]!.requetsCount;

    expect((await lookup(mine.tokenHash, a.vendor.key))?.counted).toBe(true);
    expect((await lookup(mine.tokenHash))?.counted).toBe(true);
    const refused = await lookup(mine.tokenHash, b.vendor.key);
    expect([refused?.vendor.id, refused?.counted]).toEqual([a.vendor.id, false]);
    expect((await lookup(mine.tokenHash, null))?.counted).toBe(false);
    expect((await findClientByTokenHash(db, mine.tokenHash))?.counted).toBe(false);
    expect(await count(mine.id)).toBe(2);
    // A client with a rate limit is counted after it, by its own write.
    expect((await lookup(limited.tokenHash, b.vendor.key))?.counted).toBe(false);
    expect(await count(limited.id)).toBe(0);
    await updateClient(db, a.vendor.id, a.app.id, mine.id, {
      name: a.name,
      active: false,
      requestRateLimit: null,
      requestRateInterval: null,
    });
    expect((await lookup(mine.tokenHash, a.vendor.key))?.counted).toBe(false);
    expect(await count(mine.id)).toBe(2);
  });
});
