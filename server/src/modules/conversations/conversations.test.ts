import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { linkBaseUrl } from '../../platform/config';
import { schema } from '../../platform/db';
import { Client, createTestServer, makeUser, signedInVendor, type TestServer } from '../../test/harness';
import type { AppRow, VendorModelRow } from '../completion/repo';
import {
  finish,
  ModelChoice,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  type Step,
  text,
} from '../completion/testing';
import type { VendorRow } from '../vendors/repo';
import { insertMessages, listMessages } from './repo';

let server: TestServer;
let vendor: VendorRow;
let other: VendorRow;
let client: Client;
let otherClient: Client;
let model: VendorModelRow;
let app: AppRow;
const models = new ModelChoice();

function useModel(turns: Step[][]): ScriptedModel {
  const m = new ScriptedModel(turns);
  models.use(m);
  return m;
}

beforeAll(async () => {
  server = await createTestServer({ engine: { resolveModel: models.resolve } });
  ({ vendor, client } = await signedInVendor(server, 'member'));
  ({ vendor: other, client: otherClient } = await signedInVendor(server, 'member'));
  model = await makeVendorModel(server.ctx, vendor, { costPer1kMinor: 120 });
  app = await makeChatApp(server.ctx, vendor, {
    model,
    parameters: { greeting: { de_DE: 'Grüezi! Wie kann ich helfen?', en_US: 'Hello! How can I help?' } },
  });
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  server.ctx.config.SYNC_REPLY_TIMEOUT_MS = 30_000;
  server.ctx.publicUrl = linkBaseUrl(server.ctx.config);
});

const create = (c: Client, body: unknown, query = '') => c.post(`/v1/conversations${query}`, body);
const countConversations = async () => (await server.ctx.db.select().from(schema.conversations)).length;

describe('POST /v1/conversations', () => {
  it('creates a conversation with a random token, relay url, state and the greeting in the request locale', async () => {
    const res = await create(
      client,
      { vendor_app_id: app.id, vendor_channel: 'management', parameters: { a: 1 } },
      '?locale=de_CH',
    );
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.any(Number),
      token: expect.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      vendor_app_id: app.id,
      channel: 'management',
      parameters: { a: 1 },
      relay_url: `${server.ctx.publicUrl}/stream`,
      state: {},
      messages: [
        {
          id: expect.any(Number),
          role: 'assistant',
          creator: 'system',
          message: 'Grüezi! Wie kann ich helfen?',
          created_at: expect.any(String),
          has_been_modified: false,
          versions: [],
          function_calls: [],
          function_response: null,
          sources: [],
        },
      ],
    });
    expect(Buffer.from(data.token, 'base64url').length).toBeGreaterThanOrEqual(16);
    // The greeting is stored: GET answers it.
    const got = await client.get(`/v1/conversations/${data.token}`);
    expect(got.json().data.map((m: { message: string }) => m.message)).toEqual([
      'Grüezi! Wie kann ich helfen?',
    ]);
  });

  it('falls back to the default locale, uses PUBLIC_URL, and sends no greeting when the app has none', async () => {
    server.ctx.publicUrl = linkBaseUrl({ ...server.ctx.config, PUBLIC_URL: 'https://llmor.example/' });
    const res = await create(
      client,
      { vendor_app_id: app.id, vendor_channel: 'management' },
      '?locale=fr_FR',
    );
    expect(res.json().data.relay_url).toBe('https://llmor.example/stream');
    expect(res.json().data.messages.map((m: { message: string }) => m.message)).toEqual([
      'Hello! How can I help?',
    ]);
    const plain = await makeChatApp(server.ctx, vendor, { model });
    const res2 = await create(client, {
      vendor_app_id: plain.id,
      vendor_channel: 'management',
      parameters: {},
    });
    expect(res2.statusCode).toBe(201);
    expect(res2.json().data.messages).toEqual([]);
  });

  it("answers 404 for another vendor's app or an unknown app, and creates nothing", async () => {
    const foreign = await makeChatApp(server.ctx, other);
    const before = await countConversations();
    for (const id of [foreign.id, 999999]) {
      const res = await create(client, { vendor_app_id: id, vendor_channel: 'management', parameters: {} });
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'App not found' });
    }
    expect(await countConversations()).toBe(before);
  });

  it('validates the body and the vendor header', async () => {
    const before = await countConversations();
    const bad = await create(client, { vendor_app_id: 'x', vendor_channel: 'fax' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      name: 'ValidationError',
      errors: { vendor_app_id: expect.any(String), vendor_channel: expect.any(String) },
    });
    const api = await create(client, { vendor_app_id: app.id, vendor_channel: 'api', parameters: {} });
    expect(api.statusCode).toBe(400);
    expect(api.json().errors).toEqual({
      vendor_channel: 'This caller may only open conversations on: management.',
    });
    const noVendor = await client.request({
      method: 'POST',
      url: '/v1/conversations',
      payload: { vendor_app_id: app.id, vendor_channel: 'management' },
      headers: { 'x-vendor': '' },
    });
    expect(noVendor.statusCode).toBe(400);
    const notMine = await client.request({
      method: 'POST',
      url: '/v1/conversations',
      payload: { vendor_app_id: app.id, vendor_channel: 'management' },
      headers: { 'x-vendor': other.key },
    });
    expect(notMine.statusCode).toBe(404);
    expect(await countConversations()).toBe(before);
    const anonymous = await server.app.inject({ method: 'POST', url: '/v1/conversations', payload: {} });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('GET and POST /v1/conversations/{token}', () => {
  it('sends a message, answers the conversation with the messages it added, and records usage with cost', async () => {
    useModel([[text('Hi, '), text('human.'), finish({ promptTokens: 700, completionTokens: 100 })]]);
    const created = (
      await create(client, { vendor_app_id: app.id, vendor_channel: 'management', parameters: {} })
    ).json().data;
    const res = await client.post(`/v1/conversations/${created.token}`, { content: 'Hello?' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.conversation).toMatchObject({
      token: created.token,
      id: created.id,
      vendor_app_id: app.id,
      state: {},
    });
    expect(
      body.data.map((m: { role: string; creator: string; message: string }) => [
        m.role,
        m.creator,
        m.message,
      ]),
    ).toEqual([
      ['user', 'user', 'Hello?'],
      ['assistant', 'system', 'Hi, human.'],
    ]);
    expect((await client.get(`/v1/conversations/${created.token}`)).json()).toEqual({
      conversation: body.conversation,
      data: [created.messages[0], ...body.data],
      next_cursor: null,
    });
    const usage = await server.ctx.db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, created.id));
    expect(
      usage.map((u) => [
        u.tokensPrompt,
        u.tokensCompletion,
        u.requests,
        u.costMinor,
        u.vendorModelId,
        u.appId,
      ]),
    ).toEqual([
      [700, 100, 1, 96, model.id, app.id], // 0.8 × 120 = 96
    ]);
  });

  it('answers the state as it is after the reply, and an empty conversation with its state', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const setState = (state: Record<string, unknown>) =>
      server.ctx.db
        .update(schema.conversations)
        .set({ state })
        .where(eq(schema.conversations.id, conversation.id));
    await setState({ step: 'empty' });
    const empty = (await client.get(`/v1/conversations/${conversation.token}`)).json();
    expect(empty).toMatchObject({ conversation: { state: { step: 'empty' } }, data: [] });

    // A script (or relay client) changes the state while the reply runs.
    models.use({
      async *stream() {
        await setState({ step: 'changed mid-reply' });
        yield { type: 'text' as const, text: 'Done.' };
        yield {
          type: 'finish' as const,
          reason: 'stop' as const,
          usage: { promptTokens: 1, completionTokens: 1 },
        };
      },
    });
    const res = await client.post(`/v1/conversations/${conversation.token}`, { content: 'Go' });
    expect(res.statusCode).toBe(200);
    expect(res.json().conversation.state).toEqual({ step: 'changed mid-reply' });
    expect(res.json().data.map((m: { message: string }) => m.message)).toEqual(['Go', 'Done.']);
  });

  it('rejects blank or missing content with 400 and stores nothing', async () => {
    const conversation = await makeConversation(server.ctx, app);
    for (const payload of [{ content: '   \n ' }, { content: '' }, {}, { content: 5 }]) {
      const res = await client.post(`/v1/conversations/${conversation.token}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ name: 'ValidationError', errors: { content: expect.anything() } });
    }
    expect(await listMessages(server.ctx.db, vendor.id, conversation.id)).toEqual([]);
  });

  it('limits sends per caller (SEND_RATE_PER_MINUTE) with 429 and Retry-After, storing nothing', async () => {
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    const sender = await Client.signedIn(server.app, user.email, user.password);
    sender.vendorKey = vendor.key;
    const conversation = await makeConversation(server.ctx, app);
    useModel([[text('ok'), finish()]]);
    const limit = server.ctx.config.SEND_RATE_PER_MINUTE;
    for (let i = 0; i < limit - 1; i++)
      await server.ctx.rateLimiter.hit(`conversations:send:${user.id}`, limit, 60);
    expect(
      (await sender.post(`/v1/conversations/${conversation.token}`, { content: 'last one' })).statusCode,
    ).toBe(200);
    const stored = (await listMessages(server.ctx.db, vendor.id, conversation.id)).length;
    const refused = await sender.post(`/v1/conversations/${conversation.token}`, { content: 'one too many' });
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await listMessages(server.ctx.db, vendor.id, conversation.id)).toHaveLength(stored);
    // Another caller of the same vendor keeps its own budget.
    useModel([[text('ok'), finish()]]);
    expect((await client.post(`/v1/conversations/${conversation.token}`, { content: 'hi' })).statusCode).toBe(
      200,
    );
  });

  it("answers 404 for another vendor's token, an unknown token and a malformed one", async () => {
    const conversation = await makeConversation(server.ctx, app);
    for (const [c, token] of [
      [otherClient, conversation.token],
      [client, 'A'.repeat(32)],
      [client, 'not a token!'],
    ] as const) {
      const got = await c.get(`/v1/conversations/${encodeURIComponent(token)}`);
      expect(got.statusCode).toBe(404);
      expect(got.json()).toEqual({ name: 'NotFound', message: 'Conversation not found' });
      const sent = await c.post(`/v1/conversations/${encodeURIComponent(token)}`, { content: 'hi' });
      expect(sent.statusCode).toBe(404);
    }
    // A send reads the X-Vendor vendor with the conversation (docs/adr/0046): naming a vendor one is not
    // a member of still answers 404 for the vendor, whatever token comes with it.
    const intruder = await otherClient.request({
      method: 'POST',
      url: `/v1/conversations/${conversation.token}`,
      payload: { content: 'hi' },
      headers: { 'x-vendor': vendor.key },
    });
    expect([intruder.statusCode, intruder.json()]).toEqual([
      404,
      { name: 'NotFound', message: 'Vendor not found' },
    ]);
    expect(await listMessages(server.ctx.db, vendor.id, conversation.id)).toEqual([]);
  });

  it('answers 504 past the sync window, refuses a concurrent send with 409, and stores the reply when done', async () => {
    server.ctx.config.SYNC_REPLY_TIMEOUT_MS = 200;
    useModel([[text('Slow '), { type: 'delay', ms: 700 }, text('answer'), finish()]]);
    const conversation = await makeConversation(server.ctx, app);
    const started = Date.now();
    const res = await client.post(`/v1/conversations/${conversation.token}`, { content: 'Take your time' });
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({
      name: 'GatewayTimeout',
      message: 'The reply is taking longer than 0.2 s; it continues over the relay and is stored when done.',
    });
    expect(Date.now() - started).toBeLessThan(700);
    const busy = await client.post(`/v1/conversations/${conversation.token}`, { content: 'Hello?' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json().name).toBe('Conflict');
    const rows = await vi.waitFor(
      async () => {
        const all = await listMessages(server.ctx.db, vendor.id, conversation.id);
        expect(all).toHaveLength(2);
        return all;
      },
      { timeout: 5_000, interval: 25 },
    );
    expect(rows.map((m) => [m.role, m.message])).toEqual([
      ['user', 'Take your time'],
      ['assistant', 'Slow answer'],
    ]);
  });
});

describe('paging messages: GET /v1/conversations/{token}?cursor=&limit=', () => {
  const MESSAGES = 5_000;
  type Page = { data: { id: number; message: string }[]; next_cursor: string | null };
  let token: string;
  let conversationId: number;

  beforeAll(async () => {
    const conversation = await makeConversation(server.ctx, app);
    token = conversation.token;
    conversationId = conversation.id;
    await insertMessages(
      server.ctx.db,
      vendor.id,
      conversation.id,
      Array.from({ length: MESSAGES }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        creator: i % 2 ? 'system' : 'user',
        message: `message ${i}`,
      })),
    );
  });

  it('answers the newest page first, oldest first within it, and its cursor reaches every older message once', async () => {
    const first = (await client.get(`/v1/conversations/${token}`)).json() as Page;
    expect(first.data.map((m) => m.message)).toEqual(
      Array.from({ length: 50 }, (_, i) => `message ${MESSAGES - 50 + i}`),
    );
    expect(first.next_cursor).toBe(String(first.data[0]!.id));

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = cursor ? `?limit=200&cursor=${cursor}` : '?limit=200';
      const page = (await client.get(`/v1/conversations/${token}${query}`)).json() as Page;
      const ids = page.data.map((m) => m.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      seen.unshift(...page.data.map((m) => m.message));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor !== null);
    expect(pages).toBe(MESSAGES / 200);
    expect(seen).toEqual(Array.from({ length: MESSAGES }, (_, i) => `message ${i}`));
  });

  it('answers a send with only the messages it added, however long the conversation', async () => {
    useModel([[text('Still here.'), finish()]]);
    const res = await client.post(`/v1/conversations/${token}`, { content: 'Are you there?' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { role: string; message: string }) => [m.role, m.message])).toEqual([
      ['user', 'Are you there?'],
      ['assistant', 'Still here.'],
    ]);
    const newest = (await client.get(`/v1/conversations/${token}?limit=2`)).json() as Page;
    expect(newest.data).toEqual(res.json().data);
  });

  it('answers a failed reply with the user message and the error it stored', async () => {
    const conversation = await makeConversation(server.ctx, app);
    useModel([[{ type: 'throw', error: new Error('boom') }]]);
    const res = await client.post(`/v1/conversations/${conversation.token}`, { content: 'Fail, please' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { role: string }) => m.role)).toEqual(['user', 'error']);
  });

  it('refuses a malformed cursor or limit with 400', async () => {
    for (const query of [
      'cursor=abc',
      'cursor=0',
      'cursor=-5',
      'cursor=1.5',
      'limit=0',
      'limit=201',
      'limit=x',
    ]) {
      const res = await client.get(`/v1/conversations/${token}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().name, query).toBe('ValidationError');
    }
  });

  it('pages nothing of another conversation: a cursor only bounds this one', async () => {
    const other = await makeConversation(server.ctx, app);
    const [last] = await listMessages(server.ctx.db, vendor.id, conversationId).then((all) => all.slice(-1));
    const page = (await client.get(`/v1/conversations/${other.token}?cursor=${last!.id + 1}`)).json() as Page;
    expect(page).toMatchObject({ data: [], next_cursor: null });
  });
});

describe('the default model resolver', () => {
  it("answers through the models module's provider layer (built-in offline model) and records usage", async () => {
    // A server of its own: the suite's answers with scripted models.
    const plain = await createTestServer();
    try {
      const { vendor: owner, client: signedIn } = await signedInVendor(plain, 'member');
      const [demo] = await plain.ctx.db
        .insert(schema.vendorModels)
        .values({
          vendorId: owner.id,
          modelKey: 'builtin-offline-demo',
          name: 'Offline demo',
          type: 'chat_completion',
          provider: 'builtin',
        })
        .returning();
      const demoApp = await makeChatApp(plain.ctx, owner, { model: demo! });
      const conversation = await makeConversation(plain.ctx, demoApp);
      const res = await signedIn.post(`/v1/conversations/${conversation.token}`, { content: 'Hello there' });
      expect(res.statusCode).toBe(200);
      const roles = res.json().data.map((m: { role: string }) => m.role);
      expect(roles).toEqual(['user', 'assistant']);
      expect(res.json().data[1].message.length).toBeGreaterThan(0);
      const usage = await plain.ctx.db
        .select()
        .from(schema.usageRecords)
        .where(eq(schema.usageRecords.conversationId, conversation.id));
      expect(usage).toHaveLength(1);
      expect(usage[0]!.tokensPrompt).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
  });
});

describe('GET /v1/conversations', () => {
  it('lists an app’s conversations newest first, 20 per page, with message counts', async () => {
    const listed = await makeChatApp(server.ctx, vendor, { model });
    const elsewhere = await makeChatApp(server.ctx, vendor, { model });
    await makeConversation(server.ctx, elsewhere);
    const made = [];
    for (let i = 0; i < 22; i++) made.push(await makeConversation(server.ctx, listed));
    useModel([[text('reply'), finish()]]);
    await client.post(`/v1/conversations/${made[21]!.token}`, { content: 'hi' });

    const url = `/v1/conversations?vendor_app_id=${listed.id}&page=0&page_size=20&order=id&order_dir=desc`;
    const page0 = (await client.get(url)).json();
    expect(page0.total_count).toBe(22);
    expect(page0.filter_count).toBe(22);
    expect(page0.data.map((c: { id: number }) => c.id)).toEqual(
      made
        .slice(2)
        .reverse()
        .map((c) => c.id),
    );
    expect(page0.data[0]).toEqual({
      id: made[21]!.id,
      token: made[21]!.token,
      created_at: made[21]!.createdAt.toISOString(),
      vendor_app_id: listed.id,
      channel: 'management',
      message_count: 2,
    });
    expect(page0.data[1].message_count).toBe(0);
    const page1 = (await client.get(`/v1/conversations?vendor_app_id=${listed.id}&page=1`)).json();
    expect(page1.data.map((c: { id: number }) => c.id)).toEqual([made[1]!.id, made[0]!.id]);
    const asc = (
      await client.get(`/v1/conversations?vendor_app_id=${listed.id}&order_dir=asc&page_size=2`)
    ).json();
    expect(asc.data.map((c: { id: number }) => c.id)).toEqual([made[0]!.id, made[1]!.id]);
  });

  it("answers 404 for another vendor's app and never lists another vendor's conversations", async () => {
    const foreign = await makeChatApp(server.ctx, other);
    const theirs = await makeConversation(server.ctx, foreign);
    const res = await client.get(`/v1/conversations?vendor_app_id=${foreign.id}`);
    expect(res.statusCode).toBe(404);
    const all = (await client.get('/v1/conversations?page_size=100')).json();
    expect(all.data.map((c: { token: string }) => c.token)).not.toContain(theirs.token);
    const mine = (await otherClient.get('/v1/conversations')).json();
    expect(mine.data.map((c: { token: string }) => c.token)).toEqual([theirs.token]);
    const bad = await client.get('/v1/conversations?order=token');
    expect(bad.statusCode).toBe(400);
  });
});
