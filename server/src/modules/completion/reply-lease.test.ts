import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db, schema } from '../../platform/db';
import {
  Client,
  createListeningTestServer,
  createTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
  signedInVendor,
  type TestServer,
} from '../../test/harness';
import {
  type ConversationRow,
  findConversation,
  insertMessage,
  listMessages,
  releaseReplyLease,
  releaseStaleReplyLeases,
  renewReplyLeases,
} from '../conversations/repo';
import { INTERRUPTED_TEXT } from './engine';
import { claimReplyLease, finishReply, type LeaseClaim } from './repo';
import { finish, makeChatApp, makeConversation, makeVendorModel, ScriptedModel, text } from './testing';

type Server = Pick<TestServer, 'ctx'>;

const messagesOf = async (server: Server, conversation: ConversationRow) =>
  (await listMessages(server.ctx.db, conversation.vendorId, conversation.id)).map((m) => [m.role, m.message]);

/** The state a process leaves when it dies mid-reply: the user's message stored, the lease held by it. */
const posted = (message: string) => ({ role: 'user', creator: 'user', message });

async function diedMidReply(server: Server, conversation: ConversationRow, leaseFor: string) {
  await insertMessage(server.ctx.db, conversation.vendorId, conversation.id, {
    role: 'user',
    creator: 'user',
    message: 'Before the crash',
  });
  await server.ctx.db
    .update(schema.conversations)
    .set({ replyLeaseUntil: sql.raw(`now() + interval '${leaseFor}'`), replyLeaseHolder: 'a-dead-process' })
    .where(eq(schema.conversations.id, conversation.id));
}

/** A claim that counts nothing against the plan: never refused. */
async function claimUnreserved(db: Db, claim: Omit<LeaseClaim, 'reserve'>) {
  const claimed = await claimReplyLease(db, claim);
  if (claimed === 'refused') throw new Error('A claim that counts nothing was refused.');
  return claimed;
}

/** Every reply of the server answers `answer` (a fresh scripted model per reply). */
const answering = (answer: string) => () => new ScriptedModel([[text(answer), finish()]]);

describe('reply lease', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await createTestServer({ engine: { resolveModel: answering('Answer') } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is held by one reply at a time, released by its holder when done, and lapses when its holder died', async () => {
    const vendor = await makeVendor(server.ctx);
    const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const conversation = await makeConversation(server.ctx, app);
    const { db } = server.ctx;
    const claim = (vendorId = vendor.id) =>
      claimUnreserved(db, {
        vendorId: vendorId,
        conversationId: conversation.id,
        lease: { holder: 'me', ms: 60_000, history: 10 },
        posted: posted('Hi'),
        appId: app.id,
      });
    const first = await claim();
    expect(first?.earlier).toEqual([]);
    expect(first?.posted).toMatchObject({ role: 'user', message: 'Hi', conversationId: conversation.id });
    // Held: the user's message is not stored.
    expect(await claim()).toBeNull();
    expect(await messagesOf(server, conversation)).toEqual([['user', 'Hi']]);
    // Another vendor cannot take (or see) it, nor another holder release it.
    const other = await makeVendor(server.ctx);
    await releaseReplyLease(db, other.id, conversation.id, 'me');
    await releaseReplyLease(db, vendor.id, conversation.id, 'someone-else');
    expect(await claim()).toBeNull();
    expect(await claim(other.id)).toBeNull();
    await releaseReplyLease(db, vendor.id, conversation.id, 'me');
    expect((await claim())?.earlier.map((m) => m.message)).toEqual(['Hi']);
    // A live lease is not stale.
    const stale = () => releaseStaleReplyLeases(db, 'Gone', { all: false, conversation });
    expect(await stale()).toEqual([]);
    // A process killed mid-reply never releases: its lease runs out, and releasing it leaves a notice.
    await db
      .update(schema.conversations)
      .set({ replyLeaseUntil: sql`now() - interval '1 second'` })
      .where(eq(schema.conversations.id, conversation.id));
    expect(await claim()).toBeNull();
    expect(await stale()).toEqual([conversation.id]);
    expect(await stale()).toEqual([]);
    expect(await messagesOf(server, conversation)).toEqual([
      ['user', 'Hi'],
      ['user', 'Hi'],
      ['error', 'Gone'],
    ]);
    expect((await claim())?.earlier.map((m) => m.message)).toEqual(['Hi', 'Hi', 'Gone']);
  });

  it("stores the reply's last messages and usage with the release, and releases only its holder's lease", async () => {
    const vendor = await makeVendor(server.ctx);
    const model = await makeVendorModel(server.ctx, vendor);
    const app = await makeChatApp(server.ctx, vendor, { model });
    const conversation = await makeConversation(server.ctx, app);
    const { db } = server.ctx;
    const lease = { holder: 'me', ms: 60_000, history: 10 };
    const claimWith = (message: string) =>
      claimUnreserved(db, {
        vendorId: vendor.id,
        conversationId: conversation.id,
        lease,
        posted: posted(message),
        appId: app.id,
      });
    await claimWith('Hi');
    const usage = {
      record: {
        appId: app.id,
        vendorModelId: model.id,
        conversationId: conversation.id,
        tokensPrompt: 3,
        tokensCompletion: 4,
        costMinor: 0,
      },
    };
    const answer = { role: 'assistant', creator: 'system', message: 'Hello' };
    // Not the holder: the messages are stored, the lease stays.
    const theirs = await finishReply(db, {
      vendorId: vendor.id,
      conversationId: conversation.id,
      holder: 'them',
      stored: [answer],
      usage: usage,
    });
    expect(theirs.released).toBeNull();
    expect(theirs.messages.map((m) => m.message)).toEqual(['Hello']);
    expect(await claimWith('Again')).toBeNull();
    const mine = await finishReply(db, {
      vendorId: vendor.id,
      conversationId: conversation.id,
      holder: 'me',
      stored: [answer, answer],
      usage: usage,
    });
    expect(mine.released).toEqual({ state: {} });
    expect(mine.messages.map((m) => m.id)).toEqual([...mine.messages.map((m) => m.id)].sort((a, b) => a - b));
    expect(await messagesOf(server, conversation)).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello'],
      ['assistant', 'Hello'],
      ['assistant', 'Hello'],
    ]);
    const records = await db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, conversation.id));
    expect(records.map((r) => r.tokensPrompt + r.tokensCompletion)).toEqual([7, 7]);
    expect(await claimWith('Again')).not.toBeNull();
  });

  it("renews only its holder's leases", async () => {
    const vendor = await makeVendor(server.ctx);
    const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const mine = await makeConversation(server.ctx, app);
    const theirs = await makeConversation(server.ctx, app);
    const { db } = server.ctx;
    for (const [conversation, holder] of [
      [mine, 'me'],
      [theirs, 'them'],
    ] as const) {
      await claimUnreserved(db, {
        vendorId: vendor.id,
        conversationId: conversation.id,
        lease: { holder, ms: 1_000, history: 1 },
        posted: posted('Hi'),
        appId: app.id,
      });
    }
    await renewReplyLeases(db, 'me', 600_000);
    const until = async (c: ConversationRow) =>
      (await findConversation(db, vendor.id, c.token))!.replyLeaseUntil!.getTime() - Date.now();
    expect(await until(mine)).toBeGreaterThan(60_000);
    expect(await until(theirs)).toBeLessThan(60_000);
  });

  it("takes over a dead instance's lapsed lease at the next send and stores the interrupted reply", async () => {
    const { vendor, client } = await signedInVendor(server, 'member');
    const app = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const conversation = await makeConversation(server.ctx, app);
    await diedMidReply(server, conversation, '-1 second');
    const res = await client.post(`/v1/conversations/${conversation.token}`, { content: 'Again' });
    expect(res.statusCode).toBe(200);
    expect(await messagesOf(server, conversation)).toEqual([
      ['user', 'Before the crash'],
      ['error', INTERRUPTED_TEXT],
      ['user', 'Again'],
      ['assistant', 'Answer'],
    ]);
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
    const lease = { holder: 'me', ms: 60_000, history: 3 };
    const claimed = await claimUnreserved(db, {
      vendorId: vendor.id,
      conversationId: conversation.id,
      lease: lease,
      posted: posted('m6'),
      appId: app.id,
    });
    // The messages before the user's, not the user's own.
    expect(claimed?.earlier.map((m) => m.message)).toEqual(['m3', 'm4', 'm5']);
    // Only what the prompt reads.
    expect(claimed?.earlier[0]).toEqual({
      id: expect.any(Number),
      role: 'user',
      message: 'm3',
      functionCalls: [],
      functionResponse: null,
    });
    expect(claimed?.posted.createdAt).toBeInstanceOf(Date);
    expect(claimed?.posted.id).toBeGreaterThan(claimed!.earlier[2]!.id);
    // Held: nothing is read.
    expect(
      await claimUnreserved(db, {
        vendorId: vendor.id,
        conversationId: conversation.id,
        lease: lease,
        posted: posted('m7'),
        appId: app.id,
      }),
    ).toBeNull();
  });
});

/** The embedded database: the starting process is the only one, so every lease it finds is stale. */
describe.skipIf(Boolean(process.env.DATABASE_URL))('a restart after a process died mid-reply', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'llmor-lease-'));
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('releases the lease at start and stores the interrupted reply: the next send is answered at once', async () => {
    const before = await createTestServer({ env: { DATA_DIR: dataDir } });
    const vendor = await makeVendor(before.ctx);
    const user = await makeUser(before.ctx, { vendors: [vendor] });
    const app = await makeChatApp(before.ctx, vendor, { model: await makeVendorModel(before.ctx, vendor) });
    const conversation = await makeConversation(before.ctx, app);
    // Held for long: only the restart can explain its release.
    await diedMidReply(before, conversation, '1 hour');
    await before.close();

    const after = await createTestServer({
      env: { DATA_DIR: dataDir },
      engine: { resolveModel: answering('Answer') },
    });
    servers.push(after);
    const client = await Client.signedIn(after.app, user.email, user.password);
    client.vendorKey = vendor.key;
    const res = await client.post(`/v1/conversations/${conversation.token}`, { content: 'Again' });
    expect(res.statusCode).toBe(200);
    expect(await messagesOf(after, conversation)).toEqual([
      ['user', 'Before the crash'],
      ['error', INTERRUPTED_TEXT],
      ['user', 'Again'],
      ['assistant', 'Answer'],
    ]);
  });
});

/** Two app instances on one PostgreSQL database: a send on B while A's reply runs answers 409. */
describe.runIf(Boolean(process.env.DATABASE_URL))('one reply per conversation across two instances', () => {
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  beforeAll(async () => {
    a = await createListeningTestServer({
      engine: {
        resolveModel: () =>
          new ScriptedModel([[text('Slow '), { type: 'delay', ms: 1_500 }, text('answer'), finish()]]),
      },
    });
    b = await createListeningTestServer({
      databaseUrl: a.databaseUrl,
      engine: { resolveModel: answering('From B') },
    });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('refuses the second send on the other instance, then takes the next one once the first is stored', async () => {
    const { vendor, user, client: onA } = await signedInVendor(a, 'member');
    const app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
    const conversation = await makeConversation(a.ctx, app);
    const onB = await Client.signedIn(b.app, user.email, user.password);
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

  it('a starting instance releases the lapsed leases of dead instances, not the live leases of others', async () => {
    const vendor = await makeVendor(a.ctx);
    const app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
    const lapsed = await makeConversation(a.ctx, app);
    const live = await makeConversation(a.ctx, app);
    await diedMidReply(a, lapsed, '-1 second');
    // As a reply running on another instance leaves it: held and renewed.
    await diedMidReply(a, live, '1 hour');

    const starting = await createListeningTestServer({ databaseUrl: a.databaseUrl });
    await starting.close();
    expect(await messagesOf(a, lapsed)).toEqual([
      ['user', 'Before the crash'],
      ['error', INTERRUPTED_TEXT],
    ]);
    expect(await messagesOf(a, live)).toEqual([['user', 'Before the crash']]);
    expect((await findConversation(a.ctx.db, vendor.id, live.token))?.replyLeaseHolder).toBe(
      'a-dead-process',
    );
  });
});
