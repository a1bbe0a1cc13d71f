/**
 * The server's side of the embedded database's thread (ADR 0019): the part of PGlite's API that drizzle,
 * the migrator and pg-boss use — `query`, `exec`, `transaction`, `close` — as messages to
 * `pglite-worker.ts`, where PGlite runs.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { QueryOptions, Results } from '@electric-sql/pglite';
import { esbuild, workerScript } from '../worker-script';
import type { PgliteRequest, PgliteResponse, PgliteWorkerData, SerializedError } from './pglite-protocol';

type RequestBody = PgliteRequest extends infer R ? (R extends PgliteRequest ? Omit<R, 'id'> : never) : never;

/** The worker's script: `dist/pglite-worker.js` built, else its TypeScript compiled into the cache. */
function workerEntry(): URL {
  return workerScript('pglite-worker', import.meta.url.endsWith('.ts'), () => {
    const source = readFileSync(new URL('./pglite-worker.ts', import.meta.url), 'utf8');
    return esbuild().transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code;
  });
}

function toError(error: SerializedError): Error {
  const { message, name, ...fields } = error;
  return Object.assign(new Error(message), name ? { name } : {}, fields);
}

export interface PgliteThreadTransaction {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
}

export class PgliteThread {
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private nextId = 1;
  private stopped: Error | undefined;
  /** Set once the database is open: a failed open is the opener's error, not a crash. */
  private opened = false;

  private constructor(
    private readonly worker: Worker,
    private readonly onStop: (reason: Error) => void,
  ) {
    worker.on('message', (message: PgliteResponse) => {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (this.pending.size === 0) worker.unref();
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(toError(message.error));
    });
    const stop = (reason: Error) => {
      const unexpected = this.opened && this.stopped === undefined;
      this.stopped ??= reason;
      for (const waiting of this.pending.values()) waiting.reject(this.stopped);
      this.pending.clear();
      if (unexpected) this.onStop(reason);
    };
    worker.on('error', (err) => stop(new Error(`the embedded database stopped: ${err.message}`)));
    worker.on('exit', (code) => stop(new Error(`the embedded database stopped (exit ${code})`)));
  }

  /**
   * Starts the thread and opens the database in it; rejects with the database's own error. `onStop` hears
   * of a thread that ends without `close` (a crash): every statement fails from then on.
   */
  static async open(data: PgliteWorkerData, onStop: (reason: Error) => void): Promise<PgliteThread> {
    const worker = new Worker(workerEntry(), { workerData: data, execArgv: [] });
    const thread = new PgliteThread(worker, onStop);
    // The worker answers request 0 once PGlite is open.
    const opened = new Promise((resolve, reject) => thread.pending.set(0, { resolve, reject }));
    try {
      await opened;
    } catch (err) {
      await worker.terminate();
      throw err;
    }
    worker.unref();
    thread.opened = true;
    return thread;
  }

  get closed(): boolean {
    return this.stopped !== undefined;
  }

  private call(body: RequestBody): Promise<unknown> {
    if (this.stopped) return Promise.reject(this.stopped);
    const id = this.nextId++;
    // Referenced while a statement is out, so a script awaiting one is not left to exit; idle, the
    // thread does not hold the process open.
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...body, id } satisfies PgliteRequest);
    });
  }

  /**
   * One statement with parameters. Dates arrive as Postgres' text when the caller brings parsers of its
   * own (drizzle always does, for exactly those types), as PGlite's `Date`s otherwise.
   */
  query<T>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results<T>> {
    return this.call({
      op: 'query',
      sql,
      params,
      rowMode: options?.rowMode,
      defaultParsers: !options?.parsers,
      tx,
    }) as Promise<Results<T>>;
  }

  /** Statements without parameters (several allowed); one result each. */
  exec(sql: string, tx?: number): Promise<Results[]> {
    return this.call({ op: 'exec', sql, tx }) as Promise<Results[]>;
  }

  /** Runs `fn` in a transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(fn: (tx: PgliteThreadTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: 'begin' })) as number;
    let closed = false;
    const end = (commit: boolean) => {
      closed = true;
      return this.call({ op: 'end', tx: id, commit });
    };
    const tx: PgliteThreadTransaction = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
      rollback: async () => {
        await end(false);
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (err) {
      if (!closed) await end(false).catch(() => {});
      throw err;
    }
    if (!closed) await end(true);
    return result;
  }

  async close(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.call({ op: 'close' });
    } finally {
      this.stopped = new Error('the embedded database is closed');
      await this.worker.terminate();
    }
  }
}
