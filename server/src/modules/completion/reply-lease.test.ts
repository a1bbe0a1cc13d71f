import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createListeningTestServer,
  createTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
  type TestServer,
} from '../../test/harness';
import { claimReplyLease, insertMessage, listMessages, releaseReplyLease } from '../conversations/repo';
import { finish, makeChatApp, makeConversation, makeVendorModel, ScriptedModel, text } from './testing';

describe('reply lease', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is held by one reply at a time, released when done, and lapses when its holder died', async () => {
    const vendor = await makeVendor(server.ctx);
    const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const conversation = await makeConversation(server.ctx, app);
    const { db } = server.ctx;
    const claim = (vendorId = vendor.id) => claimReplyLease(db, vendorId, conversation.id, 60_000, 10);
    expect(await claim()).toEqual([]);
    expect(await claim()).toBeNull();
    // Another vendor cannot take (or see) it.
    const other = await makeVendor(server.ctx);
    await releaseReplyLease(db, other.id, conversation.id);
    expect(await claim()).toBeNull();
    expect(await claim(other.id)).toBeNull();
    await releaseReplyLease(db, vendor.id, conversation.id);
    expect(await claim()).toEqual([]);
    // A process killed mid-reply never releases: its lease runs out instead.
    await db
      .update(schema.conversations)
      .set({ replyLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(schema.conversations.id, conversation.id));
    expect(await claim()).toEqual([]);
  });

  it("reads the conversation's last messages, oldest first, with the lease", async () => {
    const vendor = await makeVendor(server.ctx);
    const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const conversation = await makeConversation(server.ctx, app);
    const elsewhere = await makeConversation(server.ctx, app);
    const { db } = server.ctx;
    for (let i = 1; i <= 5; i++) {
      await insertMessage(db, vendor.id, conversation.id, {
        role: 'user',
        creator: 'user',
        message: `m${i}`,
      });
      await insertMessage(db, vendor.id, elsewhere.id, { role: 'user', creator: 'user', message: `x${i}` });
    }
    const history = await claimReplyLease(db, vendor.id, conversation.id, 60_000, 3);
    expect(history?.map((m) => m.message)).toEqual(['m3', 'm4', 'm5']);
    expect(history?.[0]).toMatchObject({ role: 'user', creator: 'user', conversationId: conversation.id });
    expect(history?.[0]?.createdAt).toBeInstanceOf(Date);
    // Held: nothing is read.
    expect(await claimReplyLease(db, vendor.id, conversation.id, 60_000, 3)).toBeNull();
  });
});

/** Two app instances on one PostgreSQL database: a send on B while A's reply runs answers 409. */
describe.runIf(Boolean(process.env.DATABASE_URL))('one reply per conversation across two instances', () => {
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  beforeAll(async () => {
    a = await createListeningTestServer();
    b = await createListeningTestServer({ databaseUrl: a.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('refuses the second send on the other instance, then takes the next one once the first is stored', async () => {
    const vendor = await makeVendor(a.ctx);
    const user = await makeUser(a.ctx, { vendors: [vendor] });
    const app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
    const conversation = await makeConversation(a.ctx, app);
    a.ctx.completion.resolveModel = () =>
      new ScriptedModel([[text('Slow '), { type: 'delay', ms: 1_500 }, text('answer'), finish()]]);
    b.ctx.completion.resolveModel = () => new ScriptedModel([[text('From B'), finish()]]);
    const onA = await Client.signedIn(a.app, user.email, user.password);
    const onB = await Client.signedIn(b.app, user.email, user.password);
    onA.vendorKey = vendor.key;
    onB.vendorKey = vendor.key;

    const first = onA.post(`/v1/conversations/${conversation.token}`, { content: 'First' });
    await expect
      .poll(async () => (await listMessages(a.ctx.db, vendor.id, conversation.id)).length)
      .toBeGreaterThan(0);
    const busy = await onB.post(`/v1/conversations/${conversation.token}`, { content: 'Meanwhile' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toEqual({
      name: 'Conflict',
      message: 'A reply is still being generated in this conversation. Wait for it to finish.',
    });
    expect((await first).statusCode).toBe(200);

    const next = await onB.post(`/v1/conversations/${conversation.token}`, { content: 'Now' });
    expect(next.statusCode).toBe(200);
    const stored = (await listMessages(a.ctx.db, vendor.id, conversation.id)).map((m) => [m.role, m.message]);
    expect(stored).toEqual([
      ['user', 'First'],
      ['assistant', 'Slow answer'],
      ['user', 'Now'],
      ['assistant', 'From B'],
    ]);
  });
});
