/**
 * The embedded database's own thread (ADR 0019): PGlite runs here, so its WebAssembly Postgres never holds
 * the event loop that serves HTTP, the relay and the reply streams. The server talks to it through
 * `pglite-thread.ts`; messages are `PgliteRequest` / `PgliteResponse`.
 */
import { readFileSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite, parse, protocol, type QueryOptions, type Results, types } from '@electric-sql/pglite';
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

/** Statements kept prepared, least recently used first out. */
const PREPARED_MAX = 500;
const CACHED_PLAN_CHANGED = '0A000';
const serialize = protocol.serialize;

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

type BackendMessage = Awaited<ReturnType<PGlite['execProtocol']>>['messages'][number];

interface Prepared {
  name: string;
  paramTypes: number[];
  /** Prepended to each execution's messages so the rows parse (a Bind/Execute answers no description). */
  rowDescription?: BackendMessage;
}

/**
 * Runs statements as named prepared statements, each message batch in one call into Postgres: PGlite's own
 * `query` parses, describes and plans every statement afresh in six calls (~0.5 ms for a lookup by key,
 * measured); a prepared statement's execution is one call (~0.2 ms). Plans stay per execution
 * (`plan_cache_mode = force_custom_plan`): a generic plan would ignore a later `set local` such as exact
 * search's `enable_indexscan = off`. Nothing syncs to a filesystem: PGlite's node and memory filesystems
 * write through.
 */
class Statements {
  private readonly prepared = new Map<string, Prepared>();
  private nextName = 1;

  constructor(private readonly db: PGlite) {}

  async query(
    text: string,
    params: unknown[],
    options: QueryOptions,
    inTransaction: boolean,
  ): Promise<Results> {
    try {
      return await this.run(text, params, options);
    } catch (err) {
      // A table changed under a prepared statement (a migration, an index): prepare it again, once.
      if ((err as { code?: string }).code !== CACHED_PLAN_CHANGED) throw err;
      if (inTransaction) {
        // The error aborted the transaction, where Postgres takes no Close: prepare afresh next time and
        // leave the old statement (one name) behind.
        this.prepared.delete(text);
        throw err;
      }
      await this.forget(text);
      return this.run(text, params, options);
    }
  }

  private async run(text: string, params: unknown[], options: QueryOptions): Promise<Results> {
    const statement = await this.statement(text);
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const toText = this.db.serializers[statement.paramTypes[i] ?? 0];
      return toText ? toText(value) : String(value);
    });
    const { messages } = await this.db.execProtocol(
      concat([
        serialize.bind({ statement: statement.name, values }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    );
    const described = statement.rowDescription ? [statement.rowDescription, ...messages] : messages;
    return parse.parseResults(described, this.db.parsers, options)[0]!;
  }

  private async statement(text: string): Promise<Prepared> {
    const known = this.prepared.get(text);
    if (known) {
      this.prepared.delete(text);
      this.prepared.set(text, known);
      return known;
    }
    const name = `s${this.nextName++}`;
    const { messages } = await this.db.execProtocol(
      concat([serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    );
    const statement: Prepared = {
      name,
      paramTypes: parse.parseDescribeStatementResults(messages),
      rowDescription: messages.find((m) => m.name === 'rowDescription'),
    };
    this.prepared.set(text, statement);
    if (this.prepared.size > PREPARED_MAX) {
      const [oldest] = this.prepared.keys();
      if (oldest !== undefined) await this.forget(oldest);
    }
    return statement;
  }

  private async forget(text: string): Promise<void> {
    const statement = this.prepared.get(text);
    if (!statement) return;
    this.prepared.delete(text);
    await this.db.execProtocol(
      concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]),
      { syncToFs: false },
    );
  }
}

/** One statement at a time; a transaction holds the database from its BEGIN to its end. */
class Exclusive {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => {});
    return result;
  }

  /** Waits for everything queued so far, then holds until the returned release is called. */
  async hold(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const acquired = this.tail;
    this.tail = acquired.then(() => held);
    await acquired;
    return release;
  }
}

const exclusive = new Exclusive();
/** Open transactions by id, with the release of the database they hold. */
const transactions = new Map<number, () => void>();
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

async function handle(request: PgliteRequest, db: PGlite, statements: Statements): Promise<unknown> {
  if (request.op === 'begin') {
    const release = await exclusive.hold();
    try {
      await db.exec('BEGIN');
    } catch (err) {
      release();
      throw err;
    }
    const id = nextTransaction++;
    transactions.set(id, release);
    return id;
  }
  if (request.op === 'close') return exclusive.run(() => db.close());
  const inTransaction = request.tx !== undefined;
  const release = inTransaction ? transactions.get(request.tx!) : undefined;
  if (inTransaction && !release) throw new Error('the transaction has ended');
  const run = (fn: () => Promise<unknown>) => (inTransaction ? fn() : exclusive.run(fn));
  switch (request.op) {
    case 'query':
      return run(() =>
        statements.query(
          request.sql,
          request.params ?? [],
          { rowMode: request.rowMode, parsers: request.defaultParsers ? defaultParsers : undefined },
          inTransaction,
        ),
      );
    case 'exec':
      return run(() => db.exec(request.sql));
    case 'end':
      try {
        await db.exec(request.commit ? 'COMMIT' : 'ROLLBACK');
      } finally {
        transactions.delete(request.tx!);
        release!();
      }
      return undefined;
  }
}

ready
  .then(
    async (db) => {
      for (const type of DRIZZLE_RAW_TYPES) {
        const parseText = db.parsers[type];
        if (parseText) defaultParsers[type] = parseText;
        db.parsers[type] = (value: string) => value;
      }
      await db.exec('set plan_cache_mode = force_custom_plan');
      const statements = new Statements(db);
      port.on('message', (request: PgliteRequest) => {
        handle(request, db, statements).then(
          (result) =>
            reply({ id: request.id, ok: true, result: result as Results | Results[] | number | undefined }),
          (err: unknown) => reply({ id: request.id, ok: false, error: serializeError(err) }),
        );
      });
      reply({ id: 0, ok: true });
    },
    (err: unknown) => reply({ id: 0, ok: false, error: serializeError(err) }),
  )
  .catch((err: unknown) => reply({ id: 0, ok: false, error: serializeError(err) }));
