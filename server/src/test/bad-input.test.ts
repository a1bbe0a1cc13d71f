/**
 * The bad-input matrix (docs/adr/0022): every route declaration with a JSON body, sent JSON nested 10,000
 * deep, a NUL or an unpaired surrogate in a string, or more than its body limit; every path id written as
 * something other than canonical digits; every query and X-Vendor with a NUL; ids of another JSON type in
 * bodies — each answers 4xx (never 500) and the database is unchanged. Also: a failing embedding provider is
 * 502 with its message, and a logged database error carries no parameter values.
 */
import { ErrorName, JSON_MAX_DEPTH, TOO_DEEP_TEXT, UNSTORABLE_TEXT } from '@llmor/contracts';
import { pino, symbols } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertUser } from '../modules/auth/repo';
import { closeSiliconPools } from '../modules/functions/sandbox';
import { startFakeOpenAI } from './fakes';
import {
  Client,
  createTestServer,
  databaseSnapshot,
  makeApp,
  makeUser,
  makeVendor,
  type TestServer,
  uniq,
} from './harness';

let server: TestServer;
let su: Client;
let vendorId = 0;
let appId = 0;
let token = '';

const DEEP = `{"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
// Escapes as a client would send them: JSON.parse turns them into the characters the database cannot store.
const NUL = '{"name":"a\\u0000b","content":"a\\u0000b"}';
const SURROGATE = '{"name":"a\\ud800b","content":"a\\ud800b"}';

/** A path with every `:param` filled: the conversation's token, the vendor, else an id that may not exist. */
const fill = (url: string, replace: (name: string) => string | undefined = () => undefined) =>
  url.replace(/:(\w+)/g, (_all, name: string) => {
    const replaced = replace(name);
    if (replaced !== undefined) return replaced;
    if (name === 'token') return token;
    return String(name === 'vendorId' ? vendorId : 1);
  });

beforeAll(async () => {
  server = await createTestServer();
  const vendor = await makeVendor(server.ctx);
  vendorId = vendor.id;
  const user = await makeUser(server.ctx, { isSu: true, vendors: [vendor], role: 'owner' });
  su = await Client.signedIn(server.app, user.email, user.password);
  su.vendorKey = vendor.key;
  appId = (await makeApp(server.ctx, vendor, { appKey: 'chatbot', type: 'chatbot' })).id;
  const opened = await su.post('/v1/conversations', { vendor_app_id: appId, vendor_channel: 'management' });
  expect(opened.statusCode, opened.body).toBe(201);
  token = opened.json().data.token;
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});

describe('bad input is 4xx, never 500, and stores nothing', () => {
  it('every JSON body: too deep, NUL, unpaired surrogate, too large', async () => {
    const before = await databaseSnapshot(server.ctx);
    const withBody = server.routes.filter((r) => r.body && r.method !== 'GET');
    expect(withBody.length).toBeGreaterThan(30);
    const answers: string[] = [];
    for (const spec of withBody) {
      const url = fill(spec.url);
      const limit = spec.bodyLimit ?? server.app.initialConfig.bodyLimit!;
      const cases = [
        { name: 'deep', payload: DEEP, status: 400, message: TOO_DEEP_TEXT },
        { name: 'nul', payload: NUL, status: 400, message: UNSTORABLE_TEXT },
        { name: 'surrogate', payload: SURROGATE, status: 400, message: UNSTORABLE_TEXT },
        { name: 'oversize', payload: `{"name":"${'a'.repeat(limit)}"}`, status: 413 },
      ];
      for (const c of cases) {
        const res = await su.request({
          method: spec.method,
          url,
          payload: c.payload,
          headers: { 'content-type': 'application/json' },
        });
        answers.push(`${spec.method} ${spec.url} ${c.name} → ${res.statusCode}`);
        // The bearer-only routes refuse the unauthenticated call before reading its body.
        const expected = spec.access.auth === 'bearer' ? 401 : c.status;
        expect(res.statusCode, `${spec.method} ${spec.url} ${c.name}: ${res.body}`).toBe(expected);
        if (c.message && expected === 400 && !spec.errorShape) expect(res.json().message).toBe(c.message);
      }
    }
    expect(answers.length).toBe(withBody.length * 4);
    expect(await databaseSnapshot(server.ctx)).toBe(before);
  });

  it('every path id that is not canonical digits, and a NUL in any path value, is 404', async () => {
    const before = await databaseSnapshot(server.ctx);
    const withParams = server.routes.filter((r) => r.url.includes(':'));
    for (const spec of withParams) {
      const names = [...spec.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      for (const name of names) {
        const bad = name === 'token' ? [`${token}%00`] : ['0x10', '%201', '1e3', '+1', '01', '1.0', '%00'];
        for (const value of bad) {
          const url = fill(spec.url, (n) => (n === name ? value : undefined));
          const res = await su.request({
            method: spec.method,
            url,
            ...(spec.body && spec.method !== 'GET' ? { payload: {} } : {}),
          });
          expect([401, 404], `${spec.method} ${url}: ${res.body}`).toContain(res.statusCode);
          if (spec.access.auth !== 'bearer') expect(res.statusCode, `${spec.method} ${url}`).toBe(404);
        }
      }
    }
    expect(await databaseSnapshot(server.ctx)).toBe(before);
  });

  it('every query and X-Vendor with a NUL is 400', async () => {
    const before = await databaseSnapshot(server.ctx);
    for (const spec of server.routes.filter((r) => r.query)) {
      const res = await su.request({ method: spec.method, url: `${fill(spec.url)}?locale=a%00b` });
      expect(res.statusCode, `${spec.method} ${spec.url}: ${res.body}`).toBe(400);
    }
    const list = await su.request({
      method: 'GET',
      url: '/v1/conversations',
      headers: { 'x-vendor': 'a\u0000' },
    });
    expect(list.statusCode, list.body).toBe(400);
    expect(list.json().errors).toEqual({ 'X-Vendor': UNSTORABLE_TEXT });
    expect(await databaseSnapshot(server.ctx)).toBe(before);
  });

  it('ids of another JSON type are refused, not coerced', async () => {
    const before = await databaseSnapshot(server.ctx);
    for (const id of [true, [appId], String(appId), appId + 0.5, 0, -appId]) {
      const res = await su.post('/v1/conversations', { vendor_app_id: id, vendor_channel: 'management' });
      expect(res.statusCode, JSON.stringify(id)).toBe(400);
      expect(res.json().errors).toHaveProperty('vendor_app_id');
    }
    for (const id of [true, [1], '1']) {
      const res = await su.post(`/v1/vendors/${vendorId}/apps/${appId}/datastores`, {
        name: 'kb',
        embedding_vendor_model_id: id,
      });
      expect(res.statusCode, JSON.stringify(id)).toBe(400);
      expect(res.json().errors).toHaveProperty('embedding_vendor_model_id');
    }
    const paged = await su.get('/v1/conversations?page=0x10');
    expect(paged.statusCode).toBe(400);
    expect(await databaseSnapshot(server.ctx)).toBe(before);
  });

  it('names the field and the limit: parameters nested deeper than the limit, a NUL in a sign-in', async () => {
    let parameters: unknown = 'leaf';
    for (let i = 0; i < JSON_MAX_DEPTH + 1; i++) parameters = { p: parameters };
    const deep = await su.post('/v1/conversations', {
      vendor_app_id: appId,
      vendor_channel: 'management',
      parameters,
    });
    expect(deep.statusCode).toBe(400);
    expect(deep.json()).toMatchObject({ name: ErrorName.ValidationError, message: TOO_DEEP_TEXT });
    expect(Object.keys(deep.json().errors)[0]).toMatch(/^parameters(\.p)+$/);

    const anonymous = await Client.create(server.app);
    const signIn = await anonymous.post('/v1/auth/signin', {
      identifier: 'a\u0000@example.com',
      secret: 'x',
    });
    expect(signIn.statusCode).toBe(400);
    expect(signIn.json()).toMatchObject({ errors: { identifier: UNSTORABLE_TEXT } });
  });
});

describe('provider failures', () => {
  it('a datastore search whose embedding provider fails answers 502 with the provider message', async () => {
    const fake = await startFakeOpenAI();
    try {
      const install = await su.post(`/v1/vendors/${vendorId}/avamodels/openai-compatible-embedding/install`, {
        parameters: { base_url: fake.baseUrl, model: 'fake-embed', dimensions: 8 },
      });
      expect(install.statusCode, install.body).toBe(201);
      const ds = await su.post(`/v1/vendors/${vendorId}/apps/${appId}/datastores`, {
        name: uniq('ds_').toLowerCase(),
        embedding_vendor_model_id: install.json().data.id,
      });
      expect(ds.statusCode, ds.body).toBe(201);
      fake.embeddings({ kind: 'error', status: 503 });
      const res = await su.post(`/v1/datastores/${ds.json().data.id}/search`, { query: 'password', k: 3 });
      expect(res.statusCode, res.body).toBe(502);
      expect(res.json().name).toBe(ErrorName.BadGateway);
      expect(res.json().message).toMatch(
        /^The embedding model could not answer: .*The engine is currently overloaded\./,
      );
      fake.expectNoFailures();
    } finally {
      await fake.close();
    }
  });
});

describe('logs', () => {
  it("a logged database error keeps the statement, not the statement's values", async () => {
    const email = `${uniq('secret')}@example.com`;
    const passwordHash = `scrypt$${uniq('hash')}`;
    const values = { email, passwordHash, firstname: uniq('First'), lastname: uniq('Last'), isSu: false };
    await insertUser(server.ctx.db, values);
    const failure = await insertUser(server.ctx.db, values).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(Error);
    expect(String((failure as Error).message)).toContain(email); // what the driver hands over

    // The app logger's own serializers, writing to a buffer.
    const lines: string[] = [];
    const serializers = (server.app.log as unknown as Record<symbol, pino.LoggerOptions['serializers']>)[
      symbols.serializersSym
    ];
    const logger = pino({ serializers }, { write: (line: string) => lines.push(line) });
    logger.error({ err: failure }, 'request failed');
    const logged = lines.join('');
    expect(JSON.parse(logged).err).toMatchObject({
      type: 'DrizzleQueryError',
      message: expect.stringMatching(/^Failed query: insert into "users" .* values \(default, \$1, \$2/),
      cause: { code: '23505', message: expect.stringContaining('users_email_lower_uq') },
    });
    for (const value of Object.values(values)) {
      if (typeof value === 'string') expect(logged).not.toContain(value);
    }
  });
});
