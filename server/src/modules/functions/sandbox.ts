/**
 * Functions over the silicon sandbox: the process's pools, loading code for its schemas, running a
 * function and storing the run, and the host functions (clock, state, relay) Lua code gets.
 */
import {
  type FunctionCodeError,
  type FunctionRunStatusCode,
  isPlainObject,
  RelayMessageType,
} from '@llmor/contracts';
import { Gauge } from 'prom-client';
import type { AppContext } from '../../platform/context';
import { applyPatch, deepClone, type Operation } from '../../platform/json-patch';
import type { Metrics } from '../../platform/metrics';
import { annotateSpan, inSpan, type TraceContext } from '../../platform/tracing';
import {
  closeSharedSiliconPool,
  existingSharedSiliconPool,
  getSharedSiliconPool,
  type SiliconHostFunction,
  SiliconPool,
  type SiliconRunResult,
  SiliconStatus,
} from '../../silicon';
import {
  getConversationState,
  patchConversationState,
  type StateTarget,
  setConversationState,
} from '../conversations/state';
import { type FunctionRunRow, insertRun } from './repo';

export type HostFunctions = Record<string, SiliconHostFunction>;

let nested: SiliconPool | undefined;

/**
 * The pool every top-level run uses (editor builds, tool calls, silicon apps). Runs name their vendor as
 * the pool's tenant, so one vendor's runs never hold every worker (ADR 0021).
 */
export function siliconPool(): SiliconPool {
  return getSharedSiliconPool();
}

/**
 * A separate pool for functions a silicon app calls (`functions.<key>(args)`) while its own run holds
 * a worker of the main pool: sharing one pool could exhaust it with apps waiting on their functions.
 */
export function nestedSiliconPool(): SiliconPool {
  nested ??= new SiliconPool({ size: 2, spares: 0 });
  return nested;
}

/**
 * The pools' workers by state and their queued runs, read at each scrape: `main` for top-level runs,
 * `nested` for functions a silicon app calls. A pool not yet used shows nothing.
 */
export function registerSiliconPoolMetrics(metrics: Metrics): void {
  const pools = () =>
    [
      ['main', existingSharedSiliconPool()],
      ['nested', nested],
    ] as const;
  new Gauge({
    name: 'llmor_lua_workers',
    help: 'Lua sandbox workers by pool and state (busy, idle, starting).',
    labelNames: ['pool', 'state'],
    registers: [metrics],
    collect() {
      this.reset();
      for (const [pool, live] of pools()) {
        if (!live) continue;
        const stats = live.stats();
        for (const state of ['busy', 'idle', 'starting'] as const) this.set({ pool, state }, stats[state]);
      }
    },
  });
  new Gauge({
    name: 'llmor_lua_queued_runs',
    help: 'Lua runs waiting for a free worker, by pool.',
    labelNames: ['pool'],
    registers: [metrics],
    collect() {
      this.reset();
      for (const [pool, live] of pools()) if (live) this.set({ pool }, live.stats().queued);
    },
  });
}

/** Closes both pools (server shutdown). */
export async function closeSiliconPools(): Promise<void> {
  const pool = nested;
  nested = undefined;
  await Promise.all([closeSharedSiliconPool(), pool?.close()]);
}

// ---------------------------------------------------------------------------------------------------
// Schemas
// ---------------------------------------------------------------------------------------------------

/** An entry no code defines: the chunk runs, its schemas are read, then the run stops there. */
const SCHEMA_ENTRY = '__llmor_schema_only__';
const SCHEMA_ENTRY_MISSING = `function '${SCHEMA_ENTRY}' is not defined`;

export type SchemaLoad =
  | { ok: true; argumentSchema: Record<string, unknown> | null; configSchema: Record<string, unknown> | null }
  | { ok: false; error: FunctionCodeError };

const asSchema = (v: unknown): Record<string, unknown> | null => (isPlainObject(v) ? v : null);

/**
 * Loads code (its top level runs, `run` is not called) and reads `schema.arguments` / `schema.config`.
 * Code that does not load — a syntax error, an error or limit while the top level runs — is `ok: false`.
 */
export async function loadSchemas(code: string, vendorId?: number): Promise<SchemaLoad> {
  const r = await siliconPool().run({
    code,
    tenant: vendorId,
    entry: SCHEMA_ENTRY,
    args: [],
    host: baseHost({ scratchState: true }),
  });
  if (r.status === SiliconStatus.RuntimeError && r.error?.message === SCHEMA_ENTRY_MISSING) {
    return { ok: true, argumentSchema: asSchema(r.argument_schema), configSchema: asSchema(r.config_schema) };
  }
  return {
    ok: false,
    error: {
      status: r.status as FunctionRunStatusCode,
      message:
        r.error?.message ??
        (r.status === SiliconStatus.Breakpoint ? 'Stopped at a breakpoint' : 'The code did not load'),
      line: r.error?.line ?? r.debug?.breakpoint ?? null,
    },
  };
}

// ---------------------------------------------------------------------------------------------------
// Host functions
// ---------------------------------------------------------------------------------------------------

/** `clock.now()` → ISO 8601 UTC time, `clock.ms()` → ms since the epoch (the sandbox has no `os`). */
function clockHost(): HostFunctions {
  return {
    'clock.now': () => new Date().toISOString(),
    'clock.ms': () => Date.now(),
  };
}

/** `state.get/set/patch` on the conversation's durable state (announced to the room by state.ts). */
function conversationStateHost(ctx: AppContext, target: StateTarget): HostFunctions {
  return {
    'state.get': () => getConversationState(ctx, target),
    'state.set': (value: unknown) => setConversationState(ctx, target, value),
    'state.patch': (patches: unknown) => patchConversationState(ctx, target, patches),
  };
}

/**
 * `state.get/set/patch` on a scratch state that lives for one run (editor builds have no conversation),
 * so code written for conversations runs in the editor unchanged.
 */
function scratchStateHost(): HostFunctions {
  let state: Record<string, unknown> = {};
  return {
    'state.get': () => state,
    'state.set': (value: unknown) => {
      if (!isPlainObject(value)) throw new Error('The state must be a JSON object.');
      state = value;
      return state;
    },
    'state.patch': (patches: unknown) => {
      if (!Array.isArray(patches))
        throw new Error('Patches must be an array of JSON Patch (RFC 6902) operations.');
      try {
        const next = applyPatch(deepClone(state), patches as Operation[], true, false, true).newDocument;
        if (!isPlainObject(next)) throw new Error('The state must be a JSON object.');
        state = next;
      } catch (err) {
        throw new Error(`Invalid patch: ${(err as Error).message.split('\n')[0]}`);
      }
      return state;
    },
  };
}

/**
 * What every function run gets: `clock.*`, `state.*` (the conversation's, or a scratch state) and
 * `relay.emit(type, data)` (to the conversation's room; a no-op without one).
 */
export function baseHost(
  opts:
    | { scratchState: true }
    | { ctx: AppContext; target: StateTarget; emit: (type: string, data: unknown) => void },
): HostFunctions {
  if ('scratchState' in opts) {
    return { ...clockHost(), ...scratchStateHost(), 'relay.emit': () => null };
  }
  return {
    ...clockHost(),
    ...conversationStateHost(opts.ctx, opts.target),
    'relay.emit': relayEmitHost(opts.emit),
  };
}

/** Message types the engine itself sends; scripts may not fake them. */
const RESERVED_TYPES = new Set<string>(Object.values(RelayMessageType));

function relayEmitHost(emit: (type: string, data: unknown) => void): SiliconHostFunction {
  return (type: unknown, data: unknown) => {
    if (typeof type !== 'string' || type.trim() === '' || type.length > 100) {
      throw new Error('relay.emit: the type must be a non-empty string of at most 100 characters');
    }
    if (RESERVED_TYPES.has(type)) throw new Error(`relay.emit: '${type}' is reserved`);
    emit(type, data ?? null);
    return null;
  };
}

// ---------------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------------

export interface FunctionRunInput {
  code: string;
  arguments: Record<string, unknown>;
  config: Record<string, unknown>;
  host: HostFunctions;
  conversationId?: number | null;
  pool?: SiliconPool;
  /** Where the run's span goes (a tool call's, a request's); none: a trace of its own. */
  trace?: TraceContext;
}

/** Runs `run(arguments, config)` with the default limits and stores the run (with the function's counters). */
export async function runAndStore(
  ctx: AppContext,
  fn: { id: number; vendorId: number },
  input: FunctionRunInput,
): Promise<{ result: SiliconRunResult; run: FunctionRunRow | null }> {
  const result = await inSpan(
    'function.run',
    { 'llmor.vendor.id': fn.vendorId, 'llmor.function.id': fn.id },
    input.trace,
    async (here) => {
      const r = await (input.pool ?? siliconPool()).run({
        code: input.code,
        arguments: input.arguments,
        config: input.config,
        host: input.host,
        tenant: fn.vendorId,
      });
      // The status only: a Lua error's text may quote the run's data.
      const failed = r.status === SiliconStatus.Ok ? undefined : `the run ended with status ${r.status}`;
      annotateSpan(here, { 'llmor.function.status': r.status, 'llmor.function.took_ms': r.took }, failed);
      return r;
    },
  );
  const run = await insertRun(ctx.db, fn.vendorId, fn.id, {
    conversationId: input.conversationId ?? null,
    status: result.status,
    took: result.took,
    memory: result.memory,
    arguments: input.arguments,
    config: input.config,
    result: result.result ?? null,
    error: result.error ?? null,
    console: result.console,
    debug: result.debug ?? null,
  });
  return { result, run };
}

/** A failed run in one line: `Line 3: attempt to index a nil value`. */
export function failureText(r: SiliconRunResult): string {
  if (r.status === SiliconStatus.Breakpoint && r.debug) {
    return `Stopped at a breakpoint on line ${r.debug.breakpoint}: ${r.debug.string}`;
  }
  const message = r.error?.message ?? `The run failed (status ${r.status})`;
  return r.error?.line != null ? `Line ${r.error.line}: ${message}` : message;
}
