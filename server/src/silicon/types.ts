// Public types of the silicon Lua sandbox.
import { FunctionRunStatus, type FunctionRunStatusCode } from '@llmor/contracts';

/** Run status codes: the contracts' function-run codes (docs/reference/api.md, "Functions"). */
export const SiliconStatus = FunctionRunStatus;
export type SiliconStatusCode = FunctionRunStatusCode;

/** Console levels: print → Info, log.ok/info/warn/error → Ok/Info/Warn/Error, warn() → Warn. */
const ConsoleLevel = { Ok: 0, Info: 1, Warn: 2, Error: 3 } as const;
type ConsoleLevelCode = (typeof ConsoleLevel)[keyof typeof ConsoleLevel];

export interface SiliconLimits {
  /** Lua execution time per run in ms, excluding time spent waiting for host functions. Default 1000. */
  timeMs: number;
  /** Lua memory per run in bytes. Default 32 MiB. */
  memoryBytes: number;
  /** Largest result (and host-call payload) as JSON, in bytes. Default 1 MiB. */
  maxResultBytes: number;
  /** Wall-clock limit per run in ms, including host calls. Default 60 000. */
  wallMs: number;
}

export const DEFAULT_LIMITS: Readonly<SiliconLimits> = Object.freeze({
  timeMs: 1000,
  memoryBytes: 32 * 1024 * 1024,
  maxResultBytes: 1024 * 1024,
  wallMs: 60_000,
});

/** A host function callable from Lua. Arguments and result cross the boundary as JSON. */
export type SiliconHostFunction = (...args: unknown[]) => unknown;

export interface SiliconRunRequest {
  /** The Lua chunk. */
  code: string;
  /** Chunk name used in error positions (`name:LINE:`). Default `code`; at most 50 characters, no newline. */
  chunkName?: string;
  /** Global function to call after the chunk ran; dotted paths (`app.on_message`) are allowed. Default `run`. */
  entry?: string;
  /** Entry arguments as JSON values. Default `[arguments ?? {}, config ?? {}]`. */
  args?: unknown[];
  /** First argument of the default `args`. */
  arguments?: unknown;
  /** Second argument of the default `args`. */
  config?: unknown;
  limits?: Partial<SiliconLimits>;
  /** Host functions by name; `a.b` becomes field `b` of global table `a`, `name` a global function. */
  host?: Record<string, SiliconHostFunction>;
  /**
   * Whose run it is (a vendor): tenants' queues are served in turn, FIFO within each, and one tenant holds
   * at most `maxPerTenant` workers. Runs without a tenant share one queue, capped by the pool's size only.
   */
  tenant?: string | number;
}

export interface SiliconConsoleEntry {
  level: ConsoleLevelCode;
  message: string;
  /** ms since the epoch */
  timestamp: number;
}

export interface SiliconRunResult {
  status: SiliconStatusCode;
  /** Duration of the run in whole milliseconds, rounded up (queueing not included). */
  took: number;
  /** Peak Lua memory of the run in bytes. */
  memory: number;
  /** The entry's first return value as JSON (null unless status is 1). */
  result: unknown;
  console: SiliconConsoleEntry[];
  debug?: { breakpoint: number; string: string };
  error?: { message: string; line: number | null };
  argument_schema?: unknown;
  config_schema?: unknown;
}

export interface SiliconPoolOptions {
  /** Runs executed in parallel (one worker thread each). Default 2. */
  size?: number;
  /** Extra warm workers kept ready to replace killed ones. Default 1. */
  spares?: number;
  /** Runs one tenant may have waiting for a worker; beyond that its run() rejects. Default 256. */
  maxQueue?: number;
  /** Workers one tenant's runs may hold at once. Default half the pool's size, at least 1. */
  maxPerTenant?: number;
  /** Default limits for runs that do not set them. */
  defaults?: Partial<SiliconLimits>;
  /** Console caps per run. Defaults 1000 entries, 262 144 characters. */
  consoleMaxEntries?: number;
  consoleMaxChars?: number;
  /** A worker is replaced after this many runs (bounds WASM heap fragmentation). Default 2000. */
  recycleAfter?: number;
}

export interface SiliconPoolStats {
  size: number;
  workers: number;
  idle: number;
  busy: number;
  starting: number;
  queued: number;
  completed: number;
  /** workers terminated by the watchdog (time or wall limit) */
  killed: number;
  /** workers that exited unexpectedly */
  crashed: number;
  /** workers started in total, including replacements */
  started: number;
}
