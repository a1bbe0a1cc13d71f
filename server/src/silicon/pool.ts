// SiliconPool: runs Lua code in worker threads, one fresh Lua state per run, with a main-thread watchdog.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MessageChannel, type MessagePort, Worker } from 'node:worker_threads';
import { SERVER_ROOT } from '../platform/paths';
import { TenantQueues } from '../platform/tenant-queues';
import { CONTROL_BYTES, type HostReply, type WorkerMessage, type WorkerRunMessage } from './protocol';
import {
  DEFAULT_LIMITS,
  type SiliconConsoleEntry,
  type SiliconHostFunction,
  type SiliconLimits,
  type SiliconPoolOptions,
  type SiliconPoolStats,
  type SiliconRunRequest,
  type SiliconRunResult,
} from './types';

const WORKER_URL = pathToFileURL(join(SERVER_ROOT, 'src/silicon/worker.mjs'));
const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/;
const MIN_MEMORY = 256 * 1024;

/** Whose run it is, for fair sharing (`SiliconRunRequest.tenant`); runs without one share `NO_TENANT`. */
type Tenant = string | number;
const NO_TENANT: unique symbol = Symbol('no tenant');

interface Job {
  id: number;
  tenant: Tenant | typeof NO_TENANT;
  message: WorkerRunMessage;
  limits: SiliconLimits;
  host: Record<string, SiliconHostFunction>;
  resolve: (result: SiliconRunResult) => void;
  reject: (error: Error) => void;
  console: SiliconConsoleEntry[];
  schemas: { argument_schema?: unknown; config_schema?: unknown };
  startedAt: number;
  luaUsed: number;
  luaResumedAt: number;
  luaTimer?: NodeJS.Timeout;
  wallTimer?: NodeJS.Timeout;
  settled: boolean;
}

interface Slot {
  worker: Worker;
  phase: 'starting' | 'idle' | 'busy' | 'dead';
  signal: Int32Array;
  peak: Float64Array;
  port: MessagePort;
  runs: number;
  job: Job | null;
}

/** Absolute time in ms, comparable with the worker's `performance.timeOrigin + performance.now()`. */
function now(): number {
  return performance.timeOrigin + performance.now();
}

function positive(name: string, value: number, min: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`silicon: limits.${name} must be a positive number`);
  }
  return Math.max(min, Math.floor(value));
}

function resolveLimits(base: SiliconLimits, over: Partial<SiliconLimits> | undefined): SiliconLimits {
  const merged = { ...base, ...over };
  return {
    timeMs: positive('timeMs', merged.timeMs, 1),
    memoryBytes: positive('memoryBytes', merged.memoryBytes, MIN_MEMORY),
    maxResultBytes: positive('maxResultBytes', merged.maxResultBytes, 16),
    wallMs: positive('wallMs', merged.wallMs, 1),
  };
}

export class SiliconPool {
  private readonly size: number;
  private readonly spares: number;
  private readonly maxQueue: number;
  private readonly maxPerTenant: number;
  private readonly recycleAfter: number;
  private readonly consoleMaxEntries: number;
  private readonly consoleMaxChars: number;
  private readonly defaults: SiliconLimits;
  private readonly slots: Slot[] = [];
  /** Waiting runs, by tenant. */
  private readonly waiting = new TenantQueues<Job['tenant'], Job>();
  private nextId = 1;
  private closed = false;
  private startFailures = 0;
  private respawnTimer: NodeJS.Timeout | undefined;
  private readyWaiters: Array<{ resolve: () => void; reject: (error: Error) => void }> = [];
  private counters = { completed: 0, killed: 0, crashed: 0, started: 0 };

  constructor(options: SiliconPoolOptions = {}) {
    this.size = Math.max(1, Math.floor(options.size ?? 2));
    this.spares = Math.max(0, Math.floor(options.spares ?? 1));
    this.maxQueue = Math.max(0, Math.floor(options.maxQueue ?? 256));
    this.maxPerTenant = Math.max(1, Math.floor(options.maxPerTenant ?? this.size / 2));
    this.recycleAfter = Math.max(1, Math.floor(options.recycleAfter ?? 2000));
    this.consoleMaxEntries = Math.max(1, Math.floor(options.consoleMaxEntries ?? 1000));
    this.consoleMaxChars = Math.max(64, Math.floor(options.consoleMaxChars ?? 256 * 1024));
    this.defaults = resolveLimits(DEFAULT_LIMITS, options.defaults);
    this.ensureWorkers();
  }

  /** Runs Lua code. Resolves with the run result (never rejects for anything the Lua code does). */
  run(request: SiliconRunRequest): Promise<SiliconRunResult> {
    if (this.closed) return Promise.reject(new Error('silicon pool is closed'));
    let job: Job;
    try {
      job = this.prepare(request);
    } catch (error) {
      return Promise.reject(error);
    }
    if (this.waiting.waiting(job.tenant) >= this.maxQueue) {
      return Promise.reject(new Error(`silicon pool queue is full (${this.maxQueue} runs waiting)`));
    }
    return new Promise<SiliconRunResult>((resolve, reject) => {
      job.resolve = resolve;
      job.reject = reject;
      this.waiting.push(job.tenant, job);
      this.pump();
    });
  }

  /**
   * Resolves once `size` workers have started (useful before measuring or serving); rejects when a worker
   * fails to start while none is ready.
   */
  ready(): Promise<void> {
    if (this.closed) return Promise.reject(new Error('silicon pool is closed'));
    if (this.readyCount() >= this.size) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.readyWaiters.push({ resolve, reject });
      this.updateRefs();
    });
  }

  stats(): SiliconPoolStats {
    const count = (phase: Slot['phase']) => this.slots.filter((slot) => slot.phase === phase).length;
    return {
      size: this.size,
      workers: this.slots.length,
      idle: count('idle'),
      busy: count('busy'),
      starting: count('starting'),
      queued: this.waiting.size,
      ...this.counters,
    };
  }

  /** Rejects queued and running runs, terminates every worker. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.respawnTimer);
    const error = new Error('silicon pool closed');
    for (const job of this.waiting.drain()) this.fail(job, error);
    const terminations: Promise<unknown>[] = [];
    for (const slot of this.slots.splice(0)) {
      if (slot.job) this.fail(slot.job, error);
      slot.job = null;
      slot.phase = 'dead';
      slot.port.close();
      terminations.push(slot.worker.terminate());
    }
    for (const waiter of this.readyWaiters.splice(0)) waiter.reject(error);
    await Promise.allSettled(terminations);
  }

  // ---------------------------------------------------------------------------------------------------------

  private prepare(request: SiliconRunRequest): Job {
    if (typeof request?.code !== 'string') throw new TypeError('silicon: code must be a string');
    const chunkName = request.chunkName ?? 'code';
    if (typeof chunkName !== 'string' || !/^[^\r\n]{1,50}$/.test(chunkName)) {
      throw new TypeError('silicon: chunkName must be 1-50 characters without line breaks');
    }
    const entry = request.entry ?? 'run';
    if (typeof entry !== 'string' || !NAME_PATTERN.test(entry)) {
      throw new TypeError(`silicon: invalid entry name '${String(entry)}'`);
    }
    const host = request.host ?? {};
    const hostNames = Object.keys(host);
    for (const name of hostNames) {
      if (!NAME_PATTERN.test(name) || typeof host[name] !== 'function') {
        throw new TypeError(`silicon: invalid host function '${name}'`);
      }
    }
    const args = request.args ?? [request.arguments ?? {}, request.config ?? {}];
    if (!Array.isArray(args)) throw new TypeError('silicon: args must be an array');
    let argsJson: string;
    try {
      argsJson = JSON.stringify(args);
    } catch (error) {
      throw new TypeError(`silicon: args are not JSON-serialisable (${(error as Error).message})`);
    }
    const limits = resolveLimits(this.defaults, request.limits);
    const id = this.nextId++;
    return {
      id,
      tenant: request.tenant ?? NO_TENANT,
      message: {
        type: 'run',
        id,
        code: request.code,
        chunkName,
        entry,
        argsJson,
        argc: args.length,
        hostNames,
        memoryBytes: limits.memoryBytes,
        maxResultBytes: limits.maxResultBytes,
        consoleMaxEntries: this.consoleMaxEntries,
        consoleMaxChars: this.consoleMaxChars,
      },
      limits,
      host,
      resolve: () => {},
      reject: () => {},
      console: [],
      schemas: {},
      startedAt: 0,
      luaUsed: 0,
      luaResumedAt: 0,
      settled: false,
    };
  }

  private readyCount(): number {
    return this.slots.filter((slot) => slot.phase === 'idle' || slot.phase === 'busy').length;
  }

  private ensureWorkers(): void {
    if (this.closed || this.respawnTimer) return;
    const target = this.size + this.spares;
    if (this.startFailures > 0 && this.slots.length < target) {
      // back off while workers fail to start
      const delay = Math.min(5000, 100 * 2 ** Math.min(this.startFailures, 6));
      this.respawnTimer = setTimeout(() => {
        this.respawnTimer = undefined;
        if (this.closed) return;
        this.spawn();
        this.ensureWorkers();
      }, delay);
      this.respawnTimer.unref();
      return;
    }
    while (this.slots.length < target) this.spawn();
  }

  private spawn(): void {
    const control = new SharedArrayBuffer(CONTROL_BYTES);
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(WORKER_URL, {
      workerData: { control, replyPort: port2 },
      transferList: [port2],
      execArgv: [],
      env: {},
    });
    const slot: Slot = {
      worker,
      phase: 'starting',
      signal: new Int32Array(control, 0, 2),
      peak: new Float64Array(control, 8, 1),
      port: port1,
      runs: 0,
      job: null,
    };
    this.counters.started += 1;
    this.slots.push(slot);
    worker.on('message', (message: WorkerMessage) => this.onMessage(slot, message));
    worker.on('error', (error) => this.onExit(slot, error));
    worker.on('exit', (code) => this.onExit(slot, new Error(`sandbox worker exited with code ${code}`)));
    this.updateRefs();
  }

  private onMessage(slot: Slot, message: WorkerMessage): void {
    if (slot.phase === 'dead') return;
    if (message.type === 'ready') {
      if (slot.phase === 'starting') slot.phase = 'idle';
      this.startFailures = 0;
      if (this.readyCount() >= this.size) for (const waiter of this.readyWaiters.splice(0)) waiter.resolve();
      this.pump(); // also refreshes the workers' ref state
      return;
    }
    const job = slot.job;
    if (!job || job.id !== message.id || job.settled) return;
    switch (message.type) {
      case 'console':
        for (const entry of message.entries) job.console.push(entry);
        break;
      case 'schema':
        if ('argument_schema' in message) job.schemas.argument_schema = message.argument_schema;
        if ('config_schema' in message) job.schemas.config_schema = message.config_schema;
        break;
      case 'host':
        void this.onHostCall(slot, job, message);
        break;
      case 'done': {
        const r = message.result;
        const result: SiliconRunResult = {
          status: r.status,
          took: r.took,
          memory: r.memory,
          result: r.result ?? null,
          console: job.console,
        };
        if (r.debug) result.debug = r.debug;
        if (r.error) result.error = r.error;
        Object.assign(result, job.schemas);
        this.counters.completed += 1;
        this.finish(job, result);
        slot.job = null;
        slot.runs += 1;
        if (message.recycle || slot.runs >= this.recycleAfter) this.retire(slot);
        else slot.phase = 'idle';
        this.pump();
        break;
      }
    }
  }

  private async onHostCall(
    slot: Slot,
    job: Job,
    message: Extract<WorkerMessage, { type: 'host' }>,
  ): Promise<void> {
    // the Lua clock stops while the host function runs
    clearTimeout(job.luaTimer);
    job.luaUsed += Math.max(0, message.at - job.luaResumedAt);
    let reply: HostReply;
    try {
      const fn = job.host[message.name];
      if (!fn) throw new Error(`host function '${message.name}' is not available`);
      const args = JSON.parse(message.args) as unknown[];
      const value = await fn(...args);
      let json: string | undefined;
      try {
        json = JSON.stringify(value);
      } catch (error) {
        throw new Error(
          `${message.name}: host result is not JSON-serialisable (${(error as Error).message})`,
        );
      }
      reply = { callId: message.callId, ok: true, json: json ?? 'null' };
    } catch (error) {
      reply = {
        callId: message.callId,
        ok: false,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    if (job.settled || slot.job !== job || slot.phase === 'dead') return;
    job.luaResumedAt = now();
    slot.port.postMessage(reply);
    Atomics.store(slot.signal, 0, 1);
    Atomics.notify(slot.signal, 0);
    this.armLuaTimer(slot, job, job.limits.timeMs - job.luaUsed);
  }

  private armLuaTimer(slot: Slot, job: Job, ms: number): void {
    clearTimeout(job.luaTimer);
    job.luaTimer = setTimeout(() => this.kill(slot, job, 'time'), Math.max(0, ms));
  }

  private pump(): void {
    while (this.waiting.size > 0 && !this.closed) {
      let busy = 0;
      let idle: Slot | undefined;
      const holding = new Map<Job['tenant'], number>();
      for (const slot of this.slots) {
        if (slot.phase === 'busy' && slot.job) {
          busy += 1;
          holding.set(slot.job.tenant, (holding.get(slot.job.tenant) ?? 0) + 1);
        } else if (slot.phase === 'idle' && !idle) idle = slot;
      }
      if (busy >= this.size || !idle) break;
      const job = this.waiting.next((tenant) => this.mayServe(tenant, holding));
      if (!job) break;
      this.dispatch(idle, job);
    }
    this.updateRefs();
  }

  /**
   * A tenant's next run may start while it holds fewer than `maxPerTenant` workers (ADR 0021). The cap is
   * strict, even with nobody else waiting: a worker blocked in a host call cannot be taken back, so only a
   * worker never handed out is sure to be free when another tenant's run arrives. Runs without a tenant
   * are capped by the pool's size only.
   */
  private mayServe(tenant: Job['tenant'], holding: Map<Job['tenant'], number>): boolean {
    return tenant === NO_TENANT || (holding.get(tenant) ?? 0) < this.maxPerTenant;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.phase = 'busy';
    slot.job = job;
    slot.peak[0] = 0;
    job.startedAt = now();
    job.luaResumedAt = job.startedAt;
    job.wallTimer = setTimeout(() => this.kill(slot, job, 'wall'), job.limits.wallMs);
    this.armLuaTimer(slot, job, job.limits.timeMs);
    slot.worker.postMessage(job.message);
  }

  /** Watchdog: the run exceeded its time (or wall) limit; the worker is terminated and replaced. */
  private kill(slot: Slot, job: Job, reason: 'time' | 'wall'): void {
    if (job.settled || slot.job !== job) return;
    const message =
      reason === 'time'
        ? `time limit exceeded (${job.limits.timeMs} ms)`
        : `wall-clock limit exceeded (${job.limits.wallMs} ms, waits on host calls included)`;
    const result: SiliconRunResult = {
      status: -3,
      took: Math.max(0, Math.ceil(now() - job.startedAt)),
      memory: slot.peak[0] ?? 0,
      result: null,
      console: job.console,
      error: { message, line: null },
    };
    Object.assign(result, job.schemas);
    this.counters.killed += 1;
    this.finish(job, result);
    slot.job = null;
    this.retire(slot);
    this.pump();
  }

  private onExit(slot: Slot, error: Error): void {
    if (slot.phase === 'dead') return;
    const wasStarting = slot.phase === 'starting';
    const job = slot.job;
    slot.job = null;
    this.counters.crashed += 1;
    if (job && !job.settled) {
      const outOfMemory = (error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      const result: SiliconRunResult = {
        status: outOfMemory ? -4 : -1,
        took: Math.max(0, Math.ceil(now() - job.startedAt)),
        memory: slot.peak[0] ?? 0,
        result: null,
        console: job.console,
        error: { message: `sandbox worker failed: ${error.message}`, line: null },
      };
      Object.assign(result, job.schemas);
      this.finish(job, result);
    }
    if (wasStarting) {
      this.startFailures += 1;
      if (this.readyCount() === 0) {
        // nothing can serve the queue until a worker starts: fail fast instead of hanging
        const failure = new Error(`silicon worker failed to start: ${error.message}`);
        for (const queued of this.waiting.drain()) this.fail(queued, failure);
        for (const waiter of this.readyWaiters.splice(0)) waiter.reject(failure);
      }
    }
    this.retire(slot);
    this.pump();
  }

  private retire(slot: Slot): void {
    slot.phase = 'dead';
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
    slot.port.close();
    void slot.worker.terminate().catch(() => {});
    this.ensureWorkers();
  }

  private finish(job: Job, result: SiliconRunResult): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.luaTimer);
    clearTimeout(job.wallTimer);
    job.resolve(result);
  }

  private fail(job: Job, error: Error): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.luaTimer);
    clearTimeout(job.wallTimer);
    job.reject(error);
  }

  /** Workers keep the process alive only while they have (or are about to get) work. */
  private updateRefs(): void {
    const waiting = this.waiting.size > 0 || this.readyWaiters.length > 0;
    for (const slot of this.slots) {
      if (slot.phase === 'busy' || (slot.phase === 'starting' && waiting)) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}

let shared: SiliconPool | undefined;

/** The process-wide pool if it was created (reading its figures must not start workers). */
export const existingSharedSiliconPool = (): SiliconPool | undefined => shared;

/** A process-wide pool, created on first use. */
export function getSharedSiliconPool(options?: SiliconPoolOptions): SiliconPool {
  shared ??= new SiliconPool(options);
  return shared;
}

export async function closeSharedSiliconPool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
