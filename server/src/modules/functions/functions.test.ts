import { FUNCTION_CODE_MAX_BYTES, FUNCTION_KEY_EXISTS, FUNCTION_KEY_FORMAT } from '@llmor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createTestServer,
  makeApp,
  makeFunction,
  makeUser,
  makeVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import type { VendorRow } from '../vendors/repo';
import { SANDBOX_CALLS_PER_MINUTE } from './routes';
import { closeSiliconPools } from './sandbox';

let server: TestServer;
let vendor: VendorRow;
let other: VendorRow;
let client: Client;
let otherClient: Client;

beforeAll(async () => {
  server = await createTestServer();
  vendor = await makeVendor(server.ctx);
  other = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  const stranger = await makeUser(server.ctx, { vendors: [other] });
  client = await Client.signedIn(server.app, user.email, user.password);
  otherClient = await Client.signedIn(server.app, stranger.email, stranger.password);
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});

const base = () => `/v1/vendors/${vendor.id}/functions`;
const otherBase = () => `/v1/vendors/${other.id}/functions`;

const WEATHER = `schema = {
  arguments = { type = "object", properties = { city = { type = "string" } }, required = { "city" } },
  config = { type = "object", properties = { units = { type = "string", enum = { "C", "F" } } } },
}
function run(args, config)
  print("looking up", args.city)
  return { city = args.city, temp = 21, units = config.units or "C" }
end
`;
const WEATHER_ARGS = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
};
const WEATHER_CONFIG = { type: 'object', properties: { units: { type: 'string', enum: ['C', 'F'] } } };

async function countFunctions(vendorId = vendor.id) {
  return (await server.ctx.db.select().from(schema.functions).where(eq(schema.functions.vendorId, vendorId)))
    .length;
}
async function runsOf(functionId: number) {
  return server.ctx.db
    .select()
    .from(schema.functionRuns)
    .where(eq(schema.functionRuns.functionId, functionId));
}
async function create(body: Record<string, unknown>) {
  const res = await client.post(base(), body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; function_key: string } & Record<string, unknown>;
}

describe('creating and updating functions: validation', () => {
  it('requires name and function_key and changes nothing on bad input', async () => {
    const before = await countFunctions();
    const res = await client.post(base(), { description: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      name: 'ValidationError',
      errors: { name: 'Required', function_key: 'Required' },
    });
    const blank = await client.post(base(), { name: '   ', function_key: '' });
    expect(blank.json().errors).toEqual({ name: 'Required', function_key: 'Required' });
    expect(await countFunctions()).toBe(before);
  });

  it('checks the key format, runtime, types, code size and body shape', async () => {
    const before = await countFunctions();
    const cases: [Record<string, unknown> | unknown[], Record<string, unknown>][] = [
      [{ name: 'A', function_key: 'bad-key' }, { function_key: FUNCTION_KEY_FORMAT }],
      [{ name: 'A', function_key: 'has space' }, { function_key: FUNCTION_KEY_FORMAT }],
      [{ name: 'A', function_key: 'k'.repeat(65) }, { function_key: 'At most 64 characters' }],
      [{ name: 'A', function_key: 'ok_1', runtime: 'python' }, { runtime: 'The only runtime is silicon' }],
      [{ name: 'A', function_key: 'ok_1', is_library: 'yes' }, { is_library: 'Must be true or false' }],
      [{ name: 'A', function_key: 'ok_1', code: 42 }, { code: 'Must be a string' }],
      [
        { name: 'A', function_key: 'ok_1', code: 'x'.repeat(FUNCTION_CODE_MAX_BYTES + 1) },
        { code: 'Must be at most 64 KiB' },
      ],
      // 'é' is two UTF-8 bytes: the limit counts bytes, not characters
      [
        { name: 'A', function_key: 'ok_1', code: 'é'.repeat(FUNCTION_CODE_MAX_BYTES / 2 + 1) },
        { code: 'Must be at most 64 KiB' },
      ],
      [{ name: 'A', function_key: 'ok_1', specific_app_id: 'x' }, { specific_app_id: expect.any(String) }],
      [[1, 2], { _: 'Must be an object' }],
    ];
    for (const [body, errors] of cases) {
      const res = await client.post(base(), body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().errors).toEqual(errors);
    }
    expect(await countFunctions()).toBe(before);
  });

  it('accepts code of exactly 64 KiB', async () => {
    const code = `-- ${'x'.repeat(FUNCTION_CODE_MAX_BYTES - 3)}`;
    expect(Buffer.byteLength(code)).toBe(FUNCTION_CODE_MAX_BYTES);
    const created = await create({ name: 'Big', function_key: uniq('big_'), code });
    expect(created.code).toBe(code);
  });

  it('keeps function keys unique per vendor; another vendor may use the same key', async () => {
    const key = uniq('dup_');
    await create({ name: 'First', function_key: key });
    const before = await countFunctions();
    const again = await client.post(base(), { name: 'Second', function_key: key });
    expect(again.statusCode).toBe(400);
    expect(again.json().errors).toEqual({ function_key: FUNCTION_KEY_EXISTS });
    expect(await countFunctions()).toBe(before);

    const elsewhere = await otherClient.post(otherBase(), { name: 'Theirs', function_key: key });
    expect(elsewhere.statusCode).toBe(201);
    expect(elsewhere.json().data).toMatchObject({ vendor_id: other.id, function_key: key });
  });

  it('only accepts this vendor’s apps as specific_app_id', async () => {
    const theirApp = await makeApp(server.ctx, other);
    const before = await countFunctions();
    const res = await client.post(base(), {
      name: 'A',
      function_key: uniq('k'),
      specific_app_id: theirApp.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ specific_app_id: 'Unknown app' });
    expect(await countFunctions()).toBe(before);

    const mine = await makeApp(server.ctx, vendor);
    const ok = await create({ name: 'A', function_key: uniq('k'), specific_app_id: mine.id });
    expect(ok.specific_app_id).toBe(mine.id);
  });

  it('rejects renaming to another function’s key and leaves the function unchanged', async () => {
    const a = await create({ name: 'A', function_key: uniq('a_') });
    const b = await create({ name: 'B', function_key: uniq('b_') });
    const res = await client.put(`${base()}/${b.id}`, { name: 'B2', function_key: a.function_key });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ function_key: FUNCTION_KEY_EXISTS });
    const after = (await client.get(`${base()}/${b.id}`)).json().data;
    expect(after).toMatchObject({ name: 'B', function_key: b.function_key });
    // keeping its own key is fine
    const same = await client.put(`${base()}/${b.id}`, { name: 'B2', function_key: b.function_key });
    expect(same.statusCode).toBe(200);
    expect(same.json().data.name).toBe('B2');
  });
});

describe('function CRUD', () => {
  it('creates with extracted schemas, reads with code, updates the Details fields and deletes', async () => {
    const key = uniq('weather_');
    const res = await client.post(base(), {
      name: '  Weather  ',
      function_key: key,
      description: 'Looks up the weather',
      runtime: 'silicon',
      is_library: true,
      code: WEATHER,
    });
    expect(res.statusCode).toBe(201);
    const created = res.json();
    expect(created.code_error).toBeUndefined();
    expect(created.data).toEqual({
      id: expect.any(Number),
      vendor_id: vendor.id,
      name: 'Weather',
      description: 'Looks up the weather',
      function_key: key,
      runtime: 'silicon',
      is_library: true,
      specific_app_id: null,
      argument_schema: WEATHER_ARGS,
      config_schema: WEATHER_CONFIG,
      last_run: null,
      run_count: 0,
      run_count_success: 0,
      success_rate: null,
      created_at: expect.any(String),
      modified_at: null,
      code: WEATHER,
    });
    const id = created.data.id;

    const got = await client.get(`${base()}/${id}`);
    expect(got.json()).toEqual({ data: created.data });

    const listed = (await client.get(`${base()}?search=${key}`)).json();
    expect(listed.data).toHaveLength(1);
    expect(listed.data[0]).not.toHaveProperty('code');
    expect(listed.data[0]).toMatchObject({ id, name: 'Weather', argument_schema: WEATHER_ARGS });

    // PUT without code keeps code and schemas; other fields left out keep their values
    const put = await client.put(`${base()}/${id}`, { name: 'Weather 2', function_key: `${key}_2` });
    expect(put.statusCode).toBe(200);
    expect(put.json().data).toMatchObject({
      name: 'Weather 2',
      function_key: `${key}_2`,
      description: 'Looks up the weather',
      is_library: true,
      code: WEATHER,
      argument_schema: WEATHER_ARGS,
      modified_at: expect.any(String),
    });
    const put2 = await client.put(`${base()}/${id}`, {
      name: 'Weather 2',
      function_key: `${key}_2`,
      description: '',
      is_library: false,
      code: 'function run() return 1 end',
    });
    expect(put2.json().data).toMatchObject({
      description: '',
      is_library: false,
      argument_schema: null,
      config_schema: null,
    });

    const del = await client.delete(`${base()}/${id}`);
    expect(del.statusCode).toBe(204);
    expect((await client.get(`${base()}/${id}`)).statusCode).toBe(404);
    expect((await client.delete(`${base()}/${id}`)).statusCode).toBe(404);
  });

  it('deleting a function removes its runs and its app installations', async () => {
    const fn = await makeFunction(server.ctx, vendor);
    const app = await makeApp(server.ctx, vendor);
    await server.ctx.db
      .insert(schema.appFunctions)
      .values({ vendorId: vendor.id, appId: app.id, functionId: fn.id });
    await client.post(`${base()}/${fn.id}/build`, { code: 'function run() return 1 end' });
    expect(await runsOf(fn.id)).toHaveLength(1);
    expect((await client.delete(`${base()}/${fn.id}`)).statusCode).toBe(204);
    expect(await runsOf(fn.id)).toHaveLength(0);
    const installs = await server.ctx.db
      .select()
      .from(schema.appFunctions)
      .where(eq(schema.appFunctions.appId, app.id));
    expect(installs).toEqual([]);
  });

  it('making a function specific to one app uninstalls it from the others', async () => {
    const fn = await makeFunction(server.ctx, vendor);
    const a = await makeApp(server.ctx, vendor);
    const b = await makeApp(server.ctx, vendor);
    await server.ctx.db.insert(schema.appFunctions).values([
      { vendorId: vendor.id, appId: a.id, functionId: fn.id },
      { vendorId: vendor.id, appId: b.id, functionId: fn.id },
    ]);
    const res = await client.put(`${base()}/${fn.id}`, {
      name: fn.name,
      function_key: fn.functionKey,
      specific_app_id: a.id,
    });
    expect(res.statusCode).toBe(200);
    const installs = await server.ctx.db
      .select()
      .from(schema.appFunctions)
      .where(eq(schema.appFunctions.functionId, fn.id));
    expect(installs.map((r) => r.appId)).toEqual([a.id]);
  });
});

describe('saving code', () => {
  it('stores code and schemas; code that does not load is saved but keeps the schemas and says why', async () => {
    const fn = await create({ name: 'Code', function_key: uniq('code_'), code: WEATHER });
    const url = `${base()}/${fn.id}/code`;

    const broken = await client.put(url, { code: 'function run(args)\n  return args.\nend\n' });
    expect(broken.statusCode).toBe(200);
    expect(broken.json().code_error).toEqual({
      status: -2,
      message: expect.stringContaining('near'),
      line: 3,
    });
    expect(broken.json().data).toMatchObject({
      code: 'function run(args)\n  return args.\nend\n',
      argument_schema: WEATHER_ARGS,
      config_schema: WEATHER_CONFIG,
    });

    const failing = await client.put(url, { code: 'local x = nil\nx.y = 1\nfunction run() end' });
    expect(failing.json().code_error).toEqual({
      status: -1,
      message: expect.stringContaining('nil'),
      line: 2,
    });

    const next = `schema = { arguments = { type = "object", properties = { n = { type = "integer" } } } }
function run(args) return args.n * 2 end`;
    const ok = await client.put(url, { code: next });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().code_error).toBeUndefined();
    expect(ok.json().data).toMatchObject({
      code: next,
      argument_schema: { type: 'object', properties: { n: { type: 'integer' } } },
      config_schema: null,
    });
    // the schema load is not a run
    expect(ok.json().data.run_count).toBe(0);
    expect(await runsOf(fn.id)).toHaveLength(0);

    const bad = await client.put(url, { code: 1 });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({ code: 'Must be a string' });
    expect((await client.get(`${base()}/${fn.id}`)).json().data.code).toBe(next);
  });
});

describe('tenancy and ids', () => {
  it('answers 404 for another vendor’s function and its runs, and changes nothing', async () => {
    const fn = await create({ name: 'Mine', function_key: uniq('mine_'), code: WEATHER });
    const build = await client.post(`${base()}/${fn.id}/build`, {
      code: WEATHER,
      arguments: { city: 'Bern' },
    });
    const runId = build.json().data.run_id;

    const theirs = `${otherBase()}/${fn.id}`;
    const attempts = [
      otherClient.get(theirs),
      otherClient.put(theirs, { name: 'Hacked', function_key: 'hacked' }),
      otherClient.put(`${theirs}/code`, { code: 'function run() return "hacked" end' }),
      otherClient.post(`${theirs}/build`, { code: 'function run() end' }),
      otherClient.get(`${theirs}/runs`),
      otherClient.get(`${theirs}/runs/stats`),
      otherClient.get(`${theirs}/runs/${runId}`),
      otherClient.delete(theirs),
      // the other vendor's user through our vendor's path: not a member
      otherClient.get(`${base()}/${fn.id}`),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.statusCode).toBe(404);
    }
    const after = (await client.get(`${base()}/${fn.id}`)).json().data;
    expect(after).toMatchObject({ name: 'Mine', code: WEATHER, run_count: 1 });
    expect(await runsOf(fn.id)).toHaveLength(1);
  });

  it('answers 404 for unknown and non-numeric ids, and for a run of another function', async () => {
    const a = await makeFunction(server.ctx, vendor);
    const b = await makeFunction(server.ctx, vendor);
    const run = (await client.post(`${base()}/${a.id}/build`, { code: 'function run() return 1 end' })).json()
      .data;
    for (const url of [
      `${base()}/abc`,
      `${base()}/1.5`,
      `${base()}/0`,
      `${base()}/999999`,
      `${base()}/abc/runs`,
      `${base()}/${a.id}/runs/abc`,
      `${base()}/${b.id}/runs/${run.run_id}`,
      `${base()}/${a.id}/runs/999999`,
    ]) {
      const res = await client.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().name).toBe('NotFound');
    }
    expect((await client.put(`${base()}/abc`, { name: 'x', function_key: 'x' })).statusCode).toBe(404);
    expect((await client.delete(`${base()}/abc`)).statusCode).toBe(404);
    expect((await client.get(`${base()}/${a.id}/runs/${run.run_id}`)).statusCode).toBe(200);
  });
});

describe('listing functions', () => {
  let v: VendorRow;
  let c: Client;
  let ids: Record<string, number>;
  let appA: number;

  beforeAll(async () => {
    v = await makeVendor(server.ctx);
    const user = await makeUser(server.ctx, { vendors: [v] });
    c = await Client.signedIn(server.app, user.email, user.password);
    const a = await makeApp(server.ctx, v);
    const b = await makeApp(server.ctx, v);
    appA = a.id;
    const mk = (name: string, functionKey: string, extra: Parameters<typeof makeFunction>[2] = {}) =>
      makeFunction(server.ctx, v, { name, functionKey, ...extra });
    const rows = [
      await mk('beta', 'beta_fn', { description: 'Sends mail' }),
      await mk('Alpha', 'alpha_fn', { isLibrary: true }),
      await mk('gamma', 'gamma_fn', { specificAppId: a.id }),
      await mk('Delta', 'delta_fn', { specificAppId: b.id, description: '100% literal_' }),
    ];
    ids = Object.fromEntries(rows.map((r) => [r.functionKey, r.id]));
    // runs: beta 3 (2 ok), gamma 1 (ok), others none
    const counters = [
      { id: ids.beta_fn!, runCount: 3, runCountSuccess: 2, lastRun: new Date('2024-01-02T00:00:00Z') },
      { id: ids.gamma_fn!, runCount: 1, runCountSuccess: 1, lastRun: new Date('2024-03-01T00:00:00Z') },
    ];
    for (const { id, ...set } of counters) {
      await server.ctx.db.update(schema.functions).set(set).where(eq(schema.functions.id, id));
    }
  });

  const keys = async (query: string) => {
    const res = await c.get(`/v1/vendors/${v.id}/functions${query}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    return { keys: body.data.map((f: { function_key: string }) => f.function_key), body };
  };

  it('sorts by name ascending by default and reports counts and success rates', async () => {
    const { keys: k, body } = await keys('');
    expect(k).toEqual(['alpha_fn', 'beta_fn', 'delta_fn', 'gamma_fn']);
    expect(body.total_count).toBe(4);
    expect(body.filter_count).toBe(4);
    const beta = body.data.find((f: { function_key: string }) => f.function_key === 'beta_fn');
    expect(beta).toMatchObject({
      run_count: 3,
      run_count_success: 2,
      success_rate: 67,
      last_run: '2024-01-02T00:00:00.000Z',
    });
    const alpha = body.data.find((f: { function_key: string }) => f.function_key === 'alpha_fn');
    expect(alpha).toMatchObject({ run_count: 0, success_rate: null, last_run: null, is_library: true });
  });

  it('orders by name, run_count and last_run (never run last) in both directions', async () => {
    expect((await keys('?order=name&order_dir=desc')).keys).toEqual([
      'gamma_fn',
      'delta_fn',
      'beta_fn',
      'alpha_fn',
    ]);
    expect((await keys('?order=run_count&order_dir=desc')).keys.slice(0, 2)).toEqual(['beta_fn', 'gamma_fn']);
    expect((await keys('?order=last_run')).keys.slice(0, 2)).toEqual(['beta_fn', 'gamma_fn']);
    const desc = (await keys('?order=last_run&order_dir=desc')).keys;
    expect(desc.slice(0, 2)).toEqual(['gamma_fn', 'beta_fn']);
    expect(desc.slice(2).sort()).toEqual(['alpha_fn', 'delta_fn']);
    expect((await keys('?order=runtime')).keys).toHaveLength(4);
  });

  it('filters by app (shared + specific to it), search, runtime and library flag, and pages', async () => {
    const forApp = await keys(`?app_id=${appA}`);
    expect(forApp.keys).toEqual(['alpha_fn', 'beta_fn', 'gamma_fn']);
    expect(forApp.body.total_count).toBe(4);
    expect(forApp.body.filter_count).toBe(3);

    expect((await keys('?search=MAIL')).keys).toEqual(['beta_fn']);
    expect((await keys('?search=alpha_')).keys).toEqual(['alpha_fn']);
    expect((await keys('?search=100%25')).keys).toEqual(['delta_fn']);
    expect((await keys('?search=%25')).keys).toEqual(['delta_fn']);
    expect((await keys('?runtime=silicon')).keys).toHaveLength(4);
    expect((await keys('?runtime=')).keys).toHaveLength(4);
    expect((await keys('?is_library=1')).keys).toEqual(['alpha_fn']);
    expect((await keys('?is_library=false')).keys).toEqual(['beta_fn', 'delta_fn', 'gamma_fn']);

    const page1 = await keys('?page=1&page_size=3&count=1');
    expect(page1.keys).toEqual(['gamma_fn']);
    expect(page1.body.filter_count).toBe(4);
  });

  it('rejects bad filters with field errors', async () => {
    const theirApp = await makeApp(server.ctx, vendor);
    for (const [query, field] of [
      [`?app_id=${theirApp.id}`, 'app_id'],
      ['?app_id=abc', 'app_id'],
      ['?runtime=python', 'runtime'],
      ['?is_library=maybe', 'is_library'],
      ['?order=code', 'order'],
      ['?page_size=101', 'page_size'],
    ] as const) {
      const res = await c.get(`/v1/vendors/${v.id}/functions${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(Object.keys(res.json().errors)).toEqual([field]);
    }
  });
});

describe('build (the editor’s Run)', () => {
  it('keeps the server answering while a hostile run spins until its time limit', async () => {
    const fn = await create({ name: 'Spin', function_key: uniq('spin_') });
    const url = `${base()}/${fn.id}/build`;
    const started = Date.now();
    let hostileDone = 0;
    const hostile = client
      .post(url, { code: 'function run() while true do pcall(function() while true do end end) end end' })
      .then((res) => {
        hostileDone = Date.now();
        return res;
      });
    // Meanwhile: a health check and another vendor's ordinary run both answer, before the spinning run is
    // stopped (a vendor's own runs wait their turn: it holds at most half the pool, ADR 0021).
    const health = await server.app.inject({ method: 'GET', url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const theirs = await otherClient.post(otherBase(), { name: 'Quick', function_key: uniq('quick_') });
    const quick = await otherClient.post(`${otherBase()}/${theirs.json().data.id}/build`, {
      code: 'function run() return 42 end',
    });
    expect(quick.json().data).toMatchObject({ status: 1, result: 42 });
    const quickDone = Date.now();
    const res = await hostile;
    expect(res.json().data.status).toBe(-3);
    expect(quickDone).toBeLessThan(hostileDone);
    expect(hostileDone - started).toBeGreaterThanOrEqual(900); // the 1 s default limit, not an early answer
  });

  it('runs code with arguments and config, stores each run and counts it', async () => {
    const fn = await create({ name: 'Build', function_key: uniq('build_') });
    const url = `${base()}/${fn.id}/build`;

    const ok = await client.post(url, {
      code: WEATHER,
      arguments: { city: 'Zürich' },
      config: { units: 'F' },
    });
    expect(ok.statusCode).toBe(200);
    const okBody = ok.json();
    expect(okBody).toEqual({
      data: {
        status: 1,
        took: expect.any(Number),
        memory: expect.any(Number),
        result: { city: 'Zürich', temp: 21, units: 'F' },
        console: [{ level: 1, message: 'looking up\tZürich', timestamp: expect.any(Number) }],
        run_id: expect.any(Number),
      },
      argument_schema: WEATHER_ARGS,
      config_schema: WEATHER_CONFIG,
    });
    expect(okBody.data.memory).toBeGreaterThan(0);

    const runtime = await client.post(url, {
      code: 'function run(args)\n  local t = nil\n  return t.x\nend',
    });
    expect(runtime.json()).toMatchObject({
      data: { status: -1, result: null },
      error: { message: expect.stringContaining('attempt to index a nil value'), line: 3 },
    });
    expect(runtime.json().debug).toBeUndefined();

    const syntax = await client.post(url, { code: 'function run()\n  return 1 +\nend' });
    expect(syntax.json()).toMatchObject({ data: { status: -2 }, error: { line: 3 } });

    const loop = await client.post(url, { code: 'function run()\n  while true do end\nend' });
    expect(loop.json()).toMatchObject({
      data: { status: -3, result: null },
      error: { message: expect.any(String) },
    });
    expect(loop.json().data.took).toBeGreaterThanOrEqual(1000);

    const bp = await client.post(url, {
      code: 'function run(args)\n  local t = { a = 1, b = { "x" } }\n  breakpoint(t)\n  return 1\nend',
    });
    expect(bp.json()).toMatchObject({
      data: { status: -6, result: null },
      debug: { breakpoint: 3, string: expect.stringContaining('"a": 1') },
    });
    expect(bp.json().error).toBeUndefined();

    const runs = await runsOf(fn.id);
    expect(runs.map((r) => r.status).sort()).toEqual([-1, -2, -3, -6, 1].sort());
    const stored = runs.find((r) => r.id === okBody.data.run_id)!;
    expect(stored).toMatchObject({
      vendorId: vendor.id,
      conversationId: null,
      status: 1,
      arguments: { city: 'Zürich' },
      config: { units: 'F' },
      result: { city: 'Zürich', temp: 21, units: 'F' },
      error: null,
      debug: null,
    });
    const detail = (await client.get(`${base()}/${fn.id}`)).json().data;
    expect(detail).toMatchObject({
      run_count: 5,
      run_count_success: 1,
      success_rate: 20,
      last_run: expect.any(String),
    });
    // the build ran the given code; the saved code is unchanged
    expect(detail.code).toBe('');
  });

  it('state, clock and relay host functions work in the editor (scratch state)', async () => {
    const fn = await makeFunction(server.ctx, vendor);
    const res = await client.post(`${base()}/${fn.id}/build`, {
      code: `function run()
        state.set({ n = 1 })
        state.patch(json.array({ { op = "add", path = "/m", value = 2 } }))
        relay.emit("custom", { x = 1 })
        return { state = state.get(), now = type(clock.now()), ms = math.type(clock.ms()) }
      end`,
    });
    expect(res.json().data).toMatchObject({
      status: 1,
      result: { state: { n: 1, m: 2 }, now: 'string', ms: 'integer' },
    });
  });

  it('rejects arguments or config that are not JSON objects, storing nothing', async () => {
    const fn = await makeFunction(server.ctx, vendor);
    const url = `${base()}/${fn.id}/build`;
    for (const [body, errors] of [
      [{ code: 'function run() end', arguments: [1] }, { arguments: 'Must be a JSON object' }],
      [{ code: 'function run() end', arguments: 'x' }, { arguments: 'Must be a JSON object' }],
      [{ code: 'function run() end', config: null }, { config: 'Must be a JSON object' }],
      [{ arguments: {} }, { code: 'Must be a string' }],
      [{ code: 'x'.repeat(FUNCTION_CODE_MAX_BYTES + 1) }, { code: 'Must be at most 64 KiB' }],
    ] as const) {
      const res = await client.post(url, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual(errors);
    }
    expect(await runsOf(fn.id)).toHaveLength(0);
    expect((await client.get(`${base()}/${fn.id}`)).json().data.run_count).toBe(0);
  });
});

describe('runs', () => {
  it('lists newest first with paging and a status filter; shows details and stats', async () => {
    const fn = await makeFunction(server.ctx, vendor);
    const url = `${base()}/${fn.id}`;
    const statsBefore = (await client.get(`${url}/runs/stats`)).json().data;
    expect(statsBefore).toEqual({
      total_runs: 0,
      success_runs: 0,
      success_rate: null,
      last_run: null,
      runtime: 'silicon',
      average_took: null,
    });

    const codes = [
      'function run(a) return a.n end',
      'function run() error("boom") end',
      'function run(a) print("hi") return a.n end',
      'function run() breakpoint("here") end',
    ];
    const runIds: number[] = [];
    for (const [i, code] of codes.entries()) {
      const res = await client.post(`${url}/build`, { code, arguments: { n: i }, config: { c: i } });
      runIds.push(res.json().data.run_id);
    }

    const all = (await client.get(`${url}/runs`)).json();
    expect(all.total_count).toBe(4);
    expect(all.filter_count).toBe(4);
    expect(all.data.map((r: { id: number }) => r.id)).toEqual([...runIds].reverse());
    expect(all.data[0]).toEqual({
      id: runIds[3],
      status: -6,
      took: expect.any(Number),
      memory: expect.any(Number),
      created_at: expect.any(String),
      conversation_id: null,
    });

    const ok = (await client.get(`${url}/runs?status=1`)).json();
    expect(ok.data.map((r: { id: number }) => r.id)).toEqual([runIds[2], runIds[0]]);
    expect(ok).toMatchObject({ total_count: 4, filter_count: 2 });
    const failed = (await client.get(`${url}/runs?status=-1`)).json();
    expect(failed.data.map((r: { status: number }) => r.status)).toEqual([-6, -1]);
    expect((await client.get(`${url}/runs?status=`)).json().data).toHaveLength(4);
    expect((await client.get(`${url}/runs?status=2`)).statusCode).toBe(400);

    const paged = (await client.get(`${url}/runs?page=1&page_size=3`)).json();
    expect(paged.data.map((r: { id: number }) => r.id)).toEqual([runIds[0]]);

    const detail = (await client.get(`${url}/runs/${runIds[2]}`)).json().data;
    expect(detail).toEqual({
      id: runIds[2],
      status: 1,
      took: expect.any(Number),
      memory: expect.any(Number),
      created_at: expect.any(String),
      conversation_id: null,
      arguments: { n: 2 },
      config: { c: 2 },
      result: 2,
      error: null,
      console: [{ level: 1, message: 'hi', timestamp: expect.any(Number) }],
      debug: null,
    });
    const err = (await client.get(`${url}/runs/${runIds[1]}`)).json().data;
    expect(err).toMatchObject({ status: -1, result: null, error: { message: 'boom', line: 1 } });
    const bp = (await client.get(`${url}/runs/${runIds[3]}`)).json().data;
    expect(bp).toMatchObject({ status: -6, debug: { breakpoint: 1, string: 'here' }, error: null });

    const stats = (await client.get(`${url}/runs/stats`)).json().data;
    expect(stats).toEqual({
      total_runs: 4,
      success_runs: 2,
      success_rate: 50,
      last_run: expect.any(String),
      runtime: 'silicon',
      average_took: expect.any(Number),
    });
  });
});

describe('installing into an app', () => {
  it('checks each app config against the function’s config schema (function_config.<id>)', async () => {
    const weather = await create({ name: 'W', function_key: uniq('w_'), code: WEATHER });
    const strict = await makeFunction(server.ctx, vendor, {
      configSchema: { type: 'object', properties: { key: { type: 'string' } }, required: ['key'] },
    });
    const loose = await makeFunction(server.ctx, vendor, {
      configSchema: { type: 'object', $ref: 'http://x/y' },
    });
    const app = await makeApp(server.ctx, vendor);
    const put = (functions: unknown) =>
      client.put(`/v1/vendors/${vendor.id}/apps/${app.id}`, { name: app.name, functions });

    const bad = await put([
      { id: weather.id, config: { units: 'K' } },
      { id: strict.id, config: {} },
    ]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      function_config: {
        [String(weather.id)]: 'units: must be equal to one of the allowed values',
        [String(strict.id)]: 'key: is required',
      },
    });
    const installs = () =>
      server.ctx.db.select().from(schema.appFunctions).where(eq(schema.appFunctions.appId, app.id));
    expect(await installs()).toEqual([]);

    const ok = await put([
      { id: weather.id, config: { units: 'F' } },
      { id: strict.id, config: { key: 'abc' } },
      // a schema that cannot be compiled is not enforced
      { id: loose.id, config: { anything: 1 } },
    ]);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await installs()).map((r) => r.config)).toEqual([
      { units: 'F' },
      { key: 'abc' },
      { anything: 1 },
    ]);
  });
});

describe('rate limit', () => {
  it('limits calls that run Lua per user and minute (429 with Retry-After), nothing run or stored', async () => {
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    const c = await Client.signedIn(server.app, user.email, user.password);
    const fn = await makeFunction(server.ctx, vendor);
    const key = `functions:sandbox:${user.id}`;
    for (let i = 0; i < SANDBOX_CALLS_PER_MINUTE - 1; i++)
      await server.ctx.rateLimiter.hit(key, SANDBOX_CALLS_PER_MINUTE, 60);
    const last = await c.post(`${base()}/${fn.id}/build`, { code: 'function run() return 1 end' });
    expect(last.statusCode).toBe(200);
    for (const res of [
      await c.post(`${base()}/${fn.id}/build`, { code: 'function run() return 1 end' }),
      await c.put(`${base()}/${fn.id}/code`, { code: '-- x' }),
      await c.post(base(), { name: 'x', function_key: uniq('rl_') }),
    ]) {
      expect(res.statusCode).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(await runsOf(fn.id)).toHaveLength(1);
    // reading is not limited, and other users are not affected
    expect((await c.get(`${base()}/${fn.id}`)).json().data.code).not.toBe('-- x');
    expect((await client.post(`${base()}/${fn.id}/build`, { code: 'function run() end' })).statusCode).toBe(
      200,
    );
  });
});
