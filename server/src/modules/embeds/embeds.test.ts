/**
 * Web embeds through the API: CRUD with masked tokens, validation that changes nothing, the widget
 * script at /embed/js/{token} (configuration written in, compression, caching, cross-origin loading),
 * CORS of the conversation routes for X-EmbedToken callers, and the relay refusing embed conversations
 * from origins the embed does not allow.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  canonicalOrigin,
  EMBED_CONFIG_NAME,
  EMBED_DEFAULT_APPEARANCE,
  EMBED_ORIGIN_FORMAT,
  EMBED_ORIGIN_REFUSED,
  EMBED_WIDGET_FILE,
  type Embed,
  embedAllowsOrigin,
  maskEmbedToken,
  RELAY_AUTH_REQUIRED,
  type RelayAuth,
} from '@llmor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeApp,
  makeUser,
  signedInVendor,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import type { AppRow } from '../apps/repo';
import { UNKNOWN_CONVERSATION } from '../conversations/relay';
import type { VendorRow } from '../vendors/repo';
import { negotiateEncoding } from './widget';

let server: ListeningTestServer;
let vendor: VendorRow;
let owner: Client;
let member: Client;
let app: AppRow;
let base: string;
const webDist = mkdtempSync(join(tmpdir(), 'llmor-embed-'));
/** A stand-in for the built widget: it reads its configuration by name, as the real one does. */
const WIDGET = `window.__embed = ${EMBED_CONFIG_NAME};`;

const SHOP = 'https://shop.example';

async function create(body: Record<string, unknown>): Promise<Embed> {
  const res = await owner.post(base, body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const embedCount = async () => (await server.ctx.db.select().from(schema.embeds)).length;

beforeAll(async () => {
  mkdirSync(join(webDist, 'embed'));
  writeFileSync(join(webDist, EMBED_WIDGET_FILE), WIDGET);
  server = await createListeningTestServer({ env: { WEB_DIST: webDist } });
  ({ vendor, client: owner } = await signedInVendor(server));
  const memberUser = await makeUser(server.ctx, { vendors: [vendor], role: 'member' });
  member = await Client.signedIn(server.app, memberUser.email, memberUser.password);
  app = await makeApp(server.ctx, vendor, { name: 'Shop assistant' });
  base = `/v1/vendors/${vendor.id}/apps/${app.id}/embed`;
});
afterAll(async () => {
  await server?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('origins', () => {
  it('are canonical scheme://host[:port] and nothing else', () => {
    expect(canonicalOrigin('HTTPS://Shop.Example:443/')).toBe('https://shop.example');
    expect(canonicalOrigin('http://localhost:8080')).toBe('http://localhost:8080');
    expect(canonicalOrigin('http://[::1]:3000')).toBe('http://[::1]:3000');
    for (const bad of [
      'shop.example',
      'ftp://shop.example',
      'https://shop.example/path',
      'https://a@shop.example',
      'https://shop.example?x=1',
      'null',
      '',
    ])
      expect(canonicalOrigin(bad), bad).toBeNull();
  });

  it('an empty list allows any page; otherwise only the listed origins', () => {
    expect(embedAllowsOrigin([], undefined)).toBe(true);
    expect(embedAllowsOrigin([SHOP], SHOP)).toBe(true);
    expect(embedAllowsOrigin([SHOP], 'https://SHOP.example')).toBe(true);
    expect(embedAllowsOrigin([SHOP], 'https://evil.example')).toBe(false);
    expect(embedAllowsOrigin([SHOP], undefined)).toBe(false);
    expect(embedAllowsOrigin([SHOP], 'null')).toBe(false);
  });
});

describe('embed CRUD', () => {
  it('creates with a 256-bit token answered once; lists and GET mask it; /code reveals it on demand', async () => {
    const created = await create({ name: 'Shop widget', allowed_origins: ['https://Shop.Example/'] });
    expect(created.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(created).toMatchObject({
      name: 'Shop widget',
      vendor_id: vendor.id,
      vendor_app_id: app.id,
      vendor_client_id: null,
      allowed_origins: [SHOP],
      appearance: EMBED_DEFAULT_APPEARANCE,
      modified_at: null,
    });
    expect(created.created_by).toBeGreaterThan(0);
    const masked = maskEmbedToken(created.token);
    expect(masked).toBe(`${created.token.slice(0, 4)}…${created.token.slice(-4)}`);

    const one = await owner.get(`${base}/${created.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json().data.token).toBe(masked);
    const list = await owner.get(base);
    expect(list.json().data.find((e: Embed) => e.id === created.id).token).toBe(masked);
    expect(list.body).not.toContain(created.token);

    const code = await owner.get(`${base}/${created.id}/code`);
    expect(code.json().data).toEqual({
      token: created.token,
      script_url: `${server.ctx.publicUrl}/embed/js/${created.token}`,
    });
    // Two embeds never share a token.
    const other = await create({ name: 'Other' });
    expect(other.token).not.toBe(created.token);
  });

  it('updates name, origins and look; deletes; unknown ids answer 404', async () => {
    const e = await create({ name: 'To change' });
    const res = await owner.put(`${base}/${e.id}`, {
      name: '  Changed  ',
      allowed_origins: ['http://localhost:8080', 'http://localhost:8080/'],
      appearance: {
        title: 'Ask us',
        color: '#112233',
        welcome_text: 'Hi **there**',
        position: 'bottom-left',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      name: 'Changed',
      allowed_origins: ['http://localhost:8080'],
      appearance: {
        title: 'Ask us',
        color: '#112233',
        welcome_text: 'Hi **there**',
        position: 'bottom-left',
      },
      token: maskEmbedToken((await owner.get(`${base}/${e.id}/code`)).json().data.token),
    });
    expect(res.json().data.modified_at).not.toBeNull();
    // A partial update keeps the rest.
    const renamed = await owner.put(`${base}/${e.id}`, { name: 'Renamed' });
    expect(renamed.json().data).toMatchObject({
      name: 'Renamed',
      allowed_origins: ['http://localhost:8080'],
    });

    expect((await owner.delete(`${base}/${e.id}`)).statusCode).toBe(204);
    for (const url of [`${base}/${e.id}`, `${base}/${e.id}/code`]) {
      const gone = await owner.get(url);
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe('Embed not found');
    }
    expect((await owner.put(`${base}/${e.id}`, { name: 'x' })).statusCode).toBe(404);
    expect((await owner.delete(`${base}/${e.id}`)).statusCode).toBe(404);
    expect((await owner.get(`${base}/abc`)).statusCode).toBe(404);
    expect((await owner.get(`/v1/vendors/${vendor.id}/apps/999999/embed`)).json().message).toBe(
      'App not found',
    );
    expect((await owner.post(`/v1/vendors/${vendor.id}/apps/999999/embed`, { name: 'x' })).statusCode).toBe(
      404,
    );
  });

  it("another app's embed is not found through this app", async () => {
    const otherApp = await makeApp(server.ctx, vendor);
    const e = await create({ name: 'Mine' });
    const wrong = `/v1/vendors/${vendor.id}/apps/${otherApp.id}/embed/${e.id}`;
    expect((await owner.get(wrong)).statusCode).toBe(404);
    expect((await owner.put(wrong, { name: 'moved' })).statusCode).toBe(404);
    expect((await owner.delete(wrong)).statusCode).toBe(404);
    expect((await owner.get(`${base}/${e.id}`)).json().data.name).toBe('Mine');
  });

  it('sorts by name and created_at, pages, and members may use it (no role checks, docs/reference/rules.md)', async () => {
    const sortApp = await makeApp(server.ctx, vendor);
    const url = `/v1/vendors/${vendor.id}/apps/${sortApp.id}/embed`;
    for (const name of ['beta', 'Alpha', 'gamma'])
      expect((await member.post(url, { name })).statusCode).toBe(201);
    const names = async (q: string) =>
      (await member.get(q ? `${url}?${q}` : url)).json().data.map((e: Embed) => e.name);
    expect(await names('order=name&order_dir=asc')).toEqual(['Alpha', 'beta', 'gamma']);
    expect(await names('order=name&order_dir=desc')).toEqual(['gamma', 'beta', 'Alpha']);
    expect(await names('')).toEqual(['gamma', 'Alpha', 'beta']); // newest first by default
    expect(await names('order=created_at&order_dir=asc')).toEqual(['beta', 'Alpha', 'gamma']);
    const page = (await member.get(`${url}?page=1&page_size=2&order=name&order_dir=asc`)).json();
    expect(page).toMatchObject({ total_count: 3, filter_count: 3 });
    expect(page.data.map((e: Embed) => e.name)).toEqual(['gamma']);
    expect((await member.get(`${url}?order=token`)).statusCode).toBe(400);
  });

  it('refuses bad input with field errors and changes nothing', async () => {
    const e = await create({ name: 'Stays' });
    const before = await embedCount();
    const cases: [Record<string, unknown> | string, string][] = [
      [{}, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 42 }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'ok', allowed_origins: 'https://shop.example' }, 'allowed_origins'],
      [{ name: 'ok', allowed_origins: ['https://shop.example/path'] }, 'allowed_origins.0'],
      [{ name: 'ok', allowed_origins: [SHOP, 'shop.example'] }, 'allowed_origins.1'],
      [{ name: 'ok', allowed_origins: [7] }, 'allowed_origins.0'],
      [{ name: 'ok', appearance: { color: 'blue' } }, 'appearance.color'],
      [{ name: 'ok', appearance: { position: 'top-left' } }, 'appearance.position'],
      [{ name: 'ok', appearance: { title: 'x'.repeat(61) } }, 'appearance.title'],
      [{ name: 'ok', appearance: 'dark' }, 'appearance'],
    ];
    for (const [body, field] of cases) {
      const answers = [await owner.post(base, body)];
      // A PUT may leave the name out; every other bad field it refuses like the POST.
      if (typeof body === 'string' || 'name' in body || field !== 'name')
        answers.push(await owner.put(`${base}/${e.id}`, body));
      for (const res of answers) {
        expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(400);
        expect(Object.keys(res.json().errors), JSON.stringify(body)).toContain(field);
      }
    }
    const origin = await owner.post(base, { name: 'ok', allowed_origins: ['nope'] });
    expect(origin.json().errors['allowed_origins.0']).toBe(EMBED_ORIGIN_FORMAT);
    const malformed = await owner.request({
      method: 'POST',
      url: base,
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(await embedCount()).toBe(before);
    expect((await owner.get(`${base}/${e.id}`)).json().data.name).toBe('Stays');
  });
});

describe('GET /embed/js/{token}', () => {
  it('serves the widget with its configuration, loadable from any origin, cached and revalidated', async () => {
    const e = await create({
      name: 'Script',
      appearance: {
        title: '</script><b>',
        color: '#00aa00',
        welcome_text: 'Line\u2028two',
        position: 'bottom-left',
      },
    });
    const res = await server.app.inject({ method: 'GET', url: `/embed/js/${e.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    expect(res.headers.vary).toBe('accept-encoding');
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).not.toContain('</script>');
    expect(res.body).not.toContain('\u2028');
    // The configuration is a JavaScript literal the widget reads as an object.
    const config = new Function('window', `${res.body}; return window.__embed;`)({});
    expect(config).toEqual({
      token: e.token,
      app_id: app.id,
      title: '</script><b>',
      color: '#00aa00',
      welcome_text: 'Line\u2028two',
      position: 'bottom-left',
    });

    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await server.app.inject({
      method: 'GET',
      url: `/embed/js/${e.token}`,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    // A changed look is a new version.
    await owner.put(`${base}/${e.id}`, { appearance: { title: 'New' } });
    const changed = await server.app.inject({
      method: 'GET',
      url: `/embed/js/${e.token}`,
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('"title":"New"');
  });

  it("takes the app's name as title when the embed has none", async () => {
    const e = await create({ name: 'Untitled' });
    const res = await server.app.inject({ method: 'GET', url: `/embed/js/${e.token}` });
    expect(res.body).toContain('"title":"Shop assistant"');
  });

  it('compresses with brotli or gzip as the client accepts', async () => {
    const e = await create({ name: 'Compressed' });
    const plain = (await server.app.inject({ method: 'GET', url: `/embed/js/${e.token}` })).body;
    const br = await server.app.inject({
      method: 'GET',
      url: `/embed/js/${e.token}`,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain);
    const gz = await server.app.inject({
      method: 'GET',
      url: `/embed/js/${e.token}`,
      headers: { 'accept-encoding': 'gzip;q=1, br;q=0' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain);
    expect(negotiateEncoding(undefined)).toBe('identity');
    expect(negotiateEncoding('identity')).toBe('identity');
    expect(negotiateEncoding('BR')).toBe('br');
  });

  it('answers 404 text, not JavaScript, for unknown, malformed and deleted tokens', async () => {
    const e = await create({ name: 'Deleted' });
    await owner.delete(`${base}/${e.id}`);
    for (const token of [e.token, 'x'.repeat(43), 'not a token', '..%2F..%2Fetc']) {
      const res = await server.app.inject({ method: 'GET', url: `/embed/js/${encodeURIComponent(token)}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.body).toBe('Unknown embed.');
    }
  });

  it('the console keeps its own headers: same-origin resources and a CSP', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
  });
});

/** A conversation opened through an embed (as the widget's POST /v1/conversations would). */
async function embedConversation(embed: Embed): Promise<string> {
  const token = `conv${embed.id}${'x'.repeat(24)}`;
  await server.ctx.db.insert(schema.conversations).values({
    vendorId: vendor.id,
    appId: app.id,
    token,
    channel: 'embed',
    parameters: {},
    embedId: embed.id,
  });
  return token;
}

const preflight = (url: string, origin: string, headers = 'content-type,x-embedtoken') =>
  server.app.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });

describe('CORS for the widget', () => {
  it('answers preflights of the conversation routes asking for X-EmbedToken', async () => {
    const e = await create({ name: 'Cors', allowed_origins: [SHOP] });
    const conversation = await embedConversation(e);

    const open = await preflight('/v1/conversations', 'https://anywhere.example');
    expect(open.statusCode).toBe(204);
    expect(open.headers['access-control-allow-origin']).toBe('https://anywhere.example');
    expect(open.headers['access-control-allow-headers']).toBe('content-type, x-embedtoken, x-relay-socket');
    expect(open.headers['access-control-allow-methods']).toBe('GET, POST');
    expect(open.headers.vary).toContain('origin');

    const allowed = await preflight(`/v1/conversations/${conversation}`, SHOP);
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(SHOP);

    const refused = await preflight(`/v1/conversations/${conversation}`, 'https://evil.example');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect(refused.json().message).toBe(EMBED_ORIGIN_REFUSED);

    // Not an embed's conversation, not asking for the embed header, or another route: no CORS at all.
    const management = await owner.post('/v1/conversations', {
      vendor_app_id: app.id,
      vendor_channel: 'management',
      parameters: {},
    });
    const managementToken = management.json().data.token;
    for (const res of [
      await preflight(`/v1/conversations/${managementToken}`, SHOP),
      await preflight('/v1/conversations', SHOP, 'content-type,x-accesstoken'),
      await preflight(`/v1/vendors/${vendor.id}/apps`, SHOP),
      await preflight(`${base}`, SHOP),
    ])
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('lets allowed pages read the answers of X-EmbedToken calls, and no one else', async () => {
    const e = await create({ name: 'Cors calls', allowed_origins: [SHOP] });
    const any = await create({ name: 'Any page' });
    const conversation = await embedConversation(e);
    const call = (embedToken: string, origin: string, url = `/v1/conversations/${conversation}`) =>
      server.app.inject({ method: 'GET', url, headers: { origin, 'x-embedtoken': embedToken } });

    expect((await call(e.token, SHOP)).headers['access-control-allow-origin']).toBe(SHOP);
    expect((await call(any.token, 'http://localhost:5000')).headers['access-control-allow-origin']).toBe(
      'http://localhost:5000',
    );
    expect(
      (await call(e.token, 'https://evil.example')).headers['access-control-allow-origin'],
    ).toBeUndefined();
    expect((await call('x'.repeat(43), SHOP)).headers['access-control-allow-origin']).toBeUndefined();
    expect(
      (await call(e.token, SHOP, `/v1/vendors/${vendor.id}/apps`)).headers['access-control-allow-origin'],
    ).toBeUndefined();
  });
});

describe('the widget calls', () => {
  it('opens and reads a conversation from an allowed page; a refused page gets 403 and opens none', async () => {
    const e = await create({ name: 'Widget calls', allowed_origins: [SHOP] });
    const call = (origin: string, method: 'GET' | 'POST', url: string, payload?: object) =>
      server.app.inject({ method, url, payload, headers: { origin, 'x-embedtoken': e.token } });
    const opened = await call(SHOP, 'POST', '/v1/conversations', {
      vendor_app_id: app.id,
      vendor_channel: 'embed',
      parameters: {},
    });
    expect(opened.statusCode, opened.body).toBe(201);
    expect(opened.headers['access-control-allow-origin']).toBe(SHOP);
    const token = opened.json().data.token;
    const read = await call(SHOP, 'GET', `/v1/conversations/${token}`);
    expect(read.statusCode).toBe(200);
    expect(read.json().conversation.channel).toBe('embed');

    const before = (await server.ctx.db.select().from(schema.conversations)).length;
    const refused = await call('https://evil.example', 'POST', '/v1/conversations', {
      vendor_app_id: app.id,
      vendor_channel: 'embed',
      parameters: {},
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['access-control-allow-origin']).toBeUndefined();
    expect((await call('https://evil.example', 'GET', `/v1/conversations/${token}`)).statusCode).toBe(403);
    expect((await server.ctx.db.select().from(schema.conversations)).length).toBe(before);
  });
});

describe('the relay and embed conversations', () => {
  it('an embed joins its conversations only from the origins it allows; the console as a member', async () => {
    const e = await create({ name: 'Relay', allowed_origins: [SHOP] });
    const conversation = await embedConversation(e);
    const clients: RelayClient[] = [];
    const join = async (auth: RelayAuth, headers: Record<string, string> = {}) => {
      const client = await RelayClient.connect(server.url, auth, headers);
      clients.push(client);
      return client.ask('join', conversation);
    };
    try {
      expect(await join({ embed_token: e.token }, { origin: SHOP })).toEqual({ ok: true });
      expect(await join(owner.relayAuth())).toEqual({ ok: true });
      const refusedOrigin = { ok: false, error: EMBED_ORIGIN_REFUSED };
      expect(await join({ embed_token: e.token }, { origin: 'https://evil.example' })).toEqual(refusedOrigin);
      expect(await join({ embed_token: e.token })).toEqual(refusedOrigin);
      // The conversation token alone admits nobody.
      expect(await join({}, { origin: SHOP })).toEqual({ ok: false, error: RELAY_AUTH_REQUIRED });
      // Another embed of the same vendor did not open it: it reads as unknown.
      const other = await create({ name: 'Relay other', allowed_origins: [SHOP] });
      expect(await join({ embed_token: other.token }, { origin: SHOP })).toEqual({
        ok: false,
        error: UNKNOWN_CONVERSATION,
      });
      // A refused socket is in no room: it hears nothing of the conversation.
      server.ctx.relay.emit(conversation, 'debug', { secret: 1 });
      await clients[0]!.waitForMessage('debug');
      for (const refused of clients.slice(2)) expect(refused.messages()).toEqual([]);

      // An embed that allows any page: any origin joins.
      const open = await embedConversation(await create({ name: 'Relay open' }));
      const openEmbed = (await owner.get(`${base}`)).json().data.find((x: Embed) => x.name === 'Relay open');
      const code = (await owner.get(`${base}/${openEmbed.id}/code`)).json().data.token;
      const anyone = await RelayClient.connect(
        server.url,
        { embed_token: code },
        { origin: 'https://evil.example' },
      );
      clients.push(anyone);
      expect(await anyone.ask('join', open)).toEqual({ ok: true });
    } finally {
      for (const c of clients) c.close();
    }
  });

  it("narrowing an embed's origins or removing it disconnects its visitors at once", async () => {
    const e = await create({ name: 'Revoked', allowed_origins: [SHOP] });
    const conversation = await embedConversation(e);
    const visitor = await RelayClient.connect(server.url, { embed_token: e.token }, { origin: SHOP });
    try {
      expect(await visitor.ask('join', conversation)).toEqual({ ok: true });
      const gone = visitor.disconnected();
      expect(
        (await owner.put(`${base}/${e.id}`, { allowed_origins: ['https://other.example'] })).statusCode,
      ).toBe(200);
      await gone;
      const again = await RelayClient.connect(server.url, { embed_token: e.token }, { origin: SHOP });
      expect(await again.ask('join', conversation)).toEqual({ ok: false, error: EMBED_ORIGIN_REFUSED });
      again.close();
    } finally {
      visitor.close();
    }
  });
});
