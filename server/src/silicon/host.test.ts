import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiliconPool } from './index';

// Host functions: async functions on the main thread, called synchronously from Lua.
let pool: SiliconPool;
beforeAll(async () => {
  pool = new SiliconPool({ size: 2, spares: 1 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('host calls', () => {
  it('calls async host functions synchronously; waiting does not count toward the Lua time', async () => {
    const calls: unknown[][] = [];
    const r = await pool.run({
      code: `function run(args)
        print("asking")
        local a = llm.complete({ prompt = args.q, max = 3 })
        local b = llm.complete({ prompt = "again" })
        print("got", a.text)
        return { a.text, b.text, a.echo }
      end`,
      arguments: { q: 'hello' },
      limits: { timeMs: 1000 },
      host: {
        'llm.complete': async (...args: unknown[]) => {
          calls.push(args);
          await sleep(600);
          const req = args[0] as { prompt: string };
          return { text: `re:${req.prompt}`, echo: req };
        },
      },
    });
    expect(r.status).toBe(1);
    expect(r.result).toEqual(['re:hello', 're:again', { prompt: 'hello', max: 3 }]);
    expect(calls).toEqual([[{ prompt: 'hello', max: 3 }], [{ prompt: 'again' }]]);
    expect(r.took).toBeGreaterThanOrEqual(1200);
    expect(r.console.map((e) => e.message)).toEqual(['asking', 'got\tre:hello']);
  });

  it('builds nested tables for dotted names and globals for plain names; passes nil as null', async () => {
    const seen: Record<string, unknown[]> = {};
    const record =
      (name: string, value?: unknown) =>
      async (...args: unknown[]) => {
        seen[name] = args;
        return value;
      };
    const r = await pool.run({
      code: `function on_message(ctx)
        relay.emit("token", { t = ctx.message })
        state.set({ n = 1 })
        state.patch(json.array({ { op = "add", path = "/x", value = 2 } }))
        debug("key", nil)
        return { type(relay), type(state.set), datastore.search("docs", "q", 3) }
      end`,
      entry: 'on_message',
      args: [{ message: 'hi' }],
      host: {
        'relay.emit': record('relay.emit'),
        'state.set': record('state.set'),
        'state.patch': record('state.patch'),
        'datastore.search': record('datastore.search', [{ id: 1, score: 0.5 }]),
        debug: record('debug'),
      },
    });
    expect(r.status).toBe(1);
    expect(r.result).toEqual(['table', 'function', [{ id: 1, score: 0.5 }]]);
    expect(seen).toEqual({
      'relay.emit': ['token', { t: 'hi' }],
      'state.set': [{ n: 1 }],
      'state.patch': [[{ op: 'add', path: '/x', value: 2 }]],
      debug: ['key', null],
      'datastore.search': ['docs', 'q', 3],
    });
  });

  it('turns host errors into Lua errors that pcall can catch', async () => {
    const host = {
      fail: async () => {
        await sleep(5);
        throw new Error('upstream failed');
      },
    };
    const caught = await pool.run({
      code: 'function run() local ok, e = pcall(fail) return { ok, e } end',
      host,
    });
    expect(caught).toMatchObject({ status: 1, result: [false, 'upstream failed'] });
    const uncaught = await pool.run({ code: 'function run()\n  print("x")\n  fail()\nend', host });
    expect(uncaught).toMatchObject({ status: -1, error: { message: 'upstream failed', line: 3 } });
  });

  it('maps undefined to nil and rejects values that are not JSON on either side', async () => {
    const r = await pool.run({
      code: `function run()
        local none = nothing()
        local ok1, e1 = pcall(bigint)
        local ok2, e2 = pcall(nothing, print)
        return { none == nil, ok1, e1, ok2, e2 }
      end`,
      host: {
        nothing: async () => undefined,
        bigint: async () => 10n,
      },
    });
    expect(r.status).toBe(1);
    expect(r.result).toEqual([
      true,
      false,
      'bigint: host result is not JSON-serialisable (Do not know how to serialize a BigInt)',
      false,
      'nothing: argument is not JSON-serialisable: function value at argument[1]',
    ]);
  });

  it('still enforces the Lua time limit after host calls, and the wall limit during them', async () => {
    const afterCall = await pool.run({
      code: 'function run() wait() while true do end end',
      limits: { timeMs: 500 },
      host: { wait: () => sleep(600) },
    });
    expect(afterCall).toMatchObject({ status: -3, error: { message: 'time limit exceeded (500 ms)' } });
    expect(afterCall.took).toBeGreaterThanOrEqual(1100);
    const stuck = await pool.run({
      code: 'function run() print("waiting") forever() end',
      limits: { timeMs: 1000, wallMs: 1500 },
      host: { forever: () => new Promise(() => {}) },
    });
    expect(stuck).toMatchObject({
      status: -3,
      error: { message: 'wall-clock limit exceeded (1500 ms, waits on host calls included)', line: null },
    });
    expect(stuck.console.map((e) => e.message)).toEqual(['waiting']);
    const after = await pool.run({ code: 'function run() return "fine" end' });
    expect(after.result).toBe('fine');
  });

  it('does not leak host functions into later runs', async () => {
    await pool.run({ code: 'function run() return secret() end', host: { secret: () => 's' } });
    const r = await pool.run({ code: 'function run() return type(secret) end' });
    expect(r.result).toBe('nil');
  });
});
