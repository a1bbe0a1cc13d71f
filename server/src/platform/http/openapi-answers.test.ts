/**
 * The OpenAPI document against real answers: calls across the API — successes as a user makes them, then
 * every operation without credentials, with a body that is not an object, and with ids that name nothing —
 * are answered by the in-process server, and each answer must have its status documented for its
 * operation and a body that the documented schema accepts (ajv). The document cannot drift from what the
 * server answers.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSiliconPools } from '../../modules/functions/sandbox';
import { startFakeOllama } from '../../test/fakes';
import { Client, createTestServer, makeUser, signedInVendor, type TestServer } from '../../test/harness';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Operation {
  requestBody?: unknown;
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
interface Document {
  paths: Record<string, Partial<Record<Lowercase<Method>, Operation>>>;
}

let server: TestServer;
let doc: Document;
let owner: Client;
let superuser: Client;
let bearer: string;
/** Each `{name}` of a documented path, as the owner's resources fill it. */
const ids: Record<string, string | number> = {};
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();
/** `METHOD /path` → the statuses seen and checked. */
const checked = new Map<string, Set<number>>();

/** The path of the documented operation `path` names, filled with `values`. */
const urlOf = (path: string, values: Record<string, string | number>) =>
  path.replace(/\{(\w+)\}/g, (_all, name: string) => {
    if (values[name] === undefined) throw new Error(`no value for {${name}} in ${path}`);
    return encodeURIComponent(String(values[name]));
  });

/** Fails unless `res` is a documented answer of `method path` whose body its schema accepts. */
function expectDocumented(method: Method, path: string, res: LightMyRequestResponse): void {
  const where = `${method} ${path} → ${res.statusCode} ${res.body.slice(0, 300)}`;
  const operation = doc.paths[path]?.[method.toLowerCase() as Lowercase<Method>];
  expect(operation, `${method} ${path} is documented`).toBeDefined();
  const response = operation!.responses[String(res.statusCode)];
  expect(response, `${where}: status documented`).toBeDefined();
  const type = String(res.headers['content-type'] ?? '').split(';')[0]!;
  if (res.body) expect(Object.keys(response!.content ?? {}), `${where}: media type`).toContain(type);
  const schema = response!.content?.['application/json']?.schema;
  if (schema && type === 'application/json') {
    const key = `${method} ${path} ${res.statusCode}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      validators.set(key, validate);
    }
    expect(validate(res.json()), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  }
  const seen = checked.get(`${method} ${path}`) ?? new Set<number>();
  checked.set(`${method} ${path}`, seen.add(res.statusCode));
}

/** Who calls: a console session (signed), an API client's Bearer token, or nobody. */
type Caller = Client | 'bearer' | null;

async function call(
  caller: Caller,
  method: Method,
  path: string,
  opts: { body?: unknown; query?: string; values?: Record<string, string | number> } = {},
): Promise<LightMyRequestResponse> {
  const url = urlOf(path, opts.values ?? ids) + (opts.query ? `?${opts.query}` : '');
  const payload = opts.body === undefined ? {} : { payload: opts.body as object };
  const res =
    caller instanceof Client
      ? await caller.request({ method, url, ...payload })
      : await server.app.inject({
          method,
          url,
          ...payload,
          ...(caller === 'bearer' ? { headers: { authorization: `Bearer ${bearer}` } } : {}),
        });
  expectDocumented(method, path, res);
  return res;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      path,
      method: method.toUpperCase() as Method,
      operation: operation!,
    })),
  );
const callerFor = (path: string) => (path.startsWith('/v1/admin/') ? superuser : owner);

beforeAll(async () => {
  server = await createTestServer();
  doc = (await server.app.inject({ method: 'GET', url: '/v1/openapi.json' })).json() as Document;
  const { vendor, client } = await signedInVendor(server);
  owner = client;
  const su = await makeUser(server.ctx, { isSu: true });
  superuser = await Client.signedIn(server.app, su.email, su.password);
  ids.vendorId = vendor.id;
  ids.userId = (await makeUser(server.ctx, { vendors: [vendor] })).id;
  ids.modelId = 'builtin-offline-demo';
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});

describe('real answers against the OpenAPI document', () => {
  it('matches what a user does across the API, successes first', async () => {
    const created = async (caller: Client, path: string, body: unknown) => {
      const res = await call(caller, 'POST', path, { body });
      expect(res.statusCode, res.body).toBeLessThan(300);
      return res.json().data;
    };
    ids.id = (
      await created(owner, '/v1/vendors/{vendorId}/avamodels/{modelId}/install', { parameters: {} })
    ).id;
    ids.appId = (await created(owner, '/v1/vendors/{vendorId}/apps', { app_key: 'chatbot' })).id;
    const app = (await call(owner, 'GET', '/v1/vendors/{vendorId}/apps/{appId}')).json().data;
    await call(owner, 'PUT', '/v1/vendors/{vendorId}/apps/{appId}', {
      body: { name: app.name, completion_vendor_model_id: ids.id },
    });
    const fn = await created(owner, '/v1/vendors/{vendorId}/functions', {
      name: 'Echo',
      function_key: 'echo',
      code: 'function run(a) return a end',
    });
    ids.functionId = fn.id;
    ids.runId = (
      await created(owner, '/v1/vendors/{vendorId}/functions/{functionId}/build', {
        code: 'function run() return 1 end',
      })
    ).run_id;
    ids.token = (
      await created(owner, '/v1/conversations', {
        vendor_app_id: ids.appId,
        vendor_channel: 'management',
        parameters: {},
      })
    ).token;
    await call(owner, 'POST', '/v1/conversations/{token}', { body: { content: 'Hello' } });
    ids.datastoreId = (
      await created(owner, '/v1/vendors/{vendorId}/apps/{appId}/datastores', { name: 'kb' })
    ).id;
    ids.docId = (
      await created(owner, '/v1/datastores/{datastoreId}/docs/import', {
        mode: 'qa',
        data: [{ Q: 'q', A: 'a' }],
      })
    )[0].id;
    ids.embedId = (await created(owner, '/v1/vendors/{vendorId}/apps/{appId}/embed', { name: 'Widget' })).id;
    const client = await created(owner, '/v1/vendors/{vendorId}/apps/{appId}/clients', { name: 'Backend' });
    ids.clientId = client.id;
    bearer = client.full_token;
    ids.planId = (
      await created(superuser, '/v1/admin/plans', {
        name: 'Pro',
        price_minor: 900,
        currency: 'CHF',
        interval: 'month',
      })
    ).id;
    await created(superuser, '/v1/admin/vendors/{vendorId}/subscriptions', { plan_id: ids.planId });
    ids.model = app.name;

    await call(null, 'POST', '/v1/auth/session');
    await call('bearer', 'GET', '/v1/openai/models');
    await call('bearer', 'GET', '/v1/openai/models/{model}');
    const completion = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };
    await call('bearer', 'POST', '/v1/openai/chat/completions', { body: completion });
    await call('bearer', 'POST', '/v1/openai/responses', { body: { model: 'm', input: 'Hi' } });
    const streamed = await call('bearer', 'POST', '/v1/openai/responses', {
      body: { model: 'm', input: 'Hi', stream: true },
    });
    expect(streamed.headers['content-type']).toMatch(/^text\/event-stream/);
    await call(owner, 'POST', '/v1/datastores/{datastoreId}/search', { body: { query: 'q' } });
    await call(owner, 'GET', '/v1/conversations', { query: `vendor_app_id=${ids.appId}` });
    await call(owner, 'GET', '/v1/vendors/{vendorId}/models/search', { query: 'q=demo' });
    const ollama = await startFakeOllama();
    try {
      const listModels = '/v1/vendors/{vendorId}/avamodels/{modelId}/provider-models';
      ollama.tags(['llama3.1:8b']).tags({ status: 500 });
      const parameters = { base_url: ollama.baseUrl };
      const ollamaChat = { ...ids, modelId: 'ollama-chat' };
      expect(
        (await call(owner, 'POST', listModels, { values: ollamaChat, body: { parameters } })).statusCode,
      ).toBe(200);
      expect(
        (await call(owner, 'POST', listModels, { values: ollamaChat, body: { parameters } })).statusCode,
      ).toBe(502);
      expect((await call(owner, 'POST', listModels, { body: { parameters } })).statusCode).toBe(400);
      expect(ollama.failures).toEqual([]);
    } finally {
      await ollama.close();
    }

    // Every read the owner (or, for /admin, the superuser) can make, with what exists.
    const reads = operations().filter(({ method, path }) => method === 'GET' && !path.includes('/links/'));
    for (const { path } of reads) await call(callerFor(path), 'GET', path);

    const succeeded = [...checked].filter(([, statuses]) => [...statuses].some((s) => s < 300));
    expect(succeeded.length).toBeGreaterThanOrEqual(30);
  });

  it('matches every operation called without credentials', async () => {
    for (const { method, path } of operations()) {
      if (path === '/v1/auth/session') continue; // opens a session: its success is checked above
      const res = await call(null, method, path, { body: method === 'GET' ? undefined : {} });
      expect(res.statusCode, `${method} ${path}`).toBeGreaterThanOrEqual(400);
    }
  });

  it('matches every operation with a body that is not an object, and with ids that name nothing', async () => {
    let refused = 0;
    for (const { method, path, operation } of operations()) {
      if (!operation.requestBody || path === '/v1/billing/stripe/webhook') continue;
      const res = await call(path.startsWith('/v1/openai/') ? 'bearer' : callerFor(path), method, path, {
        body: [1],
      });
      if (res.statusCode === 400) refused += 1;
    }
    expect(refused).toBeGreaterThan(20);

    const unknown = { ...ids, appId: 999_999, functionId: 999_999, datastoreId: 999_999, embedId: 999_999 };
    // Reads and deletes: a call with a body is validated before anything is looked up.
    const named = operations().filter(
      ({ method, path }) =>
        (method === 'GET' || method === 'DELETE') &&
        /\{(appId|functionId|datastoreId|embedId)\}/.test(path) &&
        !path.startsWith('/v1/slack/'),
    );
    for (const { method, path } of named) {
      const res = await call(callerFor(path), method, path, { values: unknown });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
    }
    const tooLarge = await call(owner, 'POST', '/v1/vendors/{vendorId}/apps', {
      body: { app_key: 'x'.repeat(2 * 1024 * 1024) },
    });
    expect(tooLarge.statusCode).toBe(413);
    expect(checked.size).toBe(operations().length);
  });
});
