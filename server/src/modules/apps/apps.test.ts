import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createTestServer,
  makeApp,
  makeUser,
  makeVendor,
  makeVendorModel,
  type TestServer,
  uniq,
} from '../../test/harness';
import type { VendorRow } from '../vendors/repo';
import { appCatalogue } from './catalogue';
import type { AppRow } from './repo';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
});

const base = (v: { id: number }) => `/v1/vendors/${v.id}/apps`;
const db = () => server.ctx.db;

async function appRows(vendorId: number) {
  return db().select().from(schema.apps).where(eq(schema.apps.vendorId, vendorId)).orderBy(schema.apps.id);
}
async function appRow(id: number) {
  const [row] = await db().select().from(schema.apps).where(eq(schema.apps.id, id));
  return row;
}
async function countAppFunctions(appId: number) {
  const [row] = await db()
    .select({ n: count() })
    .from(schema.appFunctions)
    .where(eq(schema.appFunctions.appId, appId));
  return row!.n;
}
async function setup() {
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  const c = await Client.signedIn(server.app, user.email, user.password);
  return { vendor, user, c };
}
const validation = (errors: unknown) => ({
  name: 'ValidationError',
  message: 'The request is invalid.',
  errors,
});

// ------------------------------------------------------------------------------------------------
describe('GET /v1/vendors/{vendorId}/apps (list)', () => {
  // name, app_key, type, description; created one minute apart in this order. First letters of the
  // names differ so name order does not depend on the database collation.
  const SEED: [string, string, string, string][] = [
    ['Support Bot', 'chatbot', 'chatbot', 'Answers customer questions'],
    ['alpha helper', 'generic', 'generic', ''],
    ['Zeta Summary', 'summarizer', 'oneshot', 'Short summaries'],
    ['Translator DE', 'translator', 'oneshot', 'German output'],
    ['Lua Echo', 'silicon', 'silicon', 'Echoes input'],
    ['Beta Bot', 'chatbot', 'chatbot', 'Another SUPPORT assistant'],
    ['Gamma', 'generic', 'generic', 'percent 100% sure'],
    ['delta script', 'silicon', 'silicon', ''],
    ['Epsilon Chat', 'chatbot', 'chatbot', 'Internal'],
    ['Omega Tool', 'generic', 'generic', 'under_score'],
    ['Kappa Notes', 'summarizer', 'oneshot', ''],
    ['Mu Bot', 'chatbot', 'chatbot', ''],
  ];
  const T0 = Date.UTC(2024, 0, 1, 12, 0, 0);
  let vendor: VendorRow;
  let c: Client;
  let seeded: AppRow[];
  let creatorId: number;
  let orphan: AppRow;

  beforeAll(async () => {
    vendor = await makeVendor(server.ctx);
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    await db()
      .update(schema.users)
      .set({ firstname: 'Ada', lastname: 'Lovelace' })
      .where(eq(schema.users.id, user.id));
    creatorId = user.id;
    c = await Client.signedIn(server.app, user.email, user.password);
    const gone = await makeUser(server.ctx, { vendors: [vendor] });
    seeded = [];
    for (const [i, [name, appKey, type, description]] of SEED.entries()) {
      seeded.push(
        await makeApp(server.ctx, vendor, {
          name,
          appKey,
          type,
          description,
          createdBy: i === 11 ? gone.id : user.id,
          createdAt: new Date(T0 + i * 60_000),
        }),
      );
    }
    orphan = seeded[11]!;
    await db().delete(schema.users).where(eq(schema.users.id, gone.id));
    // Another vendor's apps never appear.
    const other = await makeVendor(server.ctx);
    await makeApp(server.ctx, other, { name: 'Support Elsewhere', appKey: 'chatbot', type: 'chatbot' });
  });

  const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((a) => a.id);
  const byCreated = () => [...seeded].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const idsOf = (rows: AppRow[]) => rows.map((r) => r.id);

  it('answers the list envelope, newest first by default, with the exact app shape', async () => {
    const res = await c.get(`${base(vendor)}?page=0&page_size=100&count=1&locale=en_US`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total_count).toBe(12);
    expect(body.filter_count).toBe(12);
    expect(ids(res)).toEqual(idsOf(byCreated().reverse()));
    const first = seeded[0]!;
    expect(body.data.find((a: { id: number }) => a.id === first.id)).toEqual({
      id: first.id,
      vendor_id: vendor.id,
      name: 'Support Bot',
      description: 'Answers customer questions',
      app_key: 'chatbot',
      type: 'chatbot',
      created_at: '2024-01-01T12:00:00.000Z',
      modified_at: null,
      completion_vendor_model_id: null,
      parameters: {},
      meta: { data: { icon: 'icon:apps', icon_is_standalone: false } },
    });
  });

  it('sorts by each of the six options (ties broken by id in the same direction)', async () => {
    const cmp = (key: (r: AppRow) => string | number) => (a: AppRow, b: AppRow) => {
      const ka = key(a);
      const kb = key(b);
      return ka < kb ? -1 : ka > kb ? 1 : a.id - b.id;
    };
    const cases: [string, AppRow[]][] = [
      ['order=created_at&order_dir=desc', byCreated().reverse()],
      ['order=created_at&order_dir=asc', byCreated()],
      ['order=name&order_dir=asc', [...seeded].sort(cmp((r) => r.name.toLowerCase()))],
      ['order=name&order_dir=desc', [...seeded].sort(cmp((r) => r.name.toLowerCase())).reverse()],
      ['order=app_key&order_dir=asc', [...seeded].sort(cmp((r) => r.appKey))],
      ['order=app_key&order_dir=desc', [...seeded].sort(cmp((r) => r.appKey)).reverse()],
      ['order=name', [...seeded].sort(cmp((r) => r.name.toLowerCase()))],
    ];
    for (const [query, expected] of cases) {
      const res = await c.get(`${base(vendor)}?${query}&page_size=100`);
      expect(res.statusCode, query).toBe(200);
      expect(ids(res), query).toEqual(idsOf(expected));
    }
    // Spot-check the name order literally.
    const names = (await c.get(`${base(vendor)}?order=name&order_dir=asc&page_size=3`)).json().data;
    expect(names.map((a: { name: string }) => a.name)).toEqual(['alpha helper', 'Beta Bot', 'delta script']);
  });

  it('filters by one or several app types; unknown types answer 400', async () => {
    const one = await c.get(`${base(vendor)}?app_type=chatbot&page_size=100&order=created_at&order_dir=asc`);
    expect(ids(one)).toEqual(idsOf(byCreated().filter((r) => r.type === 'chatbot')));
    expect(one.json().filter_count).toBe(4);
    expect(one.json().total_count).toBe(12);

    const two = await c.get(
      `${base(vendor)}?app_type=oneshot,silicon&page_size=100&order=created_at&order_dir=asc`,
    );
    expect(ids(two)).toEqual(idsOf(byCreated().filter((r) => r.type === 'oneshot' || r.type === 'silicon')));
    expect(two.json().filter_count).toBe(5);

    for (const bad of ['foo', 'chatbot,foo', 'CHATBOT']) {
      const res = await c.get(`${base(vendor)}?app_type=${bad}`);
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().name).toBe('ValidationError');
      expect(Object.keys(res.json().errors)).toEqual(['app_type']);
    }
  });

  it('searches name, description and app_key case-insensitively, with % and _ taken literally', async () => {
    const names = async (q: string) =>
      (await c.get(`${base(vendor)}?search=${encodeURIComponent(q)}&order=name&page_size=100`)).json();
    expect((await names('support')).data.map((a: { name: string }) => a.name)).toEqual([
      'Beta Bot',
      'Support Bot',
    ]);
    expect((await names('SUMMAR')).data.map((a: { name: string }) => a.name)).toEqual([
      'Kappa Notes',
      'Zeta Summary',
    ]);
    const silicon = await names('silicon');
    expect(silicon.data.map((a: { name: string }) => a.name)).toEqual(['delta script', 'Lua Echo']);
    expect(silicon.filter_count).toBe(2);
    expect(silicon.total_count).toBe(12);
    expect((await names('%')).data.map((a: { name: string }) => a.name)).toEqual(['Gamma']);
    expect((await names('_')).data.map((a: { name: string }) => a.name)).toEqual(['Omega Tool']);
    expect((await names('nothing-like-this')).data).toEqual([]);
    // 'bot' is in the app_key of every chatbot: all four match.
    expect((await c.get(`${base(vendor)}?search=bot&app_type=chatbot`)).json().filter_count).toBe(4);
    expect((await c.get(`${base(vendor)}?search=bot&app_type=generic`)).json().filter_count).toBe(0);
    expect((await c.get(`${base(vendor)}?search=echo`)).json().filter_count).toBe(1);
    expect((await c.get(`${base(vendor)}?search=echo&app_type=chatbot`)).json()).toEqual({
      data: [],
      total_count: 12,
      filter_count: 0,
    });
  });

  it('pages zero-based; counts do not depend on the page', async () => {
    const all = idsOf(byCreated().reverse());
    const pages = [];
    for (const page of [0, 1, 2, 3]) {
      const res = await c.get(`${base(vendor)}?page=${page}&page_size=5`);
      expect(res.statusCode).toBe(200);
      expect(res.json().total_count).toBe(12);
      expect(res.json().filter_count).toBe(12);
      pages.push(ids(res));
    }
    expect(pages).toEqual([all.slice(0, 5), all.slice(5, 10), all.slice(10, 12), []]);
  });

  it('rejects bad paging and ordering with field errors', async () => {
    for (const [query, field] of [
      ['page=-1', 'page'],
      ['page=x', 'page'],
      ['page_size=0', 'page_size'],
      ['page_size=101', 'page_size'],
      ['order=vendor_id', 'order'],
      ['order_dir=up', 'order_dir'],
      ['count=2', 'count'],
      ['resolve=functions', 'resolve'],
    ] as const) {
      const res = await c.get(`${base(vendor)}?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().errors), query).toEqual([field]);
    }
  });

  it('embeds the creator with resolve=creator (null once the creator is deleted)', async () => {
    const res = await c.get(`${base(vendor)}?resolve=creator&page_size=100`);
    const data = res.json().data as { id: number; creator: unknown }[];
    const first = data.find((a) => a.id === seeded[0]!.id)!;
    const user = (await db().select().from(schema.users).where(eq(schema.users.id, creatorId)))[0]!;
    expect(first.creator).toEqual({
      data: { id: creatorId, firstname: 'Ada', lastname: 'Lovelace', email: user.email },
    });
    expect(data.find((a) => a.id === orphan.id)!.creator).toBeNull();
    const plain = (await c.get(`${base(vendor)}?page_size=1`)).json().data[0];
    expect(Object.hasOwn(plain, 'creator')).toBe(false);
  });
});

// ------------------------------------------------------------------------------------------------
describe('GET /v1/vendors/{vendorId}/apps/available', () => {
  it('lists the catalogue by app_key', async () => {
    const { vendor, c } = await setup();
    const res = await c.get(`${base(vendor)}/available`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        chatbot: {
          name: 'Chatbot',
          description: 'A conversational assistant with a system prompt, a greeting and sample conversation.',
          type: 'chatbot',
          icon: 'icon:message-chatbot',
        },
        generic: {
          name: 'Generic App',
          description: 'A minimal app: a system prompt over the completion model.',
          type: 'generic',
          icon: 'icon:apps',
        },
        silicon: {
          name: 'Silicon Script',
          description: 'An app whose replies are computed by a Lua script.',
          type: 'silicon',
          icon: 'icon:code',
        },
        summarizer: {
          name: 'Summarizer',
          description: 'Summarises a text in a few sentences.',
          type: 'oneshot',
          icon: 'icon:file-text',
        },
        translator: {
          name: 'Translator',
          description: 'Translates a text into the target language.',
          type: 'oneshot',
          icon: 'icon:language',
        },
      },
    });
    expect(Object.keys(res.json().data)).toEqual([
      'chatbot',
      'generic',
      'silicon',
      'summarizer',
      'translator',
    ]);
  });

  it('is vendor-scoped: another vendor answers 404', async () => {
    const { c } = await setup();
    const other = await makeVendor(server.ctx);
    const res = await c.get(`${base(other)}/available`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ name: 'NotFound', message: 'Vendor not found' });
  });
});

// ------------------------------------------------------------------------------------------------
const chatbotDefaults = () => structuredClone(appCatalogue().get('chatbot')!.defaults);

/** Bad values per parameter type: [app_key, parameters, expected errors.parameters]. */
const BAD_PARAMETERS: [string, Record<string, unknown>, Record<string, Record<string, string>>][] = [
  ['chatbot', { temperature: 3 }, { temperature: { value: 'Must be at most 2' } }],
  ['chatbot', { temperature: -0.1 }, { temperature: { value: 'Must be at least 0' } }],
  ['chatbot', { temperature: '0.5' }, { temperature: { value: 'Must be a number' } }],
  ['chatbot', { temperature: null }, { temperature: { value: 'Must be a number' } }],
  ['chatbot', { system_prompt: 42 }, { system_prompt: { value: 'Must be a string' } }],
  [
    'chatbot',
    { system_prompt: 'x'.repeat(20001) },
    { system_prompt: { value: 'Max length is 20000 characters.' } },
  ],
  ['chatbot', { use_datastores: 'yes' }, { use_datastores: { value: 'Must be true or false' } }],
  ['chatbot', { greeting: 'hi' }, { greeting: { value: 'Must be an object of locale to text' } }],
  ['chatbot', { greeting: ['hi'] }, { greeting: { value: 'Must be an object of locale to text' } }],
  ['chatbot', { greeting: { en_US: 'Hi', xx_XX: 'Yo' } }, { greeting: { xx_XX: 'Unknown locale' } }],
  ['chatbot', { greeting: { en_US: 5 } }, { greeting: { en_US: 'Must be a string' } }],
  [
    'chatbot',
    { greeting: { fr_FR: 'x'.repeat(2001) } },
    { greeting: { fr_FR: 'Max length is 2000 characters.' } },
  ],
  [
    'chatbot',
    { sample_conversation: 'hi' },
    { sample_conversation: { value: 'Must be a list of messages' } },
  ],
  [
    'chatbot',
    {
      sample_conversation: [
        { role: 'user', message: 'Hi' },
        { role: 'system', message: 'x' },
        { role: 'assistant', message: 7 },
        'text',
      ],
    },
    {
      sample_conversation: {
        '1': 'Role must be user or assistant',
        '2': 'Message must be a string',
        '3': 'Role must be user or assistant',
      },
    },
  ],
  ['chatbot', { icon: 'no-such-icon-xyz' }, { icon: { value: 'Unknown icon' } }],
  ['chatbot', { icon: 12 }, { icon: { value: 'Unknown icon' } }],
  ['chatbot', { foo: 1 }, { foo: { value: 'Unknown parameter' } }],
  ['chatbot', { header_behaviour: 'x' }, { header_behaviour: { value: 'Unknown parameter' } }],
  [
    'chatbot',
    { temperature: 5, foo: true, use_datastores: 1 },
    {
      temperature: { value: 'Must be at most 2' },
      use_datastores: { value: 'Must be true or false' },
      foo: { value: 'Unknown parameter' },
    },
  ],
  [
    'translator',
    { target_language: 'Klingon' },
    { target_language: { value: 'Must be one of: English, German, Swiss German, French, Italian, Spanish' } },
  ],
  [
    'translator',
    { target_language: 1 },
    { target_language: { value: expect.stringMatching(/^Must be one of/) } },
  ],
  ['silicon', { silicon: 'x'.repeat(65537) }, { silicon: { value: 'Max size is 65536 bytes' } }],
  // 32769 two-byte characters: under 64 Ki characters, over 64 KiB.
  ['silicon', { silicon: 'é'.repeat(32769) }, { silicon: { value: 'Max size is 65536 bytes' } }],
  ['silicon', { silicon: false }, { silicon: { value: 'Must be a string' } }],
  ['summarizer', { prompt_template: { text: 'x' } }, { prompt_template: { value: 'Must be a string' } }],
  ['generic', { temperature: 0.5 }, { temperature: { value: 'Unknown parameter' } }],
];

describe('POST /v1/vendors/{vendorId}/apps (install)', () => {
  it('installs from the manifest: defaults, icon, creator; answers 201 with the app', async () => {
    const { vendor, user, c } = await setup();
    const res = await c.post(base(vendor), { app_key: 'chatbot' });
    expect(res.statusCode).toBe(201);
    const app = res.json().data;
    expect(app).toEqual({
      id: expect.any(Number),
      vendor_id: vendor.id,
      name: 'Chatbot',
      description: 'A conversational assistant with a system prompt, a greeting and sample conversation.',
      app_key: 'chatbot',
      type: 'chatbot',
      created_at: expect.any(String),
      modified_at: null,
      completion_vendor_model_id: null,
      parameters: chatbotDefaults(),
      meta: { data: { icon: 'icon:message-chatbot', icon_is_standalone: false } },
      creator: { data: { id: user.id, firstname: 'Test', lastname: 'User', email: user.email } },
      functions: [],
    });
    expect(Date.now() - Date.parse(app.created_at)).toBeLessThan(60_000);
    const row = await appRow(app.id);
    expect(row!.createdBy).toBe(user.id);
    expect(row!.vendorId).toBe(vendor.id);
    expect(row!.parameters).toEqual(chatbotDefaults());
    // It is listed and readable.
    expect((await c.get(base(vendor))).json().data.map((a: { id: number }) => a.id)).toEqual([app.id]);
    expect((await c.get(`${base(vendor)}/${app.id}`)).json().data.name).toBe('Chatbot');
  });

  it('merges the given parameters over the defaults; the icon parameter becomes the app icon', async () => {
    const { vendor, c } = await setup();
    const res = await c.post(base(vendor), {
      app_key: 'chatbot',
      parameters: {
        temperature: 1.5,
        icon: 'robot',
        sample_conversation: [{ role: 'user', message: 'Hi', x: 1 }],
      },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.parameters).toEqual({
      ...chatbotDefaults(),
      temperature: 1.5,
      icon: 'robot',
      sample_conversation: [{ role: 'user', message: 'Hi' }],
    });
    expect(res.json().data.meta).toEqual({ data: { icon: 'icon:robot', icon_is_standalone: false } });
  });

  it('installs every catalogue app with its defaults', async () => {
    const { vendor, c } = await setup();
    for (const [key, manifest] of appCatalogue()) {
      const res = await c.post(base(vendor), { app_key: key });
      expect(res.statusCode, key).toBe(201);
      expect(res.json().data.type, key).toBe(manifest.type);
      expect(res.json().data.parameters, key).toEqual(manifest.defaults);
    }
    const silicon = (await appRows(vendor.id)).find((r) => r.appKey === 'silicon')!;
    expect((silicon.parameters as { silicon: string }).silicon).toBe(
      'function on_message(ctx)\n  return "You said: " .. ctx.message\nend\n',
    );
  });

  it('rejects an unknown or missing app_key with errors.app_key, storing nothing', async () => {
    const { vendor, c } = await setup();
    for (const [body, message] of [
      [{ app_key: 'nope' }, 'Unknown app'],
      [{ app_key: '' }, 'App key is required'],
      [{}, 'App key is required'],
      [{ app_key: 5 }, 'App key is required'],
    ] as const) {
      const res = await c.post(base(vendor), body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual(validation({ app_key: message }));
    }
    expect(await appRows(vendor.id)).toEqual([]);
  });

  it('rejects bad parameters per type with errors.parameters.<name>.<key>, storing nothing', async () => {
    const { vendor, c } = await setup();
    const [before] = await db().select({ n: count() }).from(schema.apps);
    for (const [appKey, parameters, errors] of BAD_PARAMETERS) {
      const res = await c.post(base(vendor), { app_key: appKey, parameters });
      const label = `${appKey} ${JSON.stringify(parameters).slice(0, 80)}`;
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toEqual(validation({ parameters: errors }));
    }
    for (const parameters of [[], 'x', 3]) {
      const res = await c.post(base(vendor), { app_key: 'chatbot', parameters });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(validation({ parameters: 'Must be an object' }));
    }
    // Keys are named even when they would be special in JavaScript.
    const proto = await c.request({
      method: 'POST',
      url: base(vendor),
      payload: '{"app_key": "chatbot", "parameters": {"__proto__": {"temperature": 9}}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(proto.statusCode).toBe(400);
    expect(proto.body).toBe(
      JSON.stringify(validation({ parameters: JSON.parse('{"__proto__": {"value": "Unknown parameter"}}') })),
    );
    const [after] = await db().select({ n: count() }).from(schema.apps);
    expect(after!.n).toBe(before!.n);
    expect(await appRows(vendor.id)).toEqual([]);
  });

  it('rejects malformed JSON and a non-object body', async () => {
    const { vendor, c } = await setup();
    const res = await c.request({
      method: 'POST',
      url: base(vendor),
      payload: '{"app_key": "chatbot"',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ name: 'BadRequest', message: 'The request body is not valid JSON.' });
    const arr = await c.post(base(vendor), [{ app_key: 'chatbot' }]);
    expect(arr.statusCode).toBe(400);
    expect(Object.keys(arr.json().errors)).toEqual(['_']);
    expect(await appRows(vendor.id)).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------------
describe('GET /v1/vendors/{vendorId}/apps/{appId}', () => {
  it('answers {data: app}; resolve=creator,functions embeds both', async () => {
    const { vendor, user, c } = await setup();
    const app = await makeApp(server.ctx, vendor, { name: 'One', createdBy: user.id });
    const plain = await c.get(`${base(vendor)}/${app.id}`);
    expect(plain.statusCode).toBe(200);
    expect(Object.keys(plain.json())).toEqual(['data']);
    expect(plain.json().data.id).toBe(app.id);
    expect(Object.hasOwn(plain.json().data, 'creator')).toBe(false);
    expect(Object.hasOwn(plain.json().data, 'functions')).toBe(false);

    const both = (await c.get(`${base(vendor)}/${app.id}?resolve=creator,functions`)).json().data;
    expect(both.creator).toEqual({
      data: { id: user.id, firstname: 'Test', lastname: 'User', email: user.email },
    });
    expect(both.functions).toEqual([]);
    expect(
      Object.hasOwn((await c.get(`${base(vendor)}/${app.id}?resolve=functions`)).json().data, 'creator'),
    ).toBe(false);
    const bad = await c.get(`${base(vendor)}/${app.id}?resolve=owner`);
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().errors)).toEqual(['resolve']);
  });

  it('answers 404 for unknown and non-numeric ids', async () => {
    const { vendor, c } = await setup();
    for (const id of ['999999', 'abc', '1.5', '-1', '0', '99999999999']) {
      for (const path of [`${base(vendor)}/${id}`, `${base(vendor)}/${id}/parameters`]) {
        const res = await c.get(path);
        expect(res.statusCode, path).toBe(404);
        expect(res.json(), path).toEqual({ name: 'NotFound', message: 'App not found' });
      }
      const put = await c.put(`${base(vendor)}/${id}`, { name: 'x' });
      expect(put.statusCode, id).toBe(404);
      const del = await c.delete(`${base(vendor)}/${id}`);
      expect(del.statusCode, id).toBe(404);
    }
  });

  it('requires a signed-in user', async () => {
    const { vendor } = await setup();
    const app = await makeApp(server.ctx, vendor);
    const anon = await Client.create(server.app);
    expect((await anon.get(`${base(vendor)}/${app.id}`)).statusCode).toBe(401);
    expect((await anon.get(base(vendor))).statusCode).toBe(401);
    const unsigned = await server.app.inject({ method: 'GET', url: base(vendor) });
    expect(unsigned.statusCode).toBe(401);
  });
});

describe('GET /v1/vendors/{vendorId}/apps/{appId}/parameters', () => {
  it("answers the manifest's definitions", async () => {
    const { vendor, c } = await setup();
    const installed = (await c.post(base(vendor), { app_key: 'chatbot' })).json().data;
    const res = await c.get(`${base(vendor)}/${installed.id}/parameters`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: appCatalogue().get('chatbot')!.parameters });
    expect(res.json().data.map((d: { name: string; type: string }) => `${d.name}:${d.type}`)).toEqual([
      'header_behaviour:visual.header',
      'system_prompt:text',
      'temperature:number',
      'use_datastores:switch',
      'datastores:text',
      'top_k:number',
      'icon:select.icon',
      'header_conversation:visual.header',
      'greeting:text.localized',
      'sample_conversation:conversation',
    ]);
  });

  it('answers an empty list for an app whose manifest left the catalogue (parameters stay free-form)', async () => {
    const { vendor, c } = await setup();
    const legacy = await makeApp(server.ctx, vendor, { appKey: 'legacy_app', parameters: { a: 1 } });
    expect((await c.get(`${base(vendor)}/${legacy.id}/parameters`)).json()).toEqual({ data: [] });
    const res = await c.put(`${base(vendor)}/${legacy.id}`, { name: 'Legacy', parameters: { b: [1] } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.parameters).toEqual({ b: [1] });
  });
});

// ------------------------------------------------------------------------------------------------
describe('PUT /v1/vendors/{vendorId}/apps/{appId}', () => {
  const model = (vendorId: number, type: 'chat_completion' | 'embedding') =>
    makeVendorModel(server.ctx, { id: vendorId }, { type });

  async function installed(c: Client, vendor: VendorRow, appKey = 'chatbot') {
    const res = await c.post(base(vendor), { app_key: appKey });
    expect(res.statusCode).toBe(201);
    return res.json().data as {
      id: number;
      parameters: Record<string, unknown>;
      completion_vendor_model_id: number | null;
    };
  }

  it('saves name (trimmed), description and parameters; missing keys take the default; sets modified_at', async () => {
    const { vendor, c } = await setup();
    const app = await installed(c, vendor);
    const res = await c.put(`${base(vendor)}/${app.id}`, {
      id: app.id,
      app_key: 'ignored',
      name: '  Support  ',
      description: 'Helps customers',
      parameters: {
        temperature: 0,
        icon: 'robot',
        greeting: { en_US: 'Hi', gsw_CH: 'Hoi' },
        sample_conversation: [
          { role: 'user', message: 'Hello' },
          { role: 'assistant', message: 'Hi there' },
        ],
        use_datastores: true,
      },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.name).toBe('Support');
    expect(data.description).toBe('Helps customers');
    expect(data.app_key).toBe('chatbot');
    expect(data.parameters).toEqual({
      system_prompt: chatbotDefaults().system_prompt,
      temperature: 0,
      icon: 'robot',
      greeting: { en_US: 'Hi', gsw_CH: 'Hoi' },
      sample_conversation: [
        { role: 'user', message: 'Hello' },
        { role: 'assistant', message: 'Hi there' },
      ],
      use_datastores: true,
      datastores: '',
      top_k: 4,
    });
    expect(data.meta).toEqual({ data: { icon: 'icon:robot', icon_is_standalone: false } });
    expect(Date.now() - Date.parse(data.modified_at)).toBeLessThan(60_000);
    expect(data.creator.data.id).toEqual(expect.any(Number));
    const row = await appRow(app.id);
    expect(row!.name).toBe('Support');
    expect(row!.parameters).toEqual(data.parameters);

    // Omitted optional fields stay as they are.
    const again = await c.put(`${base(vendor)}/${app.id}`, { name: 'Renamed' });
    expect(again.statusCode).toBe(200);
    expect(again.json().data.description).toBe('Helps customers');
    expect(again.json().data.parameters).toEqual(data.parameters);
    // A cleared icon falls back to the manifest's.
    const cleared = await c.put(`${base(vendor)}/${app.id}`, { name: 'Renamed', parameters: { icon: null } });
    expect(cleared.json().data.meta.data.icon).toBe('icon:message-chatbot');
  });

  it('accepts null for a select with a placeholder', async () => {
    const { vendor, c } = await setup();
    const app = await installed(c, vendor, 'translator');
    const res = await c.put(`${base(vendor)}/${app.id}`, {
      name: 'T',
      parameters: { target_language: null },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.parameters.target_language).toBeNull();
    const ok = await c.put(`${base(vendor)}/${app.id}`, {
      name: 'T',
      parameters: { target_language: 'French' },
    });
    expect(ok.json().data.parameters.target_language).toBe('French');
  });

  it('rejects bad parameter values per type with the documented keys; the app is unchanged', async () => {
    const { vendor, c } = await setup();
    const apps: Record<string, number> = {};
    for (const key of ['chatbot', 'translator', 'silicon', 'summarizer', 'generic']) {
      apps[key] = (await installed(c, vendor, key)).id;
    }
    const before = await appRows(vendor.id);
    for (const [appKey, parameters, errors] of BAD_PARAMETERS) {
      const res = await c.put(`${base(vendor)}/${apps[appKey]}`, { name: 'Changed', parameters });
      const label = `${appKey} ${JSON.stringify(parameters).slice(0, 80)}`;
      expect(res.statusCode, label).toBe(400);
      expect(res.json(), label).toEqual(validation({ parameters: errors }));
    }
    const notObject = await c.put(`${base(vendor)}/${apps.chatbot}`, { name: 'Changed', parameters: [1] });
    expect(notObject.json()).toEqual(validation({ parameters: 'Must be an object' }));
    expect(await appRows(vendor.id)).toEqual(before);
  });

  it('validates name and description', async () => {
    const { vendor, c } = await setup();
    const app = await installed(c, vendor);
    const before = await appRow(app.id);
    for (const [body, errors] of [
      [{}, { name: 'Name is required' }],
      [{ name: '   ' }, { name: 'Name is required' }],
      [{ name: null }, { name: 'Name is required' }],
      [{ name: 'x'.repeat(201) }, { name: 'Max length is 200 characters.' }],
      [{ name: 'ok', description: 'x'.repeat(2001) }, { description: 'Max length is 2000 characters.' }],
      [{ name: 'ok', description: 5 }, { description: 'Must be a string' }],
    ] as const) {
      const res = await c.put(`${base(vendor)}/${app.id}`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(res.json()).toEqual(validation(errors));
    }
    expect((await c.put(`${base(vendor)}/${app.id}`, { name: 'x'.repeat(200) })).statusCode).toBe(200);
    await c.put(`${base(vendor)}/${app.id}`, { name: before!.name });
  });

  it("starts a newly installed app on the vendor's first chat model, never an embedding or another vendor's", async () => {
    const { vendor, c } = await setup();
    const other = await makeVendor(server.ctx);
    await model(other.id, 'chat_completion');
    await model(vendor.id, 'embedding');
    expect((await installed(c, vendor)).completion_vendor_model_id).toBeNull();
    const first = await model(vendor.id, 'chat_completion');
    await model(vendor.id, 'chat_completion');
    expect((await installed(c, vendor)).completion_vendor_model_id).toBe(first.id);
  });

  it("accepts only one of the vendor's own chat_completion models as completion model", async () => {
    const { vendor, c } = await setup();
    const other = await makeVendor(server.ctx);
    const mine = await model(vendor.id, 'chat_completion');
    const embedding = await model(vendor.id, 'embedding');
    const theirs = await model(other.id, 'chat_completion');
    const app = await installed(c, vendor);

    const ok = await c.put(`${base(vendor)}/${app.id}`, { name: 'A', completion_vendor_model_id: mine.id });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.completion_vendor_model_id).toBe(mine.id);

    for (const id of [theirs.id, embedding.id, 999999]) {
      const res = await c.put(`${base(vendor)}/${app.id}`, { name: 'B', completion_vendor_model_id: id });
      expect(res.statusCode, String(id)).toBe(400);
      expect(res.json()).toEqual(
        validation({ completion_vendor_model_id: 'Must be one of your chat completion models' }),
      );
    }
    for (const id of ['1', 1.5, 0, -3, {}]) {
      const res = await c.put(`${base(vendor)}/${app.id}`, { name: 'B', completion_vendor_model_id: id });
      expect(res.statusCode, JSON.stringify(id)).toBe(400);
      expect(res.json()).toEqual(validation({ completion_vendor_model_id: 'Must be a model id or null' }));
    }
    const row = await appRow(app.id);
    expect(row!.name).toBe('A');
    expect(row!.completionVendorModelId).toBe(mine.id);

    const cleared = await c.put(`${base(vendor)}/${app.id}`, { name: 'A', completion_vendor_model_id: null });
    expect(cleared.json().data.completion_vendor_model_id).toBeNull();
  });

  it('reports every problem at once and changes nothing', async () => {
    const { vendor, c } = await setup();
    const app = await installed(c, vendor);
    const before = await appRow(app.id);
    const res = await c.put(`${base(vendor)}/${app.id}`, {
      name: 'New',
      completion_vendor_model_id: 999999,
      parameters: { temperature: 9 },
    });
    expect(res.json()).toEqual(
      validation({
        parameters: { temperature: { value: 'Must be at most 2' } },
        completion_vendor_model_id: 'Must be one of your chat completion models',
      }),
    );
    expect(await appRow(app.id)).toEqual(before);
  });

  it('installs functions of this vendor with their config, in order; rejects others', async () => {
    const { vendor, c } = await setup();
    const other = await makeVendor(server.ctx);
    const app = await installed(c, vendor);
    const sibling = await installed(c, vendor, 'generic');
    const fn = (vendorId: number, extra: Partial<typeof schema.functions.$inferInsert> = {}) =>
      db()
        .insert(schema.functions)
        .values({ vendorId, name: 'Weather', functionKey: uniq('fn_'), description: 'd', ...extra })
        .returning()
        .then((r) => r[0]!);
    const f1 = await fn(vendor.id, { argumentSchema: { type: 'object' }, configSchema: { type: 'object' } });
    const f2 = await fn(vendor.id);
    const specific = await fn(vendor.id, { specificAppId: app.id });
    const siblings = await fn(vendor.id, { specificAppId: sibling.id });
    const foreign = await fn(other.id);

    const res = await c.put(`${base(vendor)}/${app.id}`, {
      name: 'With functions',
      functions: [{ id: f2.id, config: { units: 'C' } }, { id: f1.id }, { id: specific.id, name: 'ignored' }],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.functions).toEqual([
      {
        id: f2.id,
        name: 'Weather',
        function_key: f2.functionKey,
        description: 'd',
        runtime: 'silicon',
        config: { units: 'C' },
        argument_schema: null,
        config_schema: null,
      },
      {
        id: f1.id,
        name: 'Weather',
        function_key: f1.functionKey,
        description: 'd',
        runtime: 'silicon',
        config: {},
        argument_schema: { type: 'object' },
        config_schema: { type: 'object' },
      },
      expect.objectContaining({ id: specific.id, config: {} }),
    ]);
    expect(await countAppFunctions(app.id)).toBe(3);
    // Leaving `functions` out keeps them.
    await c.put(`${base(vendor)}/${app.id}`, { name: 'Still' });
    expect(await countAppFunctions(app.id)).toBe(3);

    const before = await db().select().from(schema.appFunctions).where(eq(schema.appFunctions.appId, app.id));
    const cases: [unknown, unknown][] = [
      [[{ id: foreign.id }], { functions: { functions_data: `Unknown function: ${foreign.id}` } }],
      [[{ id: siblings.id }], { functions: { functions_data: `Unknown function: ${siblings.id}` } }],
      [
        [{ id: f1.id }, { id: 999999 }, { id: foreign.id }],
        { functions: { functions_data: `Unknown function: 999999, ${foreign.id}` } },
      ],
      [[{ id: f1.id }, { id: f1.id }], { functions: { functions_data: `Listed more than once: ${f1.id}` } }],
      ['x', { functions: { functions_data: 'Must be a list of functions' } }],
      [[{ id: 'abc' }], { functions: { functions_data: 'Item 1: Must be a function id' } }],
      [[{ id: f1.id, config: [] }], { function_config: { [String(f1.id)]: 'Must be an object' } }],
      [
        [
          { id: f1.id, config: 'x' },
          { id: f2.id, config: 3 },
        ],
        { function_config: { [String(f1.id)]: 'Must be an object', [String(f2.id)]: 'Must be an object' } },
      ],
    ];
    for (const [functions, errors] of cases) {
      const res = await c.put(`${base(vendor)}/${app.id}`, { name: 'Changed', functions });
      expect(res.statusCode, JSON.stringify(functions)).toBe(400);
      expect(res.json(), JSON.stringify(functions)).toEqual(validation(errors));
    }
    expect(
      await db().select().from(schema.appFunctions).where(eq(schema.appFunctions.appId, app.id)),
    ).toEqual(before);
    expect((await appRow(app.id))!.name).toBe('Still');

    const none = await c.put(`${base(vendor)}/${app.id}`, { name: 'None', functions: [] });
    expect(none.json().data.functions).toEqual([]);
    expect(await countAppFunctions(app.id)).toBe(0);
  });

  it('rejects malformed JSON and oversize bodies, changing nothing', async () => {
    const { vendor, c } = await setup();
    const app = await installed(c, vendor);
    const before = await appRow(app.id);
    const bad = await c.request({
      method: 'PUT',
      url: `${base(vendor)}/${app.id}`,
      payload: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ name: 'BadRequest', message: 'The request body is not valid JSON.' });
    const huge = await c.put(`${base(vendor)}/${app.id}`, {
      name: 'Huge',
      parameters: { system_prompt: 'x'.repeat(1024 * 1024 + 10) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().name).toBe('PayloadTooLarge');
    expect(await appRow(app.id)).toEqual(before);
  });
});

// ------------------------------------------------------------------------------------------------
describe('DELETE /v1/vendors/{vendorId}/apps/{appId}', () => {
  it('deletes the app and what hangs off it (204), then answers 404', async () => {
    const { vendor, c } = await setup();
    const app = (await c.post(base(vendor), { app_key: 'generic' })).json().data;
    const keep = (await c.post(base(vendor), { app_key: 'generic' })).json().data;
    const [fn] = await db()
      .insert(schema.functions)
      .values({ vendorId: vendor.id, name: 'F', functionKey: uniq('f_') })
      .returning();
    await c.put(`${base(vendor)}/${app.id}`, { name: 'X', functions: [{ id: fn!.id }] });
    expect(await countAppFunctions(app.id)).toBe(1);

    const res = await c.delete(`${base(vendor)}/${app.id}`);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await appRow(app.id)).toBeUndefined();
    expect(await countAppFunctions(app.id)).toBe(0);
    expect((await c.get(`${base(vendor)}/${app.id}`)).statusCode).toBe(404);
    expect((await c.delete(`${base(vendor)}/${app.id}`)).statusCode).toBe(404);
    expect((await c.get(base(vendor))).json().data.map((a: { id: number }) => a.id)).toEqual([keep.id]);
    // The function itself stays.
    const fns = await db()
      .select()
      .from(schema.functions)
      .where(and(eq(schema.functions.vendorId, vendor.id), eq(schema.functions.id, fn!.id)));
    expect(fns).toHaveLength(1);
  });
});

// ------------------------------------------------------------------------------------------------
describe('tenancy', () => {
  it("answers 404 for another vendor's app on every call and leaves it unchanged", async () => {
    const { vendor, c } = await setup();
    const other = await makeVendor(server.ctx);
    const theirs = await makeApp(server.ctx, other, {
      appKey: 'chatbot',
      type: 'chatbot',
      name: 'Theirs',
      parameters: chatbotDefaults(),
    });
    const before = await appRow(theirs.id);

    const viaMine = `${base(vendor)}/${theirs.id}`;
    for (const res of [
      await c.get(viaMine),
      await c.get(`${viaMine}?resolve=creator,functions`),
      await c.get(`${viaMine}/parameters`),
      await c.put(viaMine, { name: 'Hijacked' }),
      await c.put(viaMine, { name: 'Hijacked', parameters: { temperature: 9 } }),
      await c.delete(viaMine),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'App not found' });
    }
    const viaTheirs = `${base(other)}/${theirs.id}`;
    for (const res of [
      await c.get(viaTheirs),
      await c.get(`${viaTheirs}/parameters`),
      await c.put(viaTheirs, { name: 'Hijacked' }),
      await c.delete(viaTheirs),
      await c.get(base(other)),
      await c.post(base(other), { app_key: 'chatbot' }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'Vendor not found' });
    }
    expect(await appRow(theirs.id)).toEqual(before);
    expect(await appRows(other.id)).toHaveLength(1);
    expect((await c.get(base(vendor))).json()).toEqual({ data: [], total_count: 0, filter_count: 0 });
  });

  it('lets a superuser act in any vendor', async () => {
    const other = await makeVendor(server.ctx);
    const theirs = await makeApp(server.ctx, other, { name: 'Theirs' });
    const su = await makeUser(server.ctx, { isSu: true });
    const c = await Client.signedIn(server.app, su.email, su.password);
    const res = await c.get(`${base(other)}/${theirs.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data.name).toBe('Theirs');
  });
});
