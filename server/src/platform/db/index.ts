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
import { lockDataDir } from './lock';
import { PgliteThread } from './pglite-thread';
import * as schema from './schema';
import { STATEMENT_KINDS, StatementTimer } from './statements';
import { createFromTemplate, ensurePgliteTemplate, tunePgliteSettings } from './template';

export { schema };
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Whether pgvector is available (always on PGlite; on a server only if the extension is installed). */
  hasVector: boolean;
  /**
   * Raw SQL for libraries that bring their own (pg-boss): parameters bind as `$1…`; text without
   * parameters may hold several statements (the result is the last one's rows).
   */
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Times every statement for the metrics (a listener set by `registerDatabaseMetrics`). */
  statements: StatementTimer;
  /** The connection pool's figures (PostgreSQL; the embedded database has one connection in its thread). */
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

const migrationsFolder = join(SERVER_ROOT, 'drizzle');

export interface OpenDatabaseOptions {
  /** postgres://… for server mode; otherwise PGlite in dataDir (or in memory when dataDir is 'memory://'). */
  databaseUrl?: string;
  dataDir: string;
}

/** Opens the database, applies migrations and enables pgvector where it exists. */
export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  const database = opts.databaseUrl ? await openPostgres(opts.databaseUrl) : await openPglite(opts.dataDir);
  try {
    database.hasVector = await enableVector(database.db);
  } catch (err) {
    await database.close();
    throw err;
  }
  return database;
}

async function openPglite(dataDir: string): Promise<Database> {
  const inMemory = isInMemoryDataDir(dataDir);
  const release = inMemory ? () => {} : lockDataDir(dataDir);
  try {
    const pgDir = inMemory ? undefined : join(resolve(dataDir), 'pg');
    let tarball: string | undefined;
    if (!pgDir) tarball = (await ensurePgliteTemplate()).tarball;
    else if (!existsSync(join(pgDir, 'PG_VERSION'))) await createFromTemplate(pgDir);
    else tunePgliteSettings(pgDir);
    const client = await PgliteThread.open({ pgDir, tarball }, (reason) => {
      // Nothing works without the database, and no other process may open its directory while this one
      // lives: end, saying why in one line, so a supervisor can start it again.
      process.stderr.write(`${reason.message}\n`);
      process.exit(70);
    });
    const statements = new StatementTimer();
    timePgliteStatements(statements, client);
    const db = drizzlePglite(client as never, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    return {
      db,
      kind: 'pglite',
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
      close: async () => {
        try {
          if (!client.closed) await client.close();
        } finally {
          release();
        }
      },
    };
  } catch (err) {
    release();
    throw err;
  }
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client whose server connection dies (restart, failover, a dropped database) is reported
  // here; without a listener the process would crash. The pool replaces the client on next use.
  pool.on('error', (err) => {
    process.stderr.write(`database connection lost (idle client): ${err.message}\n`);
  });
  const statements = new StatementTimer();
  timePostgresStatements(statements, pool);
  const db = drizzleNodePg(pool, { schema }) as unknown as Db;
  try {
    await migrateNodePg(db as never, { migrationsFolder });
  } catch (err) {
    await pool.end();
    throw err;
  }
  return {
    db,
    kind: 'postgres',
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
    close: async () => {
      await pool.end();
    },
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
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
