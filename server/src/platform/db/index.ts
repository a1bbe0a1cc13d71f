import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { Gauge, Histogram } from 'prom-client';
import { isInMemoryDataDir } from '../config';
import type { Metrics } from '../metrics';
import { SERVER_ROOT } from '../paths';
import { EmbeddedPostgresUnavailable } from './embedded';
import { lockDataDir } from './lock';
import { importPgliteData, pgliteDataDir } from './pglite-import';
import { PgliteThread } from './pglite-thread';
import * as schema from './schema';
import { QueryLog, STATEMENT_KINDS, StatementTimer } from './statements';
import { type SupervisedServer, superviseEmbeddedPostgres } from './supervisor';
import { ensurePgliteTemplate } from './template';

export { schema };
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Only this process uses the database (the embedded one, whose DATA_DIR it holds locked), so whatever a
   * lease or a cache says about other processes is stale by definition.
   */
  soleProcess: boolean;
  /** Whether pgvector is available (always on PGlite; on a server only if the extension is installed). */
  hasVector: boolean;
  /**
   * Raw SQL for libraries that bring their own (pg-boss): parameters bind as `$1…`; text without
   * parameters may hold several statements (the result is the last one's rows).
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  ping(): Promise<void>;
  /**
   * Runs once-per-database start work (migrations, seeding) while no other process runs it: others starting
   * at the same time wait, then find it done (ADR 0055). Only this process uses an embedded database.
   */
  underStartLock<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Times every statement for the metrics (a listener set by `registerDatabaseMetrics`). */
  statements: StatementTimer;
  /** The connection pool's figures (PostgreSQL, embedded or not; PGlite has one connection in its thread). */
  connections?(): { total: number; idle: number; waiting: number };
}

/** Statement latencies: from well under a millisecond to a slow scan. */
const STATEMENT_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/**
 * The PostgreSQL pool's connections and the queries waiting for one, read at each scrape (ADR 0035), and,
 * when `statements`, every statement's time by kind and outcome (docs/adr/0040-traces.md).
 */
export function registerDatabaseMetrics(
  metrics: Metrics,
  database: Database,
  opts: { statements: boolean },
): void {
  if (opts.statements) timeStatements(metrics, database);
  const connections = database.connections?.bind(database);
  if (!connections) return;
  new Gauge({
    name: 'llmor_db_pool_connections',
    help: 'PostgreSQL pool connections by state (idle, busy) and queries waiting for one (waiting).',
    labelNames: ['state'],
    registers: [metrics],
    collect() {
      const { total, idle, waiting } = connections();
      this.set({ state: 'idle' }, idle);
      this.set({ state: 'busy' }, total - idle);
      this.set({ state: 'waiting' }, waiting);
    },
  });
}

function timeStatements(metrics: Metrics, database: Database): void {
  const statements = new Histogram({
    name: 'llmor_db_statement_duration_seconds',
    help: 'Time of one SQL statement from sending it to its answer, by kind (select, insert, update, delete, other) and outcome (ok, error).',
    labelNames: ['kind', 'outcome'],
    buckets: STATEMENT_BUCKETS,
    registers: [metrics],
  });
  for (const kind of STATEMENT_KINDS) statements.zero({ kind, outcome: 'ok' });
  database.statements.listener = (kind, seconds, failed) =>
    statements.observe({ kind, outcome: failed ? 'error' : 'ok' }, seconds);
}

export const migrationsFolder = join(SERVER_ROOT, 'drizzle');

export interface OpenDatabaseOptions {
  /**
   * postgres://… for server mode; otherwise the embedded PostgreSQL in dataDir (ADR 0036), or PGlite in
   * memory when dataDir is 'memory://' (tests and benches).
   */
  databaseUrl?: string;
  dataDir: string;
  /**
   * Creates the tables made outside migrations (the datastores' embeddings, ADR 0003), so that an older
   * embedded PGlite directory's rows can be copied into them.
   */
  prepareTables?: (database: Database) => Promise<void>;
}

/** Opens the database, applies migrations and enables pgvector where it exists. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (opts.databaseUrl)
    return withVector(
      await openPostgres(poolConfig({ connectionString: opts.databaseUrl }, { shared: true })),
    );
  if (isInMemoryDataDir(opts.dataDir)) return withVector(await openPglite());
  return openEmbedded(opts.dataDir, opts.prepareTables);
}

export async function withVector(database: Database): Promise<Database> {
  try {
    database.hasVector = await database.underStartLock(() => enableVector(database.db));
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

/** Lines about the embedded database's life an operator reads (initdb, a stale server, an import). */
const say = (line: string) => process.stdout.write(`${line}\n`);

/**
 * The embedded default: DATA_DIR locked for this process, the PostgreSQL server in it started (and
 * initialised the first time), an older PGlite directory imported once, then the same pool as server mode.
 */
async function openEmbedded(dataDir: string, prepareTables: OpenDatabaseOptions['prepareTables']) {
  const release = lockDataDir(dataDir);
  let server: SupervisedServer | undefined;
  try {
    // A server that dies is restarted, saying so in one line (ADR 0054).
    server = await superviseEmbeddedPostgres(dataDir, (line) => process.stderr.write(`${line}\n`));
    if (server.started.initialised)
      say(`Embedded PostgreSQL: a new cluster in ${join(resolve(dataDir), 'postgres')}`);
    if (server.started.stale === 'stopped-orphan')
      say('Embedded PostgreSQL: stopped the server a killed llmor left running on this DATA_DIR');
    const stop = server.stop;
    const database = await withVector(
      await openPostgres(poolConfig(server.connection, { shared: false }), async () => {
        try {
          await stop();
        } finally {
          release();
        }
      }),
    );
    database.soleProcess = true;
    if (existsSync(join(pgliteDataDir(dataDir), 'PG_VERSION'))) {
      try {
        await importPgliteData(dataDir, database, prepareTables, say);
      } catch (err) {
        await database.close();
        throw new Error(
          `Importing the PGlite database in ${pgliteDataDir(dataDir)} failed, nothing was imported: ${(err as Error).message}. Move that directory out of DATA_DIR to start without it.`,
          { cause: err },
        );
      }
    }
    return database;
  } catch (err) {
    await server?.stop().catch(() => {});
    if (err instanceof EmbeddedPostgresUnavailable) return openPgliteOnDisk(dataDir, err, release);
    release();
    throw err;
  }
}

/**
 * Where the native server cannot run, the embedded database runs in-process as before (PGlite in
 * `DATA_DIR/pg`, slower): a later start where the server can run imports it (ADR 0036).
 */
async function openPgliteOnDisk(dataDir: string, why: Error, release: () => void): Promise<Database> {
  say(
    `Embedded PostgreSQL unavailable (${why.message}); the database runs in-process (PGlite) in ${pgliteDataDir(dataDir)}, which is slower.`,
  );
  try {
    const database = await withVector(await openPglite(pgliteDataDir(dataDir)));
    const close = database.close;
    database.close = async () => {
      try {
        await close();
      } finally {
        release();
      }
    };
    return database;
  } catch (err) {
    release();
    throw err;
  }
}

/**
 * PGlite on its own thread (ADR 0019): in memory from the template (tests, benches), or on disk when an
 * older embedded directory is imported (the caller holds DATA_DIR's lock).
 */
export async function openPglite(pgDir?: string): Promise<Database> {
  const tarball = pgDir ? undefined : (await ensurePgliteTemplate()).tarball;
  const client = await PgliteThread.open({ pgDir, tarball }, (reason) => {
    // Nothing works without the database: end, saying why in one line, so a supervisor can start it again.
    process.stderr.write(`${reason.message}\n`);
    process.exit(70);
  });
  const statements = new StatementTimer();
  timePgliteStatements(statements, client);
  const db = drizzlePglite(client as never, { schema, logger: new QueryLog() }) as unknown as Db;
  try {
    await migratePglite(db as never, { migrationsFolder });
  } catch (err) {
    await client.close();
    throw err;
  }
  return {
    db,
    kind: 'pglite',
    soleProcess: true,
    hasVector: false,
    statements,
    executeSql: async (text, values) => {
      if (values?.length) return client.query<Record<string, unknown>>(text, values);
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    ping: async () => {
      await client.query('select 1');
    },
    underStartLock: (work) => work(),
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** Idle connections above the kept ones close after this long on a shared server (pg's own default). */
export const SHARED_IDLE_MS = 10_000;

/**
 * A connection (or a free one of the pool) not had within this long fails the statement, answered 503: a server
 * out of reach must not hold requests without end (ADR 0054).
 */
const CONNECT_TIMEOUT_MS = 5_000;

/**
 * The pool's settings: at most 10 connections. pg arms a timer on every release of a connection it may close
 * when idle (a reply releases one per statement), so the connections that stay open arm none: the embedded
 * server is this process's alone, its connections are kept while the process runs; a shared server keeps two
 * open and gets the others back after `SHARED_IDLE_MS` idle. Idle connections never keep the process alive
 * (docs/adr/0047-a-lean-reply-path.md, amended 2026-11-25).
 */
export function poolConfig(connection: pg.PoolConfig, opts: { shared: boolean }): pg.PoolConfig {
  const pool = {
    ...connection,
    max: 10,
    allowExitOnIdle: true,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  };
  return opts.shared
    ? { ...pool, min: 2, idleTimeoutMillis: SHARED_IDLE_MS }
    : { ...pool, idleTimeoutMillis: 0 };
}

/**
 * A pool on a PostgreSQL server; `stopServer` runs after it is closed (the embedded server's stop).
 * `migrations`: another folder than the server's (a restore migrates only up to its backup's level).
 */
export async function openPostgres(
  config: pg.PoolConfig,
  stopServer?: () => Promise<void>,
  migrations = migrationsFolder,
): Promise<Database> {
  const pool = new pg.Pool(config);
  let closing = false;
  let lost = false;
  // A client whose server connection dies (restart, crash, failover) reports it, idle in the pool or checked
  // out (a transaction's): without a listener that 'error' event would end the process (ADR 0054). The pool
  // replaces the client on next use. Said once per outage; the embedded server's supervisor says it there.
  const connectionLost = (err: Error) => {
    if (closing || lost) return;
    lost = true;
    if (!stopServer) process.stderr.write(`database connection lost: ${err.message}\n`);
  };
  pool.on('error', connectionLost);
  pool.on('connect', (client) => {
    lost = false;
    client.on('error', connectionLost);
  });
  const statements = new StatementTimer();
  timePostgresStatements(statements, pool);
  const db = drizzleNodePg(pool, { schema, logger: new QueryLog() }) as unknown as Db;
  const underStartLock = <T>(work: () => Promise<T>) => withAdvisoryLock(pool, START_LOCK, work);
  try {
    await underStartLock(() => migrateNodePg(db as never, { migrationsFolder: migrations }));
  } catch (err) {
    await pool.end();
    throw err;
  }
  return {
    db,
    kind: 'postgres',
    soleProcess: false,
    hasVector: false,
    statements,
    executeSql: async (text, values) => {
      const result = await pool.query(text, values?.length ? values : undefined);
      // Several statements answer an array of results.
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: last?.rows ?? [] };
    },
    ping: async () => {
      await pool.query('select 1');
    },
    underStartLock,
    close: async () => {
      closing = true;
      try {
        await pool.end();
      } finally {
        await stopServer?.();
      }
    },
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

/** The advisory lock key of llmor's start work (pg-boss serializes its own schema work with keys of its own). */
const START_LOCK = 'llmor.start';

/**
 * Runs `work` holding a session-level advisory lock on a connection of its own: the work spans many
 * statements on other connections (drizzle's migration transaction, the seed's), which a transaction-level
 * lock could not cover. The connection is closed after, which releases the lock whatever happened; a process
 * that dies holding it releases it with its connection (ADR 0055).
 */
async function withAdvisoryLock<T>(pool: pg.Pool, key: string, work: () => Promise<T>): Promise<T> {
  const holder = await pool.connect();
  try {
    await holder.query('select pg_advisory_lock(hashtext($1))', [key]);
    return await work();
  } finally {
    holder.release(true);
  }
}

/** The thread's statements, in a transaction or not (its transactions call the same methods). */
function timePgliteStatements(statements: StatementTimer, client: PgliteThread): void {
  statements.wrap(client, 'query');
  statements.wrap(client, 'exec');
}

/** Each pooled connection's statements: drizzle's, and the pool's own `query` (pg-boss) runs on them. */
function timePostgresStatements(statements: StatementTimer, pool: pg.Pool): void {
  pool.on('connect', (client) => statements.wrap(client, 'query'));
}

async function enableVector(db: Db): Promise<boolean> {
  const available = (await db.execute(
    sql`select 1 as ok from pg_available_extensions where name = 'vector'`,
  )) as unknown as { rows: unknown[] };
  if (available.rows.length === 0) return false;
  await db.execute(sql`create extension if not exists vector`);
  return true;
}
