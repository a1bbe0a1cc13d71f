/**
 * The parse pool (ADR 0053): every imported or uploaded file is read in one of a few worker threads, never
 * on the thread that serves HTTP. Each file has a wall-time limit and a heap limit (the thread is ended
 * past either, and replaced on the next file); a vendor's files hold at most its share of the threads and
 * of the queue, served in turn like the Lua pool's runs (ADR 0021); a full queue answers 429; a caller that
 * goes away ends its file's thread, so nothing of it is stored.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { type ErrorBody, ErrorName, type FileImportMode } from '@llmor/contracts';
import { Gauge } from 'prom-client';
import type { Config } from '../../platform/config';
import { AppError, badRequest, tooManyRequests } from '../../platform/errors';
import { UploadedBody } from '../../platform/http/upload-body';
import type { Metrics } from '../../platform/metrics';
import { SERVER_ROOT } from '../../platform/paths';
import { TenantQueues } from '../../platform/tenant-queues';
import { esbuild, workerScript } from '../../platform/worker-script';
import { type DocumentLimits, tooLarge } from './files';
import type { ImportedFile, ParsedDocument } from './parse';
import type { ParseAnswer, ParseJob } from './parse-protocol';

/**
 * The thread's script: `dist/document-parse-worker.js` built (scripts/build.mjs). From sources it is
 * TypeScript importing more TypeScript: bundled by esbuild into the cache, npm packages left as imports.
 */
function workerEntry(): URL {
  return workerScript('document-parse-worker', import.meta.url.endsWith('.ts'), () => {
    const manifest = JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8'));
    const { outputFiles } = esbuild().buildSync({
      entryPoints: [join(SERVER_ROOT, 'src/modules/datastores/parse-worker.ts')],
      bundle: true,
      write: false,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      external: Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@llmor/')),
      logLevel: 'silent',
    });
    return outputFiles[0]!.contents;
  });
}

let entry: URL | undefined;

export interface ParsePoolOptions {
  /** Threads (default: the cores less one, at least 2, so one vendor's share always leaves another thread). */
  size?: number;
  /** Threads one vendor's files may hold at once (default half the pool, at least 1). */
  perVendor?: number;
  /** Files waiting in all; a vendor may hold half the places (at least 1). */
  queue: number;
  timeoutMs: number;
  memoryMb: number;
  limits: DocumentLimits;
}

/** The pool's options from the settings (README "Configuration"). */
function parsePoolOptions(config: Config): ParsePoolOptions {
  return {
    size: config.DOCUMENT_PARSE_WORKERS,
    perVendor: config.DOCUMENT_PARSE_WORKERS_PER_VENDOR,
    queue: config.DOCUMENT_PARSE_QUEUE,
    timeoutMs: config.DOCUMENT_PARSE_TIMEOUT_MS,
    memoryMb: config.DOCUMENT_PARSE_MEMORY_MB,
    limits: {
      maxDepth: config.DOCUMENT_MAX_DEPTH,
      maxInflatedBytes: config.DOCUMENT_MAX_INFLATED_MB * 1024 * 1024,
      maxInflateRatio: config.DOCUMENT_MAX_INFLATE_RATIO,
      maxPages: config.DOCUMENT_MAX_PAGES,
      maxParagraphs: config.DOCUMENT_MAX_PARAGRAPHS,
      maxTextChars: config.DOCUMENT_MAX_TEXT_CHARS,
    },
  };
}

/** One file to read, for a vendor. */
export interface ParseRequest {
  vendorId: number;
  mode: FileImportMode;
  /** An upload's body (its blocks move to the thread: the caller must not use them again) or the import's data. */
  data: unknown;
  file?: ImportedFile;
}

interface Job {
  id: number;
  request: ParseRequest;
  resolve: (documents: ParsedDocument[]) => void;
  reject: (error: Error) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
  timer?: NodeJS.Timeout;
  slot?: Slot;
  settled?: boolean;
}

interface Slot {
  worker: Worker;
  job: Job | null;
}

/** The caller went away before its file was read (nobody hears the answer; the log does). */
export const uploadCancelled = () =>
  badRequest('The upload was cancelled before its file was read; nothing was stored.');

export class ParsePool {
  readonly size: number;
  readonly perVendor: number;
  private readonly perVendorQueue: number;
  private readonly slots: Slot[] = [];
  /** Waiting files, by vendor. */
  private readonly waiting = new TenantQueues<number, Job>();
  private nextId = 1;
  private closed = false;
  /** Threads started, and ended by a limit, a crash or a cancellation (for tests and figures). */
  readonly counters = { started: 0, ended: 0 };

  constructor(private readonly options: ParsePoolOptions) {
    this.size = options.size ?? Math.max(2, availableParallelism() - 1);
    this.perVendor = Math.min(this.size, Math.max(1, options.perVendor ?? Math.floor(this.size / 2)));
    this.perVendorQueue = Math.max(1, Math.floor(options.queue / 2));
  }

  /**
   * The documents of one file, read in a thread. Rejects with the file's refusal (400/413), 429 when the
   * queue (or the vendor's half of it) is full, 413 past the time or memory limit, 400 once `signal`
   * aborts (the thread reading it is ended).
   */
  parse(request: ParseRequest, signal?: AbortSignal): Promise<ParsedDocument[]> {
    if (this.closed) return Promise.reject(new Error('the parse pool is closed'));
    if (signal?.aborted) return Promise.reject(uploadCancelled());
    if (
      this.waiting.size >= this.options.queue ||
      this.waiting.waiting(request.vendorId) >= this.perVendorQueue
    ) {
      const seconds = Math.min(60, Math.ceil(this.options.timeoutMs / 1000));
      return Promise.reject(
        tooManyRequests(
          seconds,
          `Too many files are waiting to be read (DOCUMENT_PARSE_QUEUE); try again in ${seconds} s.`,
        ),
      );
    }
    return new Promise<ParsedDocument[]>((resolve, reject) => {
      const job: Job = { id: this.nextId++, request, resolve, reject, signal };
      if (signal) {
        job.onAbort = () => this.cancel(job);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.waiting.push(request.vendorId, job);
      this.pump();
    });
  }

  /** Threads reading a file now, and files waiting. */
  stats(): { busy: number; threads: number; queued: number } {
    return {
      busy: this.slots.filter((s) => s.job).length,
      threads: this.slots.length,
      queued: this.waiting.size,
    };
  }

  /** Refuses waiting files, ends every thread (server shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    const error = new Error('the parse pool is closed');
    for (const job of this.waiting.drain()) this.settle(job, error);
    const slots = this.slots.splice(0);
    for (const slot of slots) if (slot.job) this.settle(slot.job, error);
    await Promise.allSettled(slots.map((slot) => slot.worker.terminate()));
  }

  // ---------------------------------------------------------------------------------------------------

  private pump(): void {
    while (!this.closed && this.waiting.size > 0) {
      const holding = new Map<number, number>();
      let idle: Slot | undefined;
      for (const slot of this.slots) {
        if (slot.job) {
          const vendor = slot.job.request.vendorId;
          holding.set(vendor, (holding.get(vendor) ?? 0) + 1);
        } else idle ??= slot;
      }
      if (!idle && this.slots.length >= this.size) break;
      // The oldest file of the next vendor in turn that holds fewer than its share of the threads.
      const job = this.waiting.next((vendor) => (holding.get(vendor) ?? 0) < this.perVendor);
      if (!job) break;
      this.dispatch(idle ?? this.spawn(), job);
    }
    // Idle threads do not keep the process alive.
    for (const slot of this.slots) {
      if (slot.job) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private spawn(): Slot {
    entry ??= workerEntry();
    const worker = new Worker(entry, {
      execArgv: [],
      env: {},
      resourceLimits: { maxOldGenerationSizeMb: this.options.memoryMb },
    });
    const slot: Slot = { worker, job: null };
    this.counters.started += 1;
    this.slots.push(slot);
    worker.on('message', (answer: ParseAnswer) => this.onAnswer(slot, answer));
    worker.on('error', (err) => this.onEnd(slot, err));
    worker.on('exit', (code) => this.onEnd(slot, new Error(`the parse thread stopped (exit ${code})`)));
    return slot;
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.job = job;
    job.slot = slot;
    job.timer = setTimeout(() => {
      this.end(slot);
      this.settle(
        job,
        tooLarge(
          `Reading the file took longer than ${this.options.timeoutMs} ms (DOCUMENT_PARSE_TIMEOUT_MS) and was stopped; split it and import the parts.`,
        ),
      );
    }, this.options.timeoutMs);
    const { request } = job;
    const { data } = request;
    const upload = data instanceof UploadedBody;
    const message: ParseJob = {
      id: job.id,
      mode: request.mode,
      ...(upload ? { blocks: data.blocks } : { data }),
      file: request.file,
      limits: this.options.limits,
    };
    // An upload's blocks move to the thread rather than being copied on this one (each owns its buffer).
    const transfer = upload ? data.blocks.map((block) => block.buffer) : [];
    try {
      slot.worker.postMessage(message, transfer);
    } catch (err) {
      // Data the structured clone cannot copy (nested past its stack): refused; the thread never saw it.
      slot.job = null;
      this.settle(job, badRequest(`The data could not be read: ${(err as Error).message}`));
      queueMicrotask(() => this.pump());
    }
  }

  private onAnswer(slot: Slot, answer: ParseAnswer): void {
    const job = slot.job;
    if (!job || job.id !== answer.id) return;
    slot.job = null;
    if (answer.ok) this.settle(job, null, answer.documents);
    else this.settle(job, fromBody(answer.error));
    this.pump();
  }

  /** The thread died (out of memory, a crash) or was ended: its file is refused, the slot freed. */
  private onEnd(slot: Slot, err: Error): void {
    const index = this.slots.indexOf(slot);
    if (index < 0) return;
    this.slots.splice(index, 1);
    this.counters.ended += 1;
    const job = slot.job;
    slot.job = null;
    void slot.worker.terminate();
    if (job) {
      const outOfMemory = (err as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.settle(
        job,
        outOfMemory
          ? tooLarge(
              `Reading the file needed more than ${this.options.memoryMb} MiB of memory (DOCUMENT_PARSE_MEMORY_MB) and was stopped; split it and import the parts.`,
            )
          : new AppError(ErrorName.BadRequest, `The file could not be read: ${err.message}`),
      );
    }
    this.pump();
  }

  /** Ends a thread (its file over a limit, or its caller gone); the next file starts a new one. */
  private end(slot: Slot): void {
    slot.job = null;
    this.onEnd(slot, new Error('ended'));
  }

  private cancel(job: Job): void {
    if (job.slot) {
      if (job.slot.job === job) this.end(job.slot);
    } else {
      this.waiting.remove(job.request.vendorId, job);
    }
    this.settle(job, uploadCancelled());
  }

  private settle(job: Job, error: Error | null, documents?: ParsedDocument[]): void {
    if (job.settled) return;
    job.settled = true;
    clearTimeout(job.timer);
    if (job.onAbort) job.signal?.removeEventListener('abort', job.onAbort);
    job.onAbort = undefined;
    if (error) job.reject(error);
    else job.resolve(documents ?? []);
  }
}

/** The thread's refusal as the error the request pipeline answers. */
function fromBody(body: ErrorBody): AppError {
  return new AppError(body.name as ErrorName, body.message, {
    ...(body.errors && { errors: body.errors as ErrorBody['errors'] }),
    ...(body.code !== undefined && { code: body.code }),
  });
}

const pools = new WeakMap<Config, ParsePool>();

/** The server's pool, made on first use from its settings (one per server: tests start several). */
export function parsePool(config: Config): ParsePool {
  let pool = pools.get(config);
  if (!pool) {
    pool = new ParsePool(parsePoolOptions(config));
    pools.set(config, pool);
  }
  return pool;
}

/**
 * The pool's threads reading and idle, and the files waiting, read at each scrape (README "Operating");
 * a pool not yet used shows nothing.
 */
export function registerParsePoolMetrics(metrics: Metrics, config: Config): void {
  new Gauge({
    name: 'llmor_document_parse_threads',
    help: 'Threads of the document parse pool by state (busy, idle).',
    labelNames: ['state'],
    registers: [metrics],
    collect() {
      this.reset();
      const stats = pools.get(config)?.stats();
      if (!stats) return;
      this.set({ state: 'busy' }, stats.busy);
      this.set({ state: 'idle' }, stats.threads - stats.busy);
    },
  });
  new Gauge({
    name: 'llmor_document_parse_queued',
    help: 'Files waiting for a thread of the document parse pool.',
    registers: [metrics],
    collect() {
      this.reset();
      const stats = pools.get(config)?.stats();
      if (stats) this.set(stats.queued);
    },
  });
}

/** Ends the server's pool (on close), if it was made. */
export async function closeParsePool(config: Config): Promise<void> {
  const pool = pools.get(config);
  pools.delete(config);
  await pool?.close();
}
