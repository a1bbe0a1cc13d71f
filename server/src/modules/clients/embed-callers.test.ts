/** Web embeds on the conversation calls (`X-EmbedToken`), with embed rows written directly. */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../platform/crypto';
import { schema } from '../../platform/db';
import {
  type Client,
  createTestServer,
  makeVendor,
  signedInVendor,
  type TestServer,
} from '../../test/harness';
import type { AppRow } from '../completion/repo';
import { finish, makeChatApp, makeVendorModel, ScriptedModel, text } from '../completion/testing';
import type { VendorRow } from '../vendors/repo';

let server: TestServer;
let vendor: VendorRow;
let owner: Client;
let app: AppRow;
let secondApp: AppRow;

beforeAll(async () => {
  server = await createTestServer({
    engine: {
      resolveModel: () =>
        new ScriptedModel(Array.from({ length: 20 }, () => [text('Widget '), text('reply'), finish()])),
    },
  });
  ({ vendor, client: owner } = await signedInVendor(server, 'member'));
  const model = await makeVendorModel(server.ctx, vendor);
  app = await makeChatApp(server.ctx, vendor, { model });
  secondApp = await makeChatApp(server.ctx, vendor, { model });
});
afterAll(async () => {
  await server?.close();
});

async function makeEmbed(opts: { appId?: number; allowedOrigins?: string[]; vendorId?: number } = {}) {
  const [row] = await server.ctx.db
    .insert(schema.embeds)
    .values({
      vendorId: opts.vendorId ?? vendor.id,
      vendorAppId: opts.appId ?? app.id,
      name: 'Site widget',
      token: randomToken(32),
      allowedOrigins: opts.allowedOrigins ?? [],
    })
    .returning();
  return row!;
}

function asEmbed(token: string, method: 'GET' | 'POST', url: string, payload?: object, origin?: string) {
  return server.app.inject({
    method,
    url,
    headers: { 'x-embedtoken': token, ...(origin ? { origin } : {}) },
    ...(payload ? { payload } : {}),
  });
}

const open = (token: string, appId = app.id, origin?: string, channel = 'embed') =>
  asEmbed(token, 'POST', '/v1/conversations', { vendor_app_id: appId, vendor_channel: channel }, origin);

describe('X-EmbedToken on the conversation calls', () => {
  it('opens a conversation on its app (channel embed, embed_id), reads it and sends to it', async () => {
    const embed = await makeEmbed();
    const created = await open(embed.token);
    expect(created.statusCode, created.body).toBe(201);
    const token = created.json().data.token;
    expect(created.json().data).toMatchObject({ channel: 'embed', vendor_app_id: app.id });
    const [row] = await server.ctx.db
      .select()
      .from(schema.conversations)
      .where(eq(schema.conversations.token, token));
    expect(row).toMatchObject({ embedId: embed.id, clientId: null, createdBy: null });
    const sent = await asEmbed(embed.token, 'POST', `/v1/conversations/${token}`, { content: 'Hi' });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.at(-1)).toMatchObject({ role: 'assistant', message: 'Widget reply' });
    expect((await asEmbed(embed.token, 'GET', `/v1/conversations/${token}`)).statusCode).toBe(200);
    const history = await owner.get(`/v1/conversations?vendor_app_id=${app.id}`);
    expect(history.json().data).toContainEqual(expect.objectContaining({ token, channel: 'embed' }));
  });

  it('reaches only its app, channel embed, and the conversations it opened', async () => {
    const embed = await makeEmbed();
    const sibling = await makeEmbed();
    const mine = (await open(embed.token)).json().data.token;
    const theirs = (await open(sibling.token)).json().data.token;
    const consoles = (
      await owner.post('/v1/conversations', { vendor_app_id: app.id, vendor_channel: 'management' })
    ).json().data.token;
    const before = await server.ctx.db.select().from(schema.conversations);
    const messagesBefore = (await server.ctx.db.select().from(schema.messages)).length;
    expect((await open(embed.token, secondApp.id)).statusCode).toBe(404);
    const wrongChannel = await open(embed.token, app.id, undefined, 'api');
    expect(wrongChannel.statusCode).toBe(400);
    expect(wrongChannel.json().errors.vendor_channel).toMatch(/embed/);
    for (const token of [theirs, consoles]) {
      expect((await asEmbed(embed.token, 'GET', `/v1/conversations/${token}`)).statusCode).toBe(404);
      const send = await asEmbed(embed.token, 'POST', `/v1/conversations/${token}`, { content: 'x' });
      expect(send.statusCode).toBe(404);
    }
    expect(await server.ctx.db.select().from(schema.conversations)).toEqual(before);
    expect((await server.ctx.db.select().from(schema.messages)).length).toBe(messagesBefore);
    expect((await asEmbed(embed.token, 'GET', `/v1/conversations/${mine}`)).statusCode).toBe(200);
    // Not the console's list.
    expect((await asEmbed(embed.token, 'GET', `/v1/conversations?vendor_app_id=${app.id}`)).statusCode).toBe(
      401,
    );
  });

  it('refuses unknown and malformed tokens with 401', async () => {
    for (const token of [randomToken(32), 'short', '']) {
      const res = await open(token);
      expect(res.statusCode, token).toBe(401);
      expect(res.json()).toMatchObject({ name: 'Unauthorized', message: 'Invalid embed token.' });
    }
  });

  it('with allowed origins: the listed origins only (same origin however spelt), else 403 with a clear message', async () => {
    const embed = await makeEmbed({ allowedOrigins: ['https://shop.example', 'http://localhost:8080'] });
    const before = (await server.ctx.db.select().from(schema.conversations)).length;
    for (const origin of ['https://evil.example', 'http://shop.example', 'https://shop.example.evil.com']) {
      const res = await open(embed.token, app.id, origin);
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({
        name: 'Forbidden',
        message: `This embed may not be used from ${origin}: that origin is not among its allowed origins.`,
      });
    }
    const noOrigin = await open(embed.token);
    expect(noOrigin.statusCode).toBe(403);
    expect(noOrigin.json().message).toMatch(/named no Origin/);
    expect((await server.ctx.db.select().from(schema.conversations)).length).toBe(before);
    expect((await open(embed.token, app.id, 'https://shop.example')).statusCode).toBe(201);
    expect((await open(embed.token, app.id, 'https://SHOP.example:443')).statusCode).toBe(201);
    expect((await open(embed.token, app.id, 'http://localhost:8080')).statusCode).toBe(201);
  });

  it('without allowed origins: any page', async () => {
    const embed = await makeEmbed();
    expect((await open(embed.token, app.id, 'https://anywhere.example')).statusCode).toBe(201);
  });

  it("refuses an embed of an inactive vendor's app", async () => {
    const gone = await makeVendor(server.ctx);
    const goneApp = await makeChatApp(server.ctx, gone, { model: await makeVendorModel(server.ctx, gone) });
    const embed = await makeEmbed({ vendorId: gone.id, appId: goneApp.id });
    expect((await open(embed.token, goneApp.id)).statusCode).toBe(201);
    await server.ctx.db.update(schema.vendors).set({ active: false }).where(eq(schema.vendors.id, gone.id));
    expect((await open(embed.token, goneApp.id)).statusCode).toBe(401);
  });
});
