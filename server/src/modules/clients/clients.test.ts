import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../platform/crypto';
import { schema } from '../../platform/db';
import { Client, createTestServer, makeUser, makeVendor, type TestServer } from '../../test/harness';
import type { AppRow } from '../completion/repo';
import { finish, makeChatApp, makeVendorModel, ScriptedModel, text } from '../completion/testing';
import type { VendorRow } from '../vendors/repo';

let server: TestServer;
let vendor: VendorRow;
let other: VendorRow;
let owner: Client;
let stranger: Client;
let app: AppRow;
let secondApp: AppRow;
let base: string;

/** Every reply answers "Hi there" (the text does not matter here, only who may ask). */
const answerEveryReply = () =>
  new ScriptedModel(Array.from({ length: 50 }, () => [text('Hi '), text('there'), finish()]));

beforeAll(async () => {
  server = await createTestServer({ engine: { resolveModel: answerEveryReply } });
  vendor = await makeVendor(server.ctx);
  other = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  const outsider = await makeUser(server.ctx, { vendors: [other] });
  owner = await Client.signedIn(server.app, user.email, user.password);
  owner.vendorKey = vendor.key;
  stranger = await Client.signedIn(server.app, outsider.email, outsider.password);
  stranger.vendorKey = other.key;
  const model = await makeVendorModel(server.ctx, vendor);
  app = await makeChatApp(server.ctx, vendor, { model, parameters: { greeting: 'Hello from the app' } });
  secondApp = await makeChatApp(server.ctx, vendor, { model });
  base = `/v1/vendors/${vendor.id}/apps/${app.id}/clients`;
});
afterAll(async () => {
  await server?.close();
});

async function createClient(body: Record<string, unknown> = {}, url = base) {
  const res = await owner.post(url, { name: 'Backend', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; full_token: string; token: string };
}

const clientRow = async (id: number) =>
  (await server.ctx.db.select().from(schema.clients).where(eq(schema.clients.id, id)))[0]!;

/** A call as an API client: no session, the token and the vendor key in headers. */
function asClient(
  token: string,
  method: 'GET' | 'POST',
  url: string,
  payload?: object,
  vendorKey = vendor.key,
) {
  return server.app.inject({
    method,
    url,
    headers: { 'x-vendortoken': token, ...(vendorKey === null ? {} : { 'x-vendor': vendorKey }) },
    ...(payload ? { payload } : {}),
  });
}

const openConversation = (token: string, appId = app.id, channel = 'api') =>
  asClient(token, 'POST', '/v1/conversations', { vendor_app_id: appId, vendor_channel: channel });

describe('clients API', () => {
  it('creates a client: the full token once (llmor_ + 256 bits), stored only as its hash and last 8 characters', async () => {
    const res = await owner.post(base, {
      name: '  Backend  ',
      request_rate_limit: 10,
      request_rate_interval: 60,
    });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.full_token).toMatch(/^llmor_[A-Za-z0-9_-]{43}$/);
    expect(data).toMatchObject({
      vendor_id: vendor.id,
      vendor_app_id: app.id,
      active: true,
      name: 'Backend',
      token: data.full_token.slice(-8),
      last_used: null,
      requets_count: 0,
      request_rate_limit: 10,
      request_rate_interval: 60,
      modified_at: null,
    });
    const row = await clientRow(data.id);
    expect(row.tokenHash).toBe(sha256Hex(data.full_token));
    expect(row.tokenTail).toBe(data.full_token.slice(-8));
    expect(JSON.stringify(await server.ctx.db.select().from(schema.clients))).not.toContain(data.full_token);

    const got = await owner.get(`${base}/${data.id}`);
    expect(got.statusCode).toBe(200);
    expect(got.json().data.token).toBe(data.full_token.slice(-8));
    expect(got.body).not.toContain(data.full_token);
    expect(got.json().data.full_token).toBeUndefined();
  });

  it('issues a different token each time', async () => {
    const a = await createClient();
    const b = await createClient();
    expect(a.full_token).not.toBe(b.full_token);
  });

  it('updates name, active and rate limit; answers modified_at', async () => {
    const c = await createClient();
    const res = await owner.put(`${base}/${c.id}`, {
      name: 'Renamed',
      active: false,
      request_rate_limit: 5,
      request_rate_interval: 10,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Renamed',
      active: false,
      request_rate_limit: 5,
      request_rate_interval: 10,
      token: c.token,
    });
    expect(res.json().data.modified_at).toEqual(expect.any(String));
    const cleared = await owner.put(`${base}/${c.id}`, { name: 'Renamed', active: true });
    expect(cleared.json().data).toMatchObject({
      active: true,
      request_rate_limit: null,
      request_rate_interval: null,
    });
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const c = await createClient({ name: 'Keep me' });
    const before = JSON.stringify(await server.ctx.db.select().from(schema.clients));
    const cases: [unknown, Record<string, unknown>][] = [
      [{}, { name: 'Required' }],
      [{ name: '   ' }, { name: 'Required' }],
      [{ name: 'x', active: 'yes' }, { active: 'Must be true or false' }],
      [{ name: 'x', request_rate_limit: 5 }, { request_rate_interval: expect.stringMatching(/both/) }],
      [{ name: 'x', request_rate_interval: 5 }, { request_rate_limit: expect.stringMatching(/both/) }],
      [{ name: 'x', request_rate_limit: 0, request_rate_interval: 5 }, { request_rate_limit: 'At least 1' }],
      [
        { name: 'x', request_rate_limit: 1.5, request_rate_interval: 5 },
        { request_rate_limit: expect.any(String) },
      ],
      [
        { name: 'x', request_rate_limit: 1, request_rate_interval: 86_401 },
        { request_rate_interval: expect.any(String) },
      ],
      [['name'], {}],
    ];
    for (const [body, errors] of cases) {
      for (const res of [await owner.post(base, body), await owner.put(`${base}/${c.id}`, body)]) {
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errors, JSON.stringify(body)).toMatchObject(errors);
      }
    }
    const malformed = await owner.request({
      method: 'POST',
      url: base,
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toMatch(/not valid JSON/);
    expect(JSON.stringify(await server.ctx.db.select().from(schema.clients))).toBe(before);
  });

  it('answers 404 for unknown ids, another app, another vendor, and changes nothing', async () => {
    const c = await createClient();
    const before = JSON.stringify(await server.ctx.db.select().from(schema.clients));
    const otherAppBase = `/v1/vendors/${vendor.id}/apps/${secondApp.id}/clients`;
    for (const url of [`${base}/999999`, `${base}/abc`, `${otherAppBase}/${c.id}`]) {
      expect((await owner.get(url)).statusCode, url).toBe(404);
      expect((await owner.put(url, { name: 'x' })).statusCode, url).toBe(404);
    }
    expect((await owner.get(`/v1/vendors/${vendor.id}/apps/999999/clients`)).statusCode).toBe(404);
    expect((await owner.post(`/v1/vendors/${vendor.id}/apps/999999/clients`, { name: 'x' })).statusCode).toBe(
      404,
    );
    for (const url of [base, `${base}/${c.id}`, `/v1/vendors/${other.id}/apps/${app.id}/clients/${c.id}`]) {
      expect((await stranger.get(url)).statusCode, url).toBe(404);
    }
    expect(JSON.stringify(await server.ctx.db.select().from(schema.clients))).toBe(before);
  });

  it('lists newest first by default, sorts by last_used (never used last), requets_count and created_at, pages', async () => {
    const listBase = `/v1/vendors/${vendor.id}/apps/${secondApp.id}/clients`;
    const a = await createClient({ name: 'A' }, listBase);
    const b = await createClient({ name: 'B' }, listBase);
    const c = await createClient({ name: 'C' }, listBase);
    // b used twice, then a once (a is the most recently used).
    await openConversation(b.full_token, secondApp.id);
    await openConversation(b.full_token, secondApp.id);
    await new Promise((r) => setTimeout(r, 5));
    await openConversation(a.full_token, secondApp.id);
    const ids = async (query: string) => {
      const res = await owner.get(`${listBase}${query}`);
      expect(res.statusCode, query).toBe(200);
      return res.json();
    };
    expect((await ids('')).data.map((x: { id: number }) => x.id)).toEqual([c.id, b.id, a.id]);
    expect((await ids('?order=created_at&order_dir=asc')).data.map((x: { id: number }) => x.id)).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    expect((await ids('?order=last_used&order_dir=desc')).data.map((x: { id: number }) => x.id)).toEqual([
      a.id,
      b.id,
      c.id,
    ]);
    expect((await ids('?order=last_used&order_dir=asc')).data.map((x: { id: number }) => x.id)).toEqual([
      b.id,
      a.id,
      c.id,
    ]);
    expect((await ids('?order=requets_count&order_dir=desc')).data.map((x: { id: number }) => x.id)).toEqual([
      b.id,
      a.id,
      c.id,
    ]);
    const page = await ids('?page=1&page_size=2');
    expect(page).toMatchObject({ total_count: 3, filter_count: 3 });
    expect(page.data.map((x: { id: number }) => x.id)).toEqual([a.id]);
    expect((await owner.get(`${listBase}?order=name`)).statusCode).toBe(400);
  });
});

describe('API client on the conversation calls (X-VendorToken + X-Vendor)', () => {
  it('opens a conversation on its own app (channel api, client_id), reads it and sends to it', async () => {
    const c = await createClient();
    const created = await openConversation(c.full_token);
    expect(created.statusCode, created.body).toBe(201);
    const conversation = created.json().data;
    expect(conversation).toMatchObject({ vendor_app_id: app.id, channel: 'api' });
    expect(conversation.messages.map((m: { message: string }) => m.message)).toEqual(['Hello from the app']);
    const [row] = await server.ctx.db
      .select()
      .from(schema.conversations)
      .where(eq(schema.conversations.token, conversation.token));
    expect(row).toMatchObject({ clientId: c.id, embedId: null, createdBy: null, channel: 'api' });

    const sent = await asClient(c.full_token, 'POST', `/v1/conversations/${conversation.token}`, {
      content: 'Hi?',
    });
    expect(sent.statusCode, sent.body).toBe(200);
    // The send answers the messages it added (docs/adr/0026-messages-contract.md); the read, all of them.
    expect(sent.json().data.map((m: { role: string; message: string }) => [m.role, m.message])).toEqual([
      ['user', 'Hi?'],
      ['assistant', 'Hi there'],
    ]);
    const read = await asClient(c.full_token, 'GET', `/v1/conversations/${conversation.token}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().data).toHaveLength(3);

    // The console sees it in the app's history, with its channel.
    const history = await owner.get(`/v1/conversations?vendor_app_id=${app.id}`);
    expect(history.json().data).toContainEqual(
      expect.objectContaining({ token: conversation.token, channel: 'api', message_count: 3 }),
    );
  });

  it('counts every accepted call (requets_count, last_used) and no refused one', async () => {
    const c = await createClient();
    const startedAt = Date.now();
    const token = (await openConversation(c.full_token)).json().data.token;
    await asClient(c.full_token, 'GET', `/v1/conversations/${token}`);
    await asClient(c.full_token, 'GET', '/v1/conversations/unknown-conversation-token');
    await asClient(c.full_token, 'GET', `/v1/conversations/${token}`, undefined, other.key); // refused: 401
    const row = await clientRow(c.id);
    expect(row.requetsCount).toBe(3);
    expect(row.lastUsed!.getTime()).toBeGreaterThanOrEqual(startedAt - 1000);
    const shown = (await owner.get(`${base}/${c.id}`)).json().data;
    expect(shown).toMatchObject({ requets_count: 3, last_used: row.lastUsed!.toISOString() });
  });

  it('counts concurrent calls exactly', async () => {
    const c = await createClient();
    const token = (await openConversation(c.full_token)).json().data.token;
    await Promise.all(
      Array.from({ length: 20 }, () => asClient(c.full_token, 'GET', `/v1/conversations/${token}`)),
    );
    expect((await clientRow(c.id)).requetsCount).toBe(21);
  });

  it('reaches only its own app and channel api', async () => {
    const c = await createClient();
    const before = await server.ctx.db.select().from(schema.conversations);
    const otherApp = await openConversation(c.full_token, secondApp.id);
    expect(otherApp.statusCode).toBe(404);
    expect(otherApp.json()).toMatchObject({ name: 'NotFound', message: 'App not found' });
    for (const channel of ['management', 'embed', 'slack']) {
      const res = await openConversation(c.full_token, app.id, channel);
      expect(res.statusCode, channel).toBe(400);
      expect(res.json().errors.vendor_channel).toMatch(/api/);
    }
    expect(await server.ctx.db.select().from(schema.conversations)).toEqual(before);
  });

  it("answers 404 for conversations it did not open: the console's, another client's, another vendor's", async () => {
    const c = await createClient();
    const d = await createClient();
    const mine = (await openConversation(c.full_token)).json().data.token;
    const theirs = (await openConversation(d.full_token)).json().data.token;
    const consoles = (
      await owner.post('/v1/conversations', { vendor_app_id: app.id, vendor_channel: 'management' })
    ).json().data.token;
    const otherModel = await makeVendorModel(server.ctx, other);
    const foreignApp = await makeChatApp(server.ctx, other, { model: otherModel });
    const foreign = (
      await stranger.post('/v1/conversations', { vendor_app_id: foreignApp.id, vendor_channel: 'management' })
    ).json().data.token;
    const messagesBefore = (await server.ctx.db.select().from(schema.messages)).length;
    for (const token of [theirs, consoles, foreign]) {
      for (const res of [
        await asClient(c.full_token, 'GET', `/v1/conversations/${token}`),
        await asClient(c.full_token, 'POST', `/v1/conversations/${token}`, { content: 'let me in' }),
      ]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().message).toBe('Conversation not found');
      }
    }
    expect((await server.ctx.db.select().from(schema.messages)).length).toBe(messagesBefore);
    expect((await asClient(c.full_token, 'GET', `/v1/conversations/${mine}`)).statusCode).toBe(200);
    // The console user still reaches the client's conversation (same vendor).
    expect((await owner.get(`/v1/conversations/${mine}`)).statusCode).toBe(200);
  });

  it('refuses unknown, malformed, inactive tokens and a wrong or missing X-Vendor with 401, counting nothing', async () => {
    const c = await createClient();
    const inactive = await createClient();
    await owner.put(`${base}/${inactive.id}`, { name: 'Off', active: false });
    const forged = `llmor_${'A'.repeat(43)}`;
    const cases: [string, string | null, RegExp][] = [
      [forged, vendor.key, /Invalid API client token/],
      ['not-a-token', vendor.key, /Invalid API client token/],
      ['', vendor.key, /Invalid API client token/],
      [inactive.full_token, vendor.key, /inactive/],
      [c.full_token, other.key, /X-Vendor/],
      [c.full_token, null, /X-Vendor/],
    ];
    const conversationsBefore = (await server.ctx.db.select().from(schema.conversations)).length;
    for (const [token, key, message] of cases) {
      const res = await server.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: { 'x-vendortoken': token, ...(key ? { 'x-vendor': key } : {}) },
        payload: { vendor_app_id: app.id, vendor_channel: 'api' },
      });
      expect(res.statusCode, `${token} ${key}`).toBe(401);
      expect(res.json()).toMatchObject({ name: 'Unauthorized', message: expect.stringMatching(message) });
    }
    expect((await server.ctx.db.select().from(schema.conversations)).length).toBe(conversationsBefore);
    expect((await clientRow(c.id)).requetsCount).toBe(0);
    expect((await clientRow(inactive.id)).requetsCount).toBe(0);
    // Deactivating takes effect at once; reactivating restores access.
    await owner.put(`${base}/${c.id}`, { name: 'Off', active: false });
    expect((await openConversation(c.full_token)).statusCode).toBe(401);
    await owner.put(`${base}/${c.id}`, { name: 'On', active: true });
    expect((await openConversation(c.full_token)).statusCode).toBe(201);
  });

  it('may not list conversations (console only)', async () => {
    const c = await createClient();
    const res = await asClient(c.full_token, 'GET', `/v1/conversations?vendor_app_id=${app.id}`);
    expect(res.statusCode).toBe(401);
  });

  it('answers 429 with Retry-After past request_rate_limit per request_rate_interval, counting only accepted calls', async () => {
    const c = await createClient({ request_rate_limit: 3, request_rate_interval: 60 });
    const token = (await openConversation(c.full_token)).json().data.token;
    expect((await asClient(c.full_token, 'GET', `/v1/conversations/${token}`)).statusCode).toBe(200);
    expect((await asClient(c.full_token, 'GET', `/v1/conversations/${token}`)).statusCode).toBe(200);
    const refused = await asClient(c.full_token, 'GET', `/v1/conversations/${token}`);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      name: 'TooManyRequests',
      message: expect.stringMatching(/3 requests per 60 s/),
    });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await clientRow(c.id)).requetsCount).toBe(3);
    // Another client of the same app has its own window.
    const d = await createClient({ request_rate_limit: 3, request_rate_interval: 60 });
    expect((await openConversation(d.full_token)).statusCode).toBe(201);
  });

  it('a changed limit holds at once: relaxed, the old window no longer blocks; a rename keeps the window', async () => {
    const c = await createClient({ request_rate_limit: 1, request_rate_interval: 60 });
    const token = (await openConversation(c.full_token)).json().data.token;
    const read = () => asClient(c.full_token, 'GET', `/v1/conversations/${token}`);
    expect((await read()).statusCode).toBe(429);
    const relaxed = await owner.put(`${base}/${c.id}`, {
      name: 'Backend',
      request_rate_limit: 2,
      request_rate_interval: 60,
    });
    expect(relaxed.statusCode, relaxed.body).toBe(200);
    expect((await read()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(200);
    expect((await read()).statusCode).toBe(429);
    // A rename leaves the window as it is.
    expect(
      (
        await owner.put(`${base}/${c.id}`, {
          name: 'Renamed',
          request_rate_limit: 2,
          request_rate_interval: 60,
        })
      ).statusCode,
    ).toBe(200);
    expect((await read()).statusCode).toBe(429);
  });

  it("is not held to the console's per-user send limit: its own limit governs", async () => {
    server.ctx.config.SEND_RATE_PER_MINUTE = 2;
    try {
      const c = await createClient();
      const token = (await openConversation(c.full_token)).json().data.token;
      for (let i = 0; i < 3; i++) {
        const res = await asClient(c.full_token, 'POST', `/v1/conversations/${token}`, { content: `m${i}` });
        expect(res.statusCode, res.body).toBe(200);
      }
    } finally {
      server.ctx.config.SEND_RATE_PER_MINUTE = 60;
    }
  });

  it('leaves console users exactly as before (a session wins over a token header)', async () => {
    const c = await createClient();
    const res = await owner.request({
      method: 'POST',
      url: '/v1/conversations',
      payload: { vendor_app_id: secondApp.id, vendor_channel: 'management' },
      headers: { 'x-vendortoken': c.full_token },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.channel).toBe('management');
    const noCredentials = await server.app.inject({
      method: 'POST',
      url: '/v1/conversations',
      headers: { 'x-vendor': vendor.key },
      payload: { vendor_app_id: app.id, vendor_channel: 'api' },
    });
    expect(noCredentials.statusCode).toBe(401);
    expect(noCredentials.json().message).toMatch(/X-AccessToken header is missing/);
  });
});
