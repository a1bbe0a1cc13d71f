import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { DEMO_VENDOR, seed } from '../../seed';
import { createTestServer, makeFunction, makeVendor, type TestServer, uniq } from '../../test/harness';
import { findVendorByKey } from '../vendors/repo';
import { LIBRARY_FUNCTIONS, type LibraryFunction, seedLibraryFunctions } from './library';
import { baseHost, closeSiliconPools, loadSchemas, siliconPool } from './sandbox';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});

const fn = (key: string): LibraryFunction => LIBRARY_FUNCTIONS.find((f) => f.functionKey === key)!;

async function run(
  key: string,
  args: Record<string, unknown>,
  config: Record<string, unknown> = {},
  host = {},
) {
  return siliconPool().run({
    code: fn(key).code,
    arguments: args,
    config,
    host: { ...baseHost({ scratchState: true }), ...host },
  });
}

describe('library functions', () => {
  it.each(LIBRARY_FUNCTIONS.map((f) => [f.functionKey, f] as const))(
    '%s declares the schemas stored for it',
    async (_key, f) => {
      const loaded = await loadSchemas(f.code);
      expect(loaded).toEqual({ ok: true, argumentSchema: f.argumentSchema, configSchema: f.configSchema });
      expect(f.functionKey).toMatch(/^[a-z_]+$/);
    },
  );

  it('calculator evaluates arithmetic with precedence, functions and constants', async () => {
    const cases: [string, number][] = [
      ['1 + 2 * 3', 7],
      ['(1 + 2) * 3', 9],
      ['2^10', 1024],
      ['2^3^2', 512],
      ['-2^2', -4],
      ['17 % 5', 2],
      ['10 / 4', 2.5],
      ['1 / 3', 0.3333333333],
      ['sqrt(16) + abs(-2)', 6],
      ['max(1, 7, 3) - min(4, 2)', 5],
      ['round(2.5) + floor(1.9) + ceil(1.1)', 6],
      ['2 * pi', 6.2831853072],
      ['1.5e3 + .5', 1500.5],
      ['99999999999 * 99999999999', 9999999999800000000000],
    ];
    for (const [expression, expected] of cases) {
      const r = await run('calculator', { expression });
      expect(r.status, `${expression}: ${r.error?.message}`).toBe(1);
      expect(r.result, expression).toEqual({ expression, result: expected });
    }
    const precise = await run('calculator', { expression: '1 / 3' }, { precision: 2 });
    expect(precise.result).toEqual({ expression: '1 / 3', result: 0.33 });
  });

  it('calculator reports bad expressions as errors, never evaluating code', async () => {
    const cases: [string, string][] = [
      ['1 / 0', 'Division by zero'],
      ['1 +', 'Unexpected end of expression'],
      ['(1 + 2', "Expected ')'"],
      ['os.exit()', "Unknown name 'os'"],
      ['1 2', "Unexpected '2'"],
      ['', 'expression must be a non-empty string'],
    ];
    for (const [expression, message] of cases) {
      const r = await run('calculator', { expression });
      expect(r.status, expression).toBe(-1);
      expect(r.error?.message, expression).toContain(message);
    }
  });

  it('word_count counts words, characters and lines, and lists top words when configured', async () => {
    const text = "Grüezi mitenand!\nIt's a test, a small test.";
    const r = await run('word_count', { text });
    expect(r.result).toEqual({
      words: 8,
      characters: 43,
      characters_without_spaces: 36,
      lines: 2,
    });
    const top = await run('word_count', { text }, { top_words: 2 });
    expect(top.result).toMatchObject({
      top_words: [
        { word: 'a', count: 2 },
        { word: 'test', count: 2 },
      ],
    });
    const empty = await run('word_count', { text: '' }, { top_words: 3 });
    expect(empty.result).toEqual({
      words: 0,
      characters: 0,
      characters_without_spaces: 0,
      lines: 0,
      top_words: [],
    });
  });

  it('current_time renders the host clock at a UTC offset', async () => {
    const ms = Date.UTC(2024, 1, 29, 23, 30, 5); // a Thursday, leap day
    const clock = { 'clock.ms': () => ms };
    expect((await run('current_time', {}, {}, clock)).result).toEqual({
      iso: '2024-02-29T23:30:05Z',
      date: '2024-02-29',
      time: '23:30:05',
      weekday: 'Thursday',
      unix: Math.floor(ms / 1000),
      utc_offset_minutes: 0,
    });
    expect((await run('current_time', { utc_offset_minutes: 90 }, {}, clock)).result).toMatchObject({
      iso: '2024-03-01T01:00:05+01:30',
      weekday: 'Friday',
    });
    expect((await run('current_time', {}, { utc_offset_minutes: -300 }, clock)).result).toMatchObject({
      iso: '2024-02-29T18:30:05-05:00',
    });
    const old = Date.UTC(1969, 11, 31, 12, 0, 0);
    expect((await run('current_time', {}, {}, { 'clock.ms': () => old })).result).toMatchObject({
      iso: '1969-12-31T12:00:00Z',
      weekday: 'Wednesday',
    });
    const bad = await run('current_time', { utc_offset_minutes: 5000 }, {}, clock);
    expect(bad.status).toBe(-1);
    // with the real clock
    const now = await run('current_time', {});
    expect(now.status).toBe(1);
    expect(Math.abs((now.result as { unix: number }).unix - Date.now() / 1000)).toBeLessThan(5);
  });
});

describe('seeding', () => {
  it('adds the library functions once; a vendor keeps its own version of a key', async () => {
    const vendor = await makeVendor(server.ctx);
    const own = await makeFunction(server.ctx, vendor, { functionKey: 'calculator', code: '-- mine' });
    expect(await seedLibraryFunctions(server.ctx.db, vendor.id)).toBe(LIBRARY_FUNCTIONS.length - 1);
    expect(await seedLibraryFunctions(server.ctx.db, vendor.id)).toBe(0);
    const rows = await server.ctx.db
      .select()
      .from(schema.functions)
      .where(eq(schema.functions.vendorId, vendor.id));
    expect(rows.map((r) => r.functionKey).sort()).toEqual(['calculator', 'current_time', 'word_count']);
    expect(rows.find((r) => r.functionKey === 'calculator')).toMatchObject({ id: own.id, code: '-- mine' });
    const seeded = rows.find((r) => r.functionKey === 'word_count')!;
    expect(seeded).toMatchObject({
      isLibrary: true,
      runtime: 'silicon',
      argumentSchema: fn('word_count').argumentSchema,
      configSchema: fn('word_count').configSchema,
    });
  });

  it('the first start seeds them into the demo vendor; later starts add nothing', async () => {
    const email = `${uniq('admin')}@example.com`;
    await seed(server.ctx.db, email, 'correct horse battery');
    await seed(server.ctx.db, email, 'correct horse battery');
    const demo = (await findVendorByKey(server.ctx.db, DEMO_VENDOR.key))!;
    const rows = await server.ctx.db
      .select()
      .from(schema.functions)
      .where(and(eq(schema.functions.vendorId, demo.id), eq(schema.functions.isLibrary, true)));
    expect(rows.map((r) => r.functionKey).sort()).toEqual(['calculator', 'current_time', 'word_count']);
  });
});
