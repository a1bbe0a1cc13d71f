import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiliconPool } from './index';

// Statuses, errors, console, breakpoints, schemas, JSON conversion and isolation between runs.
let pool: SiliconPool;
beforeAll(async () => {
  pool = new SiliconPool({ size: 2, spares: 1 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
});

const CONTRACT_EXAMPLE = `schema = {
  arguments = { type = "object", properties = { city = { type = "string" } }, required = { "city" } },
  config    = { type = "object", properties = { units = { type = "string", enum = { "C", "F" } } } },
}
function run(args, config)
  print("looking up", args.city)      -- console entry, level 1
  return { city = args.city, temp = 21 }
end`;

describe('successful runs', () => {
  it('runs the contract example: result, console, schemas, took and memory', async () => {
    const before = Date.now();
    const r = await pool.run({
      code: CONTRACT_EXAMPLE,
      arguments: { city: 'Paris' },
      config: { units: 'C' },
    });
    const after = Date.now();
    expect(r.status).toBe(1);
    expect(r.result).toEqual({ city: 'Paris', temp: 21 });
    expect(r.console).toHaveLength(1);
    expect(r.console[0]).toMatchObject({ level: 1, message: 'looking up\tParis' });
    expect(r.console[0]!.timestamp).toBeGreaterThanOrEqual(before);
    expect(r.console[0]!.timestamp).toBeLessThanOrEqual(after);
    expect(r.argument_schema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    });
    expect(r.config_schema).toEqual({
      type: 'object',
      properties: { units: { type: 'string', enum: ['C', 'F'] } },
    });
    expect(Number.isInteger(r.took)).toBe(true);
    expect(r.took).toBeGreaterThanOrEqual(0);
    expect(r.memory).toBeGreaterThan(10_000);
    expect(r.memory).toBeLessThan(32 * 1024 * 1024);
    expect(r.error).toBeUndefined();
    expect(r.debug).toBeUndefined();
  });

  it('calls another entry with arbitrary JSON arguments, including dotted entries', async () => {
    const r = await pool.run({
      code: 'function on_message(ctx, n) return ctx.message .. "!" .. n end',
      entry: 'on_message',
      args: [{ message: 'hi' }, 3],
    });
    expect(r).toMatchObject({ status: 1, result: 'hi!3' });
    const dotted = await pool.run({
      code: 'app = {} function app.handle(x) return x * 2 end',
      entry: 'app.handle',
      args: [21],
    });
    expect(dotted).toMatchObject({ status: 1, result: 42 });
  });

  it('passes {} for missing arguments and config and returns null for nil', async () => {
    const r = await pool.run({ code: 'function run(a, c) return { type(a), type(c), next(a) == nil } end' });
    expect(r.result).toEqual(['table', 'table', true]);
    const none = await pool.run({ code: 'function run() end' });
    expect(none).toMatchObject({ status: 1, result: null });
  });
});

describe('errors', () => {
  it('reports runtime errors with the message and the line in the chunk (-1)', async () => {
    const r = await pool.run({ code: 'function run()\n  local x = nil\n\n  return x.y\nend' });
    expect(r.status).toBe(-1);
    expect(r.error).toEqual({ message: "attempt to index a nil value (local 'x')", line: 4 });
    expect(r.result).toBeNull();
  });

  it('reports the line of the failing frame inside nested functions and error() calls', async () => {
    const nested = await pool.run({
      code: 'local t\nlocal function g()\n  return t.x\nend\nfunction run()\n  return g()\nend',
    });
    expect(nested.error).toEqual({ message: "attempt to index a nil value (upvalue 't')", line: 3 });
    const thrown = await pool.run({ code: 'function run()\n\n  error("boom")\nend' });
    expect(thrown).toMatchObject({ status: -1, error: { message: 'boom', line: 3 } });
    const level0 = await pool.run({ code: 'function run()\n  error("plain", 0)\nend' });
    expect(level0.error).toEqual({ message: 'plain', line: 2 });
  });

  it('renders error values that are not strings', async () => {
    const table = await pool.run({ code: 'function run()\n  error({ code = 7, msg = "bad" })\nend' });
    expect(table).toMatchObject({ status: -1, error: { message: '{"code":7,"msg":"bad"}', line: 2 } });
    const empty = await pool.run({ code: 'function run()\n  error()\nend' });
    expect(empty.error).toEqual({ message: '(error object is a nil value)', line: 2 });
    const number = await pool.run({ code: 'function run() error(42) end' });
    expect(number.error).toEqual({ message: '42', line: 1 });
    const custom = await pool.run({
      code: 'function run() error(setmetatable({}, { __tostring = function() return "custom" end })) end',
    });
    expect(custom.error).toEqual({ message: 'custom', line: 1 });
  });

  it('reports syntax errors with their line (-2)', async () => {
    const r = await pool.run({ code: 'function run()\n  local a = 1\n  return a +\nend' });
    expect(r.status).toBe(-2);
    expect(r.error).toEqual({ message: "unexpected symbol near 'end'", line: 4 });
    const eof = await pool.run({ code: 'function run()\n  if true then\n' });
    expect(eof.status).toBe(-2);
    expect(eof.error).toEqual({ message: "'end' expected (to close 'if' at line 2) near <eof>", line: 3 });
  });

  it('uses the chunk name in positions and strips it from messages', async () => {
    const r = await pool.run({
      code: 'function run() local ok, e = pcall(error, "x", 1) return e end',
      chunkName: 'weather',
    });
    expect(r.result).toBe('x');
    const pos = await pool.run({
      code: 'function run() local ok, e = pcall(function() local a = nil + 1 end) return e end',
      chunkName: 'weather',
    });
    expect(pos.result).toBe('weather:1: attempt to perform arithmetic on a nil value');
  });

  it('fails with -1 when the entry is missing or not a function', async () => {
    const missing = await pool.run({ code: 'x = 1' });
    expect(missing).toMatchObject({
      status: -1,
      error: { message: "function 'run' is not defined", line: null },
    });
    const other = await pool.run({ code: 'function run() end', entry: 'on_message' });
    expect(other.error).toEqual({ message: "function 'on_message' is not defined", line: null });
    const number = await pool.run({ code: 'run = 5' });
    expect(number.error).toEqual({ message: "'run' is not a function (a number value)", line: null });
  });

  it('rejects invalid requests before running them', async () => {
    await expect(pool.run({ code: 'x', entry: 'bad name' })).rejects.toThrow(/invalid entry name/);
    await expect(pool.run({ code: 'x', args: [10n] })).rejects.toThrow(/not JSON-serialisable/);
    await expect(pool.run({ code: 'x', limits: { timeMs: -1 } })).rejects.toThrow(/timeMs/);
    await expect(pool.run({ code: 'x', host: { 'bad-name': async () => 1 } })).rejects.toThrow(
      /invalid host/,
    );
  });
});

describe('results that are not JSON (-5)', () => {
  const cases: Array<[string, string, string]> = [
    ['function', 'return { cb = print }', 'result is not JSON-serialisable: function value at result.cb'],
    [
      'cyclic table',
      'local t = {} t.self = t return t',
      'result is not JSON-serialisable: cyclic table at result.self',
    ],
    [
      'mixed keys',
      'return { items = { 1, 2, x = 3 } }',
      'result is not JSON-serialisable: table mixes array items and string keys at result.items',
    ],
    ['NaN', 'return { v = 0/0 }', 'result is not JSON-serialisable: NaN or infinite number at result.v'],
    [
      'infinity',
      'return { 1, math.huge }',
      'result is not JSON-serialisable: NaN or infinite number at result[2]',
    ],
    [
      'sparse array',
      'return { [1] = 1, [100] = 2 }',
      'result is not JSON-serialisable: sparse array (highest index 100, 2 items) at result',
    ],
    [
      'boolean key',
      'return { [true] = 1 }',
      'result is not JSON-serialisable: table key of type boolean cannot be represented in JSON at result',
    ],
    [
      'coroutine',
      'return coroutine.create(print)',
      'result is not JSON-serialisable: thread value at result',
    ],
  ];
  it.each(cases)('%s', async (_name, body, message) => {
    const r = await pool.run({ code: `function run() ${body} end` });
    expect(r.status).toBe(-5);
    expect(r.result).toBeNull();
    expect(r.error).toEqual({ message, line: null });
  });

  it('caps the result size', async () => {
    const code = 'function run() local t = {} for i = 1, 200 do t[i] = string.rep("x", 100) end return t end';
    const small = await pool.run({ code, limits: { maxResultBytes: 1000 } });
    expect(small.status).toBe(-5);
    expect(small.error).toEqual({
      message: 'result is larger than 1000 bytes when encoded as JSON',
      line: null,
    });
    const ok = await pool.run({ code });
    expect(ok.status).toBe(1);
    expect(ok.result).toHaveLength(200);
  });
});

describe('JSON in and out', () => {
  it('converts nested objects, arrays, numbers, strings, booleans and nulls', async () => {
    const input = {
      name: 'é😀\u0000\n"\\',
      int: 21,
      float: 1.5,
      neg: -3,
      yes: true,
      no: false,
      nested: { list: [1, 'two', { three: 3 }], deep: { deeper: { deepest: [[]] } } },
      missing: null,
      holes: [1, null, 3],
      emptyObject: {},
      emptyArray: [],
    };
    const r = await pool.run({
      code: `function run(a)
        return {
          echo = a,
          types = { math.type(a.int), math.type(a.float), type(a.yes) },
          missing_is_nil = a.missing == nil,
          hole_is_null = a.holes[2] == json.null,
          hole_len = #a.holes,
          name_bytes = #a.name,
          empty_array_len = #a.emptyArray,
        }
      end`,
      arguments: input,
    });
    expect(r.status).toBe(1);
    const { missing: _missing, ...withoutNull } = input;
    expect(r.result).toEqual({
      echo: withoutNull,
      types: ['integer', 'float', 'boolean'],
      missing_is_nil: true,
      hole_is_null: true,
      hole_len: 3,
      name_bytes: 10,
      empty_array_len: 0,
    });
  });

  it('encodes empty tables as objects unless marked with json.array()', async () => {
    const r = await pool.run({
      code: 'function run() return { obj = {}, arr = json.array(), filled = json.array({ 1 }), null = json.null } end',
    });
    expect(r.result).toEqual({ obj: {}, arr: [], filled: [1], null: null });
  });

  it('provides json.encode / json.decode with sorted keys and catchable errors', async () => {
    const r = await pool.run({
      code: `function run()
        local ok1, e1 = pcall(json.decode, "{bad")
        local ok2, e2 = pcall(json.encode, { f = print })
        return {
          json.encode({ b = { 1, 2.5 }, a = "x", c = json.null }),
          json.encode({}),
          json.encode(json.array()),
          json.decode('{"k":[1,{"z":null}],"u":"\\\\u00e9\\\\ud83d\\\\ude00"}'),
          ok1, e1, ok2, e2,
        }
      end`,
    });
    expect(r.status).toBe(1);
    expect(r.result).toEqual([
      '{"a":"x","b":[1,2.5],"c":null}',
      '{}',
      '[]',
      { k: [1, {}], u: 'é😀' },
      false,
      'json.decode: expected a string key at position 2',
      false,
      'json.encode: function value at value.f',
    ]);
  });

  it('keeps integers and floats apart', async () => {
    const r = await pool.run({
      code: 'function run(a) return { a.n * 2, a.f / 2, 7 // 2, 7 / 2, 2^53, 1e300, -0.0, 0.1 } end',
      arguments: { n: 4, f: 5 },
    });
    expect(r.result).toEqual([8, 2.5, 3, 3.5, 2 ** 53, 1e300, -0, 0.1]);
  });
});

describe('console', () => {
  it('keeps order and levels of print, log.*, warn', async () => {
    const r = await pool.run({
      code: `function run()
        print("a", nil, 1, true, 2.5)
        log.ok("ok")
        log.info("info")
        log.warn("warn", 2)
        log.error("error")
        warn("@on")
        warn("w", "x")
        print()
      end`,
    });
    expect(r.console.map((e) => [e.level, e.message])).toEqual([
      [1, 'a\tnil\t1\ttrue\t2.5'],
      [0, 'ok'],
      [1, 'info'],
      [2, 'warn\t2'],
      [3, 'error'],
      [2, 'wx'],
      [1, ''],
    ]);
    const stamps = r.console.map((e) => e.timestamp);
    expect([...stamps].sort((a, b) => a - b)).toEqual(stamps);
  });

  it('is kept when the run fails, and truncated past 1000 entries', async () => {
    const failing = await pool.run({ code: 'function run() print("before") error("x") end' });
    expect(failing.status).toBe(-1);
    expect(failing.console.map((e) => e.message)).toEqual(['before']);
    const flood = await pool.run({
      code: 'function run() for i = 1, 5000 do print(i) end return "done" end',
    });
    expect(flood.status).toBe(1);
    expect(flood.result).toBe('done');
    expect(flood.console).toHaveLength(1001);
    expect(flood.console[999]!.message).toBe('1000');
    expect(flood.console[1000]).toMatchObject({ level: 2 });
    expect(flood.console[1000]!.message).toMatch(/^\[console truncated/);
  });
});

describe('breakpoint', () => {
  it('stops the run and reports line and rendered value (-6)', async () => {
    const r = await pool.run({
      code: 'function run()\n  print("before")\n  local t = { name = "x", list = { 1, 2 }, empty = {} }\n  breakpoint(t)\n  print("after")\n  return 1\nend',
    });
    expect(r.status).toBe(-6);
    expect(r.result).toBeNull();
    expect(r.debug).toEqual({
      breakpoint: 4,
      string: '{\n  "empty": {},\n  "list": [\n    1,\n    2\n  ],\n  "name": "x"\n}',
    });
    expect(r.console.map((e) => e.message)).toEqual(['before']);
    expect(r.error).toBeUndefined();
  });

  it('renders strings, numbers, nil and non-JSON values readably', async () => {
    const render = async (expr: string) =>
      (await pool.run({ code: `function run()\n  breakpoint(${expr})\nend` })).debug;
    expect(await render('"hello"')).toEqual({ breakpoint: 2, string: 'hello' });
    expect(await render('42')).toEqual({ breakpoint: 2, string: '42' });
    expect(await render('nil')).toEqual({ breakpoint: 2, string: 'nil' });
    expect((await render('{ f = print, [1] = true }'))?.string).toBe(
      '{\n  "f": <function>,\n  "[1]": true\n}',
    );
    const cyclic = await pool.run({ code: 'function run() local t = {} t.t = t breakpoint(t) end' });
    expect(cyclic.debug?.string).toBe('{\n  "t": <cycle>\n}');
  });

  it('cannot be swallowed by pcall and works inside coroutines', async () => {
    const r = await pool.run({
      code: 'function run()\n  local ok = pcall(breakpoint, "p")\n  return "continued"\nend',
    });
    expect(r).toMatchObject({ status: -6, debug: { breakpoint: 2, string: 'p' } });
    const co = await pool.run({
      code: 'function run()\n  local f = coroutine.wrap(function()\n    breakpoint({ 1 })\n  end)\n  f()\n  return 1\nend',
    });
    expect(co).toMatchObject({ status: -6, debug: { breakpoint: 3, string: '[\n  1\n]' } });
  });
});

describe('schemas', () => {
  it('are reported even when the run fails, with {} objects and [] lists for empty tables', async () => {
    const r = await pool.run({
      code: 'schema = { arguments = { type = "object", properties = {}, required = {} } }\nfunction run()\n  error("x")\nend',
    });
    expect(r.status).toBe(-1);
    expect(r.argument_schema).toEqual({ type: 'object', properties: {}, required: [] });
    expect(r.config_schema).toBeUndefined();
  });

  it('skips a schema that is not JSON and says why in the console', async () => {
    const r = await pool.run({
      code: 'schema = { arguments = { type = "object" }, config = { f = print } } function run() return 1 end',
    });
    expect(r.status).toBe(1);
    expect(r.argument_schema).toEqual({ type: 'object' });
    expect(r.config_schema).toBeUndefined();
    expect(r.console).toEqual([
      expect.objectContaining({
        level: 2,
        message: 'schema.config ignored: function value at schema.config.f',
      }),
    ]);
  });

  it('are absent when the chunk declares none', async () => {
    const r = await pool.run({ code: 'function run() return 1 end' });
    expect('argument_schema' in r).toBe(false);
    expect('config_schema' in r).toBe(false);
  });
});

describe('sandbox surface and isolation', () => {
  it('exposes only the allowed libraries', async () => {
    const r = await pool.run({
      code: `function run()
        return {
          io = type(io), os = type(os), package = type(package), debug = type(debug), require = type(require),
          dofile = type(dofile), loadfile = type(loadfile), collectgarbage = type(collectgarbage),
          dump = type(string.dump), utf8 = utf8.char(233, 8364), ulen = utf8.len("é€"), co = type(coroutine.wrap),
          version = _VERSION, concat = table.concat({ 1, 2 }, ","), floor = math.floor(2.7), upper = ("abc"):upper(),
        }
      end`,
    });
    expect(r.result).toEqual({
      io: 'nil',
      os: 'nil',
      package: 'nil',
      debug: 'nil',
      require: 'nil',
      dofile: 'nil',
      loadfile: 'nil',
      collectgarbage: 'nil',
      dump: 'nil',
      utf8: 'é€',
      ulen: 2,
      co: 'function',
      version: 'Lua 5.4',
      concat: '1,2',
      floor: 2,
      upper: 'ABC',
    });
  });

  it('starts every run from a fresh state', async () => {
    const polluter = await pool.run({
      code: `leak = "yes"
        string.upper = function() return "poisoned" end
        math.pi = 3
        json.encode = nil
        print = nil
        function run() return "polluted" end`,
    });
    expect(polluter.status).toBe(1);
    const checks = await Promise.all(
      [1, 2, 3, 4].map(() =>
        pool.run({
          code: `function run()
            print("still here")
            return { leak = leak == nil, upper = ("a"):upper(), pi = math.pi > 3.14, enc = json.encode({ 1 }) }
          end`,
        }),
      ),
    );
    for (const check of checks) {
      expect(check.result).toEqual({ leak: true, upper: 'A', pi: true, enc: '[1]' });
      expect(check.console.map((e) => e.message)).toEqual(['still here']);
    }
  });

  it('supports load() for text chunks with and without an environment', async () => {
    const r = await pool.run({
      code: `function run()
        local f = load("return 1 + 1")
        local g = load("return x", "g", "t", { x = 5 })
        local h = load("return y", "h", "bt", nil)
        local ok = pcall(h)
        return { f(), g(), ok }
      end`,
    });
    expect(r.result).toEqual([2, 5, false]);
  });
});
