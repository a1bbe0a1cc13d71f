// silicon sandbox worker. Plain ESM JavaScript on purpose: it must start under plain Node, tsx and vitest
// alike (a .ts worker would need a TypeScript loader inside the worker thread, which vitest does not provide).
//
// One worker runs one Lua run at a time, synchronously. Every run gets a fresh Lua state from the shared
// wasmoon module; the main thread's watchdog terminates the whole worker when a run exceeds its time.
// Protocol (see protocol.ts for the types):
//   main → worker  {type:'run', …}
//   worker → main  {type:'ready'} | {type:'console'} | {type:'schema'} | {type:'host'} | {type:'done'}
//   host replies   on workerData.replyPort, signalled through workerData.control (Atomics).

import { readFileSync } from 'node:fs';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { LuaEngine, LuaFactory, LuaLibraries } from 'wasmoon';

const PRELUDE = readFileSync(new URL('./prelude.lua', import.meta.url), 'utf8');

/** @type {{ control: SharedArrayBuffer, replyPort: import('node:worker_threads').MessagePort }} */
const { control, replyPort } = workerData;
const signal = new Int32Array(control, 0, 2); // [0]: host reply flag
const peakView = new Float64Array(control, 8, 1); // peak Lua memory of the current run, readable after a kill

const lua = await new LuaFactory().getLuaModule();
const mod = lua.module;

// ---------------------------------------------------------------------------------------------------------
// Lua allocator: counts bytes, enforces the per-run limit and records the peak.
//
// Runaway recursion must end as a "stack overflow" runtime error, not as a memory-limit stop. Lua stacks are
// tracked by pointer: the main thread's stack is read from lua_State (field `stack`, checked against
// `stack_last`), coroutine stacks are the fresh (BASIC_STACK_SIZE + EXTRA_STACK) · 16 = 720-byte vectors Lua
// allocates in lua_newthread; both keep their identity through every realloc. Large stacks are exempt from
// the limit (up to STACK_EXEMPT_CAP per run), so frames with a few slots reach Lua's own "stack overflow"
// (LUAI_MAXSTACK = 1 000 000 slots = 16 MB). When the limit is hit by a stack resize or by a CallInfo
// (36 bytes per frame) while a large stack exists, the refusal is recorded as kind 2 and the prelude reports
// "stack overflow" instead of the memory limit.

const STACK_INITIAL_BYTES = 720;
const CALLINFO_BYTES = 36;
const STACK_EXEMPT_MIN = 64 * 1024;
const STACK_EXEMPT_CAP = 24 * 1024 * 1024;

const mem = {
  used: 0,
  peak: 0,
  max: Number.POSITIVE_INFINITY,
  /** kind of the latest refused allocation: 0 none, 1 memory limit, 2 recursion (stack or CallInfo) */
  refused: 0,
  /** stack block pointer → size in bytes; negative while the block is exempt from the limit */
  stacks: new Map(),
  exemptTotal: 0,
};

function notePeak() {
  const total = mem.used + mem.exemptTotal;
  if (total > mem.peak) {
    mem.peak = total;
    peakView[0] = total;
  }
}

function refuse(kind) {
  mem.refused = kind;
  return 0;
}

/** Resize (or free, nsize 0) a tracked stack block. */
function resizeStack(ptr, osize, nsize, tracked) {
  const wasExempt = tracked < 0;
  const exemptBefore = wasExempt ? -tracked : 0;
  if (nsize === 0) {
    mem.stacks.delete(ptr);
    if (wasExempt) mem.exemptTotal -= exemptBefore;
    else mem.used -= osize;
    mod._free(ptr);
    return 0;
  }
  const exempt = nsize >= STACK_EXEMPT_MIN && mem.exemptTotal - exemptBefore + nsize <= STACK_EXEMPT_CAP;
  if (!exempt) {
    const delta = wasExempt ? nsize : nsize - osize;
    if (nsize > osize && mem.used + delta > mem.max) return refuse(2);
  }
  const p = mod._realloc(ptr, nsize);
  if (p === 0) return refuse(2);
  mem.stacks.delete(ptr);
  if (wasExempt) mem.exemptTotal -= exemptBefore;
  else mem.used -= osize;
  if (exempt) {
    mem.exemptTotal += nsize;
    mem.stacks.set(p, -nsize);
  } else {
    mem.used += nsize;
    mem.stacks.set(p, nsize);
  }
  notePeak();
  return p;
}

/** lua_Alloc: (ud, ptr, osize, nsize) → ptr. When ptr is 0, osize is the kind of object, not a size. */
function allocate(_ud, ptr, osize, nsize) {
  if (ptr !== 0) {
    const tracked = mem.stacks.get(ptr);
    if (tracked !== undefined) return resizeStack(ptr, osize, nsize, tracked);
    if (nsize === 0) {
      mem.used -= osize;
      mod._free(ptr);
      return 0;
    }
  }
  const delta = ptr !== 0 ? nsize - osize : nsize;
  if (delta > 0 && mem.used + delta > mem.max) {
    return refuse(ptr === 0 && osize === 0 && nsize === CALLINFO_BYTES && mem.exemptTotal > 0 ? 2 : 1);
  }
  const p = mod._realloc(ptr, nsize);
  if (p === 0) return refuse(1);
  mem.used += delta;
  if (delta > 0) notePeak();
  if (ptr === 0 && osize === 0 && nsize === STACK_INITIAL_BYTES) mem.stacks.set(p, nsize);
  return p;
}

/** Track the main thread's stack (lua_State fields `stack_last` at +24 and `stack` at +28 on wasm32). */
function trackMainStack(L) {
  const stack = mod.HEAPU32[(L + 28) >> 2] ?? 0;
  const last = mod.HEAPU32[(L + 24) >> 2] ?? 0;
  const span = last - stack;
  if (stack !== 0 && span >= 640 && span % 16 === 0 && span <= 16 * 1024 * 1024) {
    mem.stacks.set(stack, span + 5 * 16);
  }
}

const allocPointer = mod.addFunction(allocate, 'iiiii');

// ---------------------------------------------------------------------------------------------------------
// the current run

/**
 * @typedef {{ type: 'run', id: number, code: string, chunkName: string, entry: string, argsJson: string,
 *   argc: number, hostNames: string[], memoryBytes: number, maxResultBytes: number,
 *   consoleMaxEntries: number, consoleMaxChars: number }} RunMessage
 */

/** @type {{ id: number, silent: boolean, entries: number, chars: number, full: boolean, limits: RunMessage,
 *   peakUser: number | undefined, hostSeq: number } | null} */
let run = null;

/** @param {object} message */
function post(message) {
  if (run && !run.silent) parentPort?.postMessage(message);
}

/** print / log.* → console entry. Returns false once the console is full (Lua then stops sending). */
function consoleBridge(level, message) {
  if (!run || run.full) return false;
  const text = typeof message === 'string' ? message : String(message);
  if (run.entries >= run.limits.consoleMaxEntries || run.chars + text.length > run.limits.consoleMaxChars) {
    run.full = true;
    const notice = `[console truncated: more than ${run.limits.consoleMaxEntries} entries or ${run.limits.consoleMaxChars} characters]`;
    post({ type: 'console', id: run.id, entries: [{ level: 2, message: notice, timestamp: Date.now() }] });
    return false;
  }
  run.entries += 1;
  run.chars += text.length;
  // posted at once: the run may spin until the watchdog kills the worker, and these lines matter most then
  post({ type: 'console', id: run.id, entries: [{ level, message: text, timestamp: Date.now() }] });
  return true;
}

/** Synchronous host call: posts the request, blocks on the shared flag, reads the reply from the port. */
function hostBridge(name, argsJson) {
  if (!run) return '0no active run';
  run.hostSeq += 1;
  const callId = run.hostSeq;
  Atomics.store(signal, 0, 0);
  post({
    type: 'host',
    id: run.id,
    callId,
    name,
    args: argsJson,
    at: performance.timeOrigin + performance.now(),
  });
  while (Atomics.load(signal, 0) === 0) Atomics.wait(signal, 0, 0, 500);
  for (;;) {
    const received = receiveMessageOnPort(replyPort);
    if (!received) return `0${name}: host call failed (no reply)`;
    const reply = received.message;
    if (reply.callId !== callId) continue;
    return reply.ok ? `1${reply.json}` : `0${reply.error}`;
  }
}

/** Kind of the latest refused allocation (see `mem.refused`); `clear` resets it. */
function memStateBridge(clear) {
  const kind = mem.refused;
  if (clear) mem.refused = 0;
  return kind;
}

function phaseBridge(phase) {
  if (!run) return;
  if (phase === 1) {
    mem.max = run.limits.memoryBytes;
  } else {
    run.peakUser = mem.peak;
    mem.max = run.limits.memoryBytes + 8 * run.limits.maxResultBytes + 4 * 1024 * 1024;
  }
}

function schemaBridge(argumentSchema, configSchema) {
  if (!run) return;
  /** @type {Record<string, unknown>} */
  const message = { type: 'schema', id: run.id };
  if (typeof argumentSchema === 'string') message.argument_schema = JSON.parse(argumentSchema);
  if (typeof configSchema === 'string') message.config_schema = JSON.parse(configSchema);
  post(message);
}

/** Push a JS string as a Lua string with an explicit byte length (keeps NUL bytes). */
function pushBytes(L, text) {
  const length = mod.lengthBytesUTF8(text);
  const pointer = mod._malloc(length + 1);
  try {
    mod.stringToUTF8(text, pointer, length + 1);
    lua.lua_pushlstring(L, pointer, length);
  } finally {
    mod._free(pointer);
  }
}

/**
 * The prelude compiled once per worker (string.dump in a scratch state): loading this trusted bytecode is
 * several times faster than parsing the source on every run. User code is always loaded with mode "t".
 * @returns {Uint8Array | null}
 */
function compilePrelude() {
  const engine = new LuaEngine(lua, { openStandardLibs: false, injectObjects: false, enableProxy: false });
  try {
    const g = engine.global;
    const L = g.address;
    g.loadLibrary(LuaLibraries.String);
    g.loadString(PRELUDE, '=silicon');
    lua.lua_getglobal(L, 'string');
    lua.lua_getfield(L, -1, 'dump');
    lua.lua_pushvalue(L, -3);
    lua.lua_callk(L, 1, 1, 0, null);
    const lengthPointer = mod._malloc(4);
    try {
      const pointer = mod.ccall(
        'lua_tolstring',
        'number',
        ['number', 'number', 'number'],
        [L, -1, lengthPointer],
      );
      const length = mod.HEAPU32[lengthPointer >> 2] ?? 0;
      return pointer && length ? mod.HEAPU8.slice(pointer, pointer + length) : null;
    } finally {
      mod._free(lengthPointer);
    }
  } catch {
    return null;
  } finally {
    engine.global.close();
  }
}

const PRELUDE_BYTECODE = compilePrelude();

/** Push the prelude function (from bytecode when available). */
function loadPrelude(g) {
  if (!PRELUDE_BYTECODE) {
    g.loadString(PRELUDE, '=silicon');
    return;
  }
  const pointer = mod._malloc(PRELUDE_BYTECODE.length);
  try {
    mod.HEAPU8.set(PRELUDE_BYTECODE, pointer);
    g.assertOk(lua.luaL_loadbufferx(g.address, pointer, PRELUDE_BYTECODE.length, '=silicon', 'b'));
  } finally {
    mod._free(pointer);
  }
}

const LIBRARIES = [
  LuaLibraries.Base,
  LuaLibraries.Table,
  LuaLibraries.String,
  LuaLibraries.Math,
  LuaLibraries.Coroutine,
];

/**
 * @param {RunMessage} msg
 * @param {boolean} silent
 */
function execute(msg, silent) {
  const started = performance.now();
  run = {
    id: msg.id,
    silent,
    entries: 0,
    chars: 0,
    full: false,
    limits: msg,
    peakUser: undefined,
    hostSeq: 0,
  };
  /** @type {any} */
  let envelope;
  let recycle = false;
  /** @type {LuaEngine | undefined} */
  let engine;
  try {
    engine = new LuaEngine(lua, {
      openStandardLibs: false,
      injectObjects: false,
      enableProxy: false,
      traceAllocations: true,
    });
    const g = engine.global;
    const L = g.address;
    mem.used = g.memoryStats?.memoryUsed ?? 0; // private field: bytes allocated while the engine was set up
    mem.peak = mem.used;
    mem.max = Number.POSITIVE_INFINITY;
    mem.refused = 0;
    mem.stacks.clear();
    mem.exemptTotal = 0;
    peakView[0] = mem.peak;
    lua.lua_setallocf(L, allocPointer, 0);
    trackMainStack(L);
    for (const library of LIBRARIES) g.loadLibrary(library);
    lua.luaopen_utf8(L); // LuaGlobal.loadLibrary(UTF8) opens the string library instead
    lua.lua_setglobal(L, 'utf8');

    loadPrelude(g);
    lua.luaopen_debug(L); // the debug library only reaches the prelude, never the user's globals
    g.pushValue(consoleBridge);
    g.pushValue(hostBridge);
    g.pushValue(memStateBridge);
    g.pushValue(phaseBridge);
    g.pushValue(schemaBridge);
    pushBytes(L, msg.code);
    g.pushValue(msg.chunkName);
    g.pushValue(msg.entry);
    g.pushValue(msg.argsJson);
    g.pushValue(msg.argc);
    g.pushValue(msg.maxResultBytes);
    g.pushValue(JSON.stringify(msg.hostNames));
    g.pushValue(msg.memoryBytes);
    const values = g.runSync(14);
    envelope = JSON.parse(String(values[0]));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (mem.refused) {
      envelope = {
        status: -4,
        error: { message: `memory limit exceeded (${msg.memoryBytes} bytes)`, line: null },
      };
    } else {
      envelope = { status: -1, error: { message: `sandbox error: ${message.split('\n')[0]}`, line: null } };
      recycle = true; // the Lua/WASM state may be inconsistent: start a fresh worker
    }
  } finally {
    try {
      engine?.global.close();
    } catch {
      recycle = true;
    }
  }
  if (mod.HEAPU8 && mod.HEAPU8.length > 512 * 1024 * 1024) recycle = true;
  const result = {
    ...envelope,
    took: Math.max(0, Math.ceil(performance.now() - started)),
    memory: run.peakUser ?? mem.peak,
  };
  run = null;
  return { result, recycle };
}

// Warm the code paths once before announcing readiness, so the first real run is not the slowest.
execute(
  {
    type: 'run',
    id: -1,
    code: 'function run(a) print(a.x) return { ok = json.decode(json.encode({ 1, "x" })) } end',
    chunkName: 'warmup',
    entry: 'run',
    argsJson: '[{"x":1},{}]',
    argc: 2,
    hostNames: [],
    memoryBytes: 8 * 1024 * 1024,
    maxResultBytes: 65536,
    consoleMaxEntries: 10,
    consoleMaxChars: 1000,
  },
  true,
);

parentPort?.on('message', (/** @type {RunMessage} */ msg) => {
  if (msg.type !== 'run') return;
  const { result, recycle } = execute(msg, false);
  parentPort?.postMessage({ type: 'done', id: msg.id, result, recycle });
});
parentPort?.postMessage({ type: 'ready' });
