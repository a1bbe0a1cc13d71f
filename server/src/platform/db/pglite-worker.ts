/**
 * The embedded database's own thread (ADR 0019): PGlite runs here, so its WebAssembly Postgres never holds
 * the event loop that serves HTTP, the relay and the reply streams. The server talks to it through
 * `pglite-thread.ts`; messages are `PgliteRequest` / `PgliteResponse`.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, type Results, type Transaction, types } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import type { PgliteRequest, PgliteResponse, PgliteWorkerData, SerializedError } from './pglite-protocol';

const port = parentPort;
if (!port) throw new Error('pglite-worker runs as a worker thread');

/**
 * Drizzle reads dates, intervals and their arrays as the text Postgres sends and maps them itself; it asks
 * for that with parsers on every query, which makes PGlite copy its whole parser table each time (~0.13 ms).
 * Set once here instead; other callers (pg-boss) get PGlite's defaults back per query.
 */
const DRIZZLE_RAW_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];

const { pgDir, tarball } = workerData as PgliteWorkerData;
const ready = PGlite.create(pgDir, {
  extensions: { vector },
  loadDataDir: tarball ? new Blob([readFileSync(tarball)]) : undefined,
});
const defaultParsers: Record<number, (value: string, typeId?: number) => unknown> = {};

interface OpenTransaction {
  tx?: Transaction;
  finish: (commit: boolean) => void;
  /** Settles once COMMIT or ROLLBACK has run. */
  done: Promise<void>;
}
const transactions = new Map<number, OpenTransaction>();
let nextTransaction = 1;

function serializeError(err: unknown): SerializedError {
  if (!(err instanceof Error)) return { message: String(err) };
  const fields: SerializedError = { message: err.message, name: err.name };
  for (const [key, value] of Object.entries(err)) {
    // `queryOptions` may hold functions; nothing else of a DatabaseError is needed beyond plain values.
    if (
      key !== 'queryOptions' &&
      (value === null || typeof value !== 'object') &&
      typeof value !== 'function'
    )
      fields[key] = value;
  }
  return fields;
}

const reply = (message: PgliteResponse) => port.postMessage(message);

async function handle(request: PgliteRequest, db: PGlite): Promise<unknown> {
  const target = request.tx ? transactions.get(request.tx)?.tx : db;
  if (!target) throw new Error('the transaction has ended');
  switch (request.op) {
    case 'query':
      return target.query(request.sql, request.params, {
        rowMode: request.rowMode,
        parsers: request.defaultParsers ? defaultParsers : undefined,
      });
    case 'exec':
      return target.exec(request.sql);
    case 'begin':
      return begin(db);
    case 'end': {
      const open = request.tx ? transactions.get(request.tx) : undefined;
      if (!open) throw new Error('the transaction has ended');
      open.finish(request.commit);
      await open.done;
      return undefined;
    }
    case 'close':
      await db.close();
      return undefined;
  }
}

/**
 * Opens a PGlite transaction and keeps it open until the server's `end`: PGlite queues every other query
 * until then, as it did on the server's thread. Answers the transaction's id once BEGIN has run; the
 * `end` request is answered when COMMIT or ROLLBACK has.
 */
function begin(db: PGlite): Promise<number> {
  const id = nextTransaction++;
  return new Promise((opened, failed) => {
    const open: OpenTransaction = { finish: () => {}, done: Promise.resolve() };
    open.done = db
      .transaction(
        (tx) =>
          new Promise<void>((commit, rollback) => {
            open.tx = tx;
            open.finish = (ok) => (ok ? commit() : rollback(new RolledBack()));
            transactions.set(id, open);
            opened(id);
          }),
      )
      .then(
        () => {},
        (err: unknown) => {
          if (!(err instanceof RolledBack)) throw err;
        },
      )
      .finally(() => transactions.delete(id));
    // Before BEGIN has run this rejects the caller; afterwards `end` reports the outcome.
    open.done.catch(failed);
  });
}

class RolledBack extends Error {}

ready.then(
  (db) => {
    for (const type of DRIZZLE_RAW_TYPES) {
      const parse = db.parsers[type];
      if (parse) defaultParsers[type] = parse;
      db.parsers[type] = (value: string) => value;
    }
    port.on('message', (request: PgliteRequest) => {
      handle(request, db).then(
        (result) =>
          reply({ id: request.id, ok: true, result: result as Results | Results[] | number | undefined }),
        (err: unknown) => reply({ id: request.id, ok: false, error: serializeError(err) }),
      );
    });
    reply({ id: 0, ok: true });
  },
  (err: unknown) => reply({ id: 0, ok: false, error: serializeError(err) }),
);
