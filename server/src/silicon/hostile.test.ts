import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SiliconPool } from './index';

// Hostile code: every pattern must end with the right status, without affecting the process or later runs.
let pool: SiliconPool;
beforeAll(async () => {
  pool = new SiliconPool({ size: 2, spares: 1 });
  await pool.ready();
});
afterAll(async () => {
  await pool.close();
});

const FAST = { timeMs: 200 };
// runs that are expected to finish get the default limits, so a loaded machine cannot turn them into -3
const NORMAL = { timeMs: 1000 };
// memory bombs get more time and less memory, so they reach the memory limit first
const SMALL = { timeMs: 3000, memoryBytes: 4 * 1024 * 1024 };

async function statusOf(code: string, limits = FAST) {
  return pool.run({ code, limits });
}

describe('time limit (-3)', () => {
  const loops: Array<[string, string]> = [
    ['while true', 'function run() while true do end end'],
    ['loop in the main chunk', 'while true do end'],
    [
      'pcall swallowing the timeout',
      'function run() while true do pcall(function() while true do end end) end end',
    ],
    ['xpcall', 'function run() xpcall(function() while true do end end, function(e) return e end) end'],
    [
      'coroutine resumed in a loop',
      'function run() local co = coroutine.create(function() repeat coroutine.yield() until false end) while true do coroutine.resume(co) end end',
    ],
    ['coroutine.wrap', 'function run() coroutine.wrap(function() while true do end end)() end'],
    [
      '__gc finaliser',
      'function run() setmetatable({}, { __gc = function() while true do end end }) return 1 end',
    ],
    ['pattern backtracking', 'function run() return string.find(string.rep("a", 1e5), ".-.-.-.-.-.-b") end'],
  ];
  it.each(loops)('%s', async (_name, code) => {
    const r = await statusOf(code);
    expect(r.status).toBe(-3);
    expect(r.error).toEqual({ message: 'time limit exceeded (200 ms)', line: null });
    expect(r.result).toBeNull();
    expect(r.took).toBeGreaterThanOrEqual(200);
  });

  it('keeps console output and schemas written before the timeout', async () => {
    const r = await statusOf(
      'schema = { arguments = { type = "object" } }\nfunction run() print("start") while true do end end',
      NORMAL,
    );
    expect(r.status).toBe(-3);
    expect(r.console.map((e) => e.message)).toEqual(['start']);
    expect(r.argument_schema).toEqual({ type: 'object' });
  });
});

describe('memory limit (-4)', () => {
  const bombs: Array<[string, string]> = [
    ['table growth', 'function run() local t = {} local i = 0 while true do i = i + 1 t[i] = { i } end end'],
    ['string doubling', 'function run() local s = "x" while true do s = s .. s end end'],
    ['string.rep huge count', 'function run() return string.rep("x", 1e9) end'],
    ['method rep', 'function run() return ("x"):rep(1e9) end'],
    ['rep with separator', 'function run() return string.rep("ab", 1e8, ",") end'],
    ['rep hidden in pcall', 'function run() local ok = pcall(string.rep, "x", 1e9) return ok end'],
    [
      'allocation failure swallowed by pcall',
      'function run() local ok = pcall(function() local s = "x" while true do s = s .. s end end) return ok end',
    ],
    [
      'table.concat',
      'function run() local t = {} for i = 1, 1e6 do t[i] = "xxxxxxxxxxxxxxxx" end return #table.concat(t) end',
    ],
  ];
  it.each(bombs)('%s', async (_name, code) => {
    const r = await statusOf(code, SMALL);
    expect(r.status).toBe(-4);
    expect(r.error?.message).toBe(`memory limit exceeded (${4 * 1024 * 1024} bytes)`);
    expect(r.result).toBeNull();
  });
});

describe('escapes', () => {
  const blocked: Array<[string, string, string]> = [
    ['io', 'return io.open("/etc/passwd")', "attempt to index a nil value (global 'io')"],
    ['os', 'return os.execute("id")', "attempt to index a nil value (global 'os')"],
    ['require', 'return require("os")', "attempt to call a nil value (global 'require')"],
    ['package', 'return package.loaded', "attempt to index a nil value (global 'package')"],
    ['debug', 'return debug.getregistry()', "attempt to index a nil value (global 'debug')"],
    ['dofile', 'return dofile("/etc/passwd")', "attempt to call a nil value (global 'dofile')"],
    ['loadfile', 'return loadfile("/etc/passwd")', "attempt to call a nil value (global 'loadfile')"],
    ['string.dump', 'return string.dump(run)', "attempt to call a nil value (field 'dump')"],
    [
      'collectgarbage',
      'return collectgarbage("count")',
      "attempt to call a nil value (global 'collectgarbage')",
    ],
    [
      'poisoning the string metatable',
      'getmetatable("").__index = {} return 1',
      'attempt to index a boolean value',
    ],
  ];
  it.each(blocked)('%s', async (_name, body, message) => {
    const r = await statusOf(`function run()\n  ${body}\nend`, NORMAL);
    expect(r.status).toBe(-1);
    expect(r.error).toEqual({ message, line: 2 });
  });

  it('never loads bytecode, whatever mode is asked for', async () => {
    const r = await statusOf(
      `function run()
      local a, ea = load("\\27Lua\\84\\0\\25\\147")
      local b, eb = load("\\27Lua", "x", "b")
      local c, ec = load(function() local s = "\\27Lua" ; return s end)
      return { a == nil, ea, b == nil, eb, c == nil, ec, getmetatable("") }
    end`,
      NORMAL,
    );
    expect(r.status).toBe(1);
    const msg = "attempt to load a binary chunk (mode is 't')";
    expect(r.result).toEqual([true, msg, true, msg, true, msg, false]);
  });
});

describe('recursion and error values', () => {
  it('ends runaway recursion with a stack overflow (-1), catchable by pcall', async () => {
    const plain = await statusOf('local function f() return 1 + f() end\nfunction run() return f() end', {
      timeMs: 5000,
    });
    expect(plain.status).toBe(-1);
    expect(plain.error?.message).toBe('stack overflow');
    const wide = await statusOf(
      'local function f(a, b, c, d, e) local x, y, z = 1, 2, 3 return f(a, b, c, d, e) + x end\nfunction run() return f() end',
      { timeMs: 5000 },
    );
    expect(wide).toMatchObject({ status: -1, error: { message: 'stack overflow', line: 1 } });
    const caught = await statusOf(
      'local function f() return 1 + f() end\nfunction run() local ok, e = pcall(f) return { ok, e } end',
      { timeMs: 5000 },
    );
    expect(caught).toMatchObject({ status: 1, result: [false, 'stack overflow'] });
  });

  it('ends deep C recursion with a C stack overflow (-1)', async () => {
    const r = await statusOf(
      'local function f(s) return (string.gsub(s, "x", function(c) return f(c) end)) end\nfunction run() return f("x") end',
      NORMAL,
    );
    expect(r.status).toBe(-1);
    expect(r.error?.message).toMatch(/C stack overflow$/);
  });

  it('refuses huge results (-5)', async () => {
    const r = await statusOf(
      'function run() local t = {} for i = 1, 300000 do t[i] = "xxxxxxxxxx" end return t end',
      { timeMs: 5000 },
    );
    expect(r.status).toBe(-5);
    expect(r.error?.message).toBe('result is larger than 1048576 bytes when encoded as JSON');
  });

  it('rejects yields outside coroutines', async () => {
    const r = await statusOf('function run() coroutine.yield(1) end', NORMAL);
    expect(r).toMatchObject({ status: -1, error: { message: 'attempt to yield from outside a coroutine' } });
  });
});

describe('pool resilience', () => {
  it('keeps serving other runs and the event loop while a run spins', async () => {
    let ticks = 0;
    const interval = setInterval(() => {
      ticks += 1;
    }, 10);
    const started = Date.now();
    let spinnerDone = 0;
    const spinner = pool
      .run({ code: 'function run() while true do end end', limits: { timeMs: 1500 } })
      .then((r) => {
        spinnerDone = Date.now();
        return r;
      });
    const quick: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      const r = await pool.run({ code: `function run() return ${i} end` });
      expect(r).toMatchObject({ status: 1, result: i });
      quick.push(Date.now());
    }
    const ticksWhileQuick = ticks;
    const spun = await spinner;
    clearInterval(interval);
    expect(spun.status).toBe(-3);
    for (const t of quick) expect(t).toBeLessThan(spinnerDone);
    // 1.5 s of spinning at 10 ms per tick: a blocked event loop would show (almost) none
    expect(ticks).toBeGreaterThan(50);
    expect(ticksWhileQuick).toBeGreaterThanOrEqual(0);
    expect(spinnerDone - started).toBeGreaterThanOrEqual(1500);
  });

  it('replaces killed workers and keeps working', async () => {
    const before = pool.stats();
    const results = await Promise.all([
      statusOf('function run() while true do end end'),
      statusOf('function run() while true do end end'),
      statusOf('function run() while true do end end'),
    ]);
    expect(results.map((r) => r.status)).toEqual([-3, -3, -3]);
    const after = pool.stats();
    expect(after.killed - before.killed).toBe(3);
    const next = await Promise.all(
      [1, 2, 3, 4].map((i) => pool.run({ code: `function run() return ${i} end` })),
    );
    expect(next.map((r) => r.result)).toEqual([1, 2, 3, 4]);
    await pool.ready();
    expect(pool.stats().workers).toBe(3);
  });

  it('bounds the queue and fails queued runs on close', async () => {
    const small = new SiliconPool({ size: 1, spares: 0, maxQueue: 2 });
    await small.ready();
    const spin = small.run({ code: 'function run() while true do end end', limits: { timeMs: 300 } });
    const queued = [
      small.run({ code: 'function run() return 1 end' }),
      small.run({ code: 'function run() return 2 end' }),
    ];
    await expect(small.run({ code: 'function run() return 3 end' })).rejects.toThrow(
      'silicon pool queue is full (2 runs waiting)',
    );
    expect((await spin).status).toBe(-3);
    expect((await Promise.all(queued)).map((r) => r.result)).toEqual([1, 2]);
    const spin2 = small.run({ code: 'function run() while true do end end', limits: { timeMs: 5000 } });
    const waiting = small.run({ code: 'function run() return 4 end' });
    const rejected = [
      expect(spin2).rejects.toThrow('silicon pool closed'),
      expect(waiting).rejects.toThrow('silicon pool closed'),
    ];
    await small.close();
    await Promise.all(rejected);
    await expect(small.run({ code: 'x' })).rejects.toThrow('silicon pool is closed');
  });
});
