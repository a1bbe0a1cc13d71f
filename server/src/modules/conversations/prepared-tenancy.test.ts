import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { createTestServer, makeFunction, makeVendor, type TestServer } from '../../test/harness';
import { readUsage, reserveRequest } from '../billing/repo';
import { claimReplyLease, finishReply } from '../completion/repo';
import { makeChatApp, makeConversation, makeVendorModel } from '../completion/testing';
import { findVendorByKey, type VendorRow } from '../vendors/repo';
import {
  findAppWithModel,
  findConversationWithApp,
  findVendorConversationWithApp,
  insertMessages,
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
const lease = (holder: string) => ({ holder, ms: 60_000, history: 199 });

const sendPeriod = { start: new Date('2026-10-01T00:00:00Z'), end: new Date('2026-11-01T00:00:00Z') };

/** A send's statements; its first write counts the request in `sendPeriod` against `requests` (docs/adr/0046). */
async function send(t: Tenant, as: VendorRow = t.vendor, requests: number | null = null) {
  const { db } = server.ctx;
  const vendor = await findVendorByKey(db, as.key);
  const found = await findConversationWithApp(db, vendor!.id, t.conversation.token);
  // The console's read of the same: the X-Vendor key with the token (docs/adr/0046).
  const withVendor = await findVendorConversationWithApp(db, as.key, t.conversation.token);
  expect(withVendor?.vendor.id).toBe(vendor!.id);
  expect(withVendor?.found).toEqual(found);
  const claimed = await claimReplyLease(
    db,
    vendor!.id,
    t.conversation.id,
    lease(`holder-${as.id}`),
    { role: 'user', creator: 'user', message: `from ${as.id}` },
    t.app.id,
    { period: sendPeriod, limits: { requests, tokens: null } },
  );
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

    // The attacker: vendor B with A's conversation token and ids, right after A's statements ran. Its
    // request counts in B's own usage; A's lease, messages and count are untouched.
    const stolen = await send(a, b.vendor);
    expect(stolen.vendor?.id).toBe(b.vendor.id);
    expect(stolen.found).toBeNull();
    expect(stolen.claimed).toBeNull();
    expect([await countedIn(a.vendor), await countedIn(b.vendor)]).toEqual([1, 1]);

    await finishReply(db, a.vendor.id, a.conversation.id, `holder-${a.vendor.id}`, []);
    // B's limit of 1 is used up by the stolen attempt: refused, nothing taken; A's count does not matter.
    expect((await send(b, b.vendor, 1)).claimed).toBe('refused');
    const own = await send(b, b.vendor, 2);
    expect(own.found?.conversation.id).toBe(b.conversation.id);
    expect(own.found?.app.id).toBe(b.app.id);
    expect(own.found?.plan?.limits).toEqual({ requests: 3 });
    const claimed = own.claimed !== 'refused' ? own.claimed : null;
    expect(claimed?.installed.map((f) => f.functionKey)).toEqual(['beta_tool']);
    expect(claimed?.earlier.map((m) => m.message)).toEqual(['beta secret question', 'beta secret answer']);
    expect(claimed?.posted.vendorId).toBe(b.vendor.id);

    // B's last write under A's ids lets go of nothing of A's.
    const crossed = await finishReply(db, b.vendor.id, a.conversation.id, `holder-${a.vendor.id}`, []);
    expect(crossed.released).toBeNull();
    const done = await finishReply(db, b.vendor.id, b.conversation.id, `holder-${b.vendor.id}`, [
      { role: 'assistant', creator: 'assistant', message: 'beta reply' },
    ]);
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

  it("open an app's conversation for its vendor only: B with A's app id finds nothing", async () => {
    const { db } = server.ctx;
    const a = await tenant('gamma', 5);
    const b = await tenant('delta', 2);
    const mine = await findAppWithModel(db, a.vendor.id, a.app.id);
    expect([mine?.app.id, mine?.model?.vendorId, mine?.plan?.limits]).toEqual([
      a.app.id,
      a.vendor.id,
      { requests: 5 },
    ]);
    expect(await findAppWithModel(db, b.vendor.id, a.app.id)).toBeNull();
    expect((await findAppWithModel(db, b.vendor.id, b.app.id))?.plan?.limits).toEqual({ requests: 2 });

    const open = (t: Tenant, message: string) =>
      openConversationRow(
        db,
        t.vendor.id,
        { appId: t.app.id, token: `${t.name}-${Date.now()}`, channel: 'api', parameters: {} },
        [
          { role: 'user', creator: 'user', message },
          { role: 'assistant', creator: 'system', message: `${message}!` },
        ],
      );
    const opened = [await open(a, 'gamma hi'), await open(b, 'delta hi')];
    expect(
      opened.map(({ conversation, messages }) => [
        conversation.vendorId,
        ...messages.map((m) => [m.vendorId, m.conversationId === conversation.id, m.message]),
      ]),
    ).toEqual([
      [a.vendor.id, [a.vendor.id, true, 'gamma hi'], [a.vendor.id, true, 'gamma hi!']],
      [b.vendor.id, [b.vendor.id, true, 'delta hi'], [b.vendor.id, true, 'delta hi!']],
    ]);
  });
});
