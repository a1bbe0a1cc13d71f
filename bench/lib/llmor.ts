/**
 * An llmor server for the reply benchmarks (reach, conversation): PGlite in memory (or, with
 * `BENCH_DATABASE=embedded`, the embedded PostgreSQL in a temporary DATA_DIR, ADR 0036; with
 * `BENCH_DATABASE=server`, server mode: a database of its own on the PostgreSQL server of `BENCH_PG_URL`
 * (default the local one) and the relay across the Redis of `BENCH_REDIS_URL`), every role in one process,
 * and a chatbot app whose completion model is an OpenAI-compatible model
 * pointing at a fake provider. Plus what those benchmarks measure through: a console session signing its
 * requests like the web console, a socket.io client on the relay, and a count of the SQL statements run.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAccessToken, RELAY_PATH, signingMessage } from '@llmor/contracts';
import { findVendorModel } from '@llmor/server/modules/completion/repo';
import { makeChatApp } from '@llmor/server/modules/completion/testing';
import { installModel } from '@llmor/server/modules/models/service';
import { loadConfig } from '@llmor/server/platform/config';
import { hmacSha256Hex } from '@llmor/server/platform/crypto';
import type { Db } from '@llmor/server/platform/db/index';
import { schema } from '@llmor/server/platform/db/index';
import type { PgliteThread } from '@llmor/server/platform/db/pglite-thread';
import { queryLogOf } from '@llmor/server/platform/db/statements';
import { type RunningServer, startServer } from '@llmor/server/server';
import { io, type Socket } from 'socket.io-client';

const ADMIN_EMAIL = 'bench@llmor.local';
const ADMIN_PASSWORD = 'bench-password';

const embedded = process.env.BENCH_DATABASE === 'embedded';
const serverMode = process.env.BENCH_DATABASE === 'server';
const PG_URL = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const REDIS = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** The embedded servers' data directories, the first bench server's first (each server its own). */
const embeddedDataDirs: string[] = [];
/** Server mode: the databases made for this run (each bench server its own), dropped at exit. */
const serverDatabases: string[] = [];
/** Server mode: the PostgreSQL server's data directory (its postmaster's pid file), read at the first start. */
let serverDataDir: string | undefined;
process.once('exit', () => {
  for (const dir of embeddedDataDirs) rmSync(dir, { recursive: true, force: true });
  for (const name of serverDatabases) {
    execFileSync('psql', [PG_URL, '-qc', `drop database if exists ${name} with (force)`], {
      stdio: 'ignore',
    });
  }
});

/**
 * The first bench server's database server CPU so far in ms (its postmaster, its live backends, and the
 * backends that ended, which the postmaster reaped), read from /proc; null on PGlite, whose CPU is the
 * process's own. In server mode the whole PostgreSQL server's, so run it on a machine where nothing else
 * uses that server.
 */
export function databaseServerCpuMs(): number | null {
  const dataDir = embeddedDataDirs[0] ? join(embeddedDataDirs[0], 'postgres') : serverDataDir;
  if (!dataDir) return null;
  const postmaster = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const ticksPerMs = 100 / 1000; // USER_HZ
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const pid = Number(entry);
    const parent = Number(fields[1]);
    if (pid !== postmaster && parent !== postmaster) continue;
    ticks += Number(fields[11]) + Number(fields[12]);
    if (pid === postmaster) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / ticksPerMs;
}

/** Server mode's environment: a fresh database on the PostgreSQL server, and Redis. */
function serverModeEnv(): Record<string, string> {
  const name = `llmor_bench_${process.pid}_${serverDatabases.length}`;
  execFileSync('psql', [PG_URL, '-qc', `create database ${name}`]);
  serverDatabases.push(name);
  // The operator's durability choice (README "Server mode"): `off` measures a server set as the embedded one is.
  const synchronousCommit = process.env.BENCH_SYNCHRONOUS_COMMIT;
  if (synchronousCommit) {
    if (!/^(on|off|local|remote_write|remote_apply)$/.test(synchronousCommit)) {
      throw new Error(`BENCH_SYNCHRONOUS_COMMIT: not a synchronous_commit value: ${synchronousCommit}`);
    }
    execFileSync('psql', [
      PG_URL,
      '-qc',
      `alter database ${name} set synchronous_commit = ${synchronousCommit}`,
    ]);
  }
  serverDataDir ??= execFileSync('psql', [PG_URL, '-tAc', 'show data_directory'], {
    encoding: 'utf8',
  }).trim();
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return { DATABASE_URL: url.href, REDIS_URL: REDIS };
}

export async function startBenchServer(providerUrl: string, env: Record<string, string> = {}) {
  const dataDir = embedded ? mkdtempSync(join(tmpdir(), 'llmor-bench-')) : 'memory://';
  if (embedded) embeddedDataDirs.push(dataDir);
  const mode = serverMode ? serverModeEnv() : {};
  const server: RunningServer = await startServer(
    loadConfig({
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'warn',
      SEED_ADMIN_EMAIL: ADMIN_EMAIL,
      SEED_ADMIN_PASSWORD: ADMIN_PASSWORD,
      // The fake provider listens on loopback.
      OUTBOUND_ALLOW: '127.0.0.1',
      ...mode,
      ...env,
    }),
  );
  const { ctx } = server;
  const [vendor] = await ctx.db.select().from(schema.vendors).limit(1);
  const [admin] = await ctx.db.select().from(schema.users).limit(1);
  const model = await installModel(ctx, vendor!, {
    modelKey: 'openai-compatible-chat',
    parameters: { base_url: providerUrl, model: 'fake', api_key: 'sk-bench' },
    userId: admin!.id,
  });
  const app = await makeChatApp(ctx, vendor!, { model: await findVendorModel(ctx.db, vendor!.id, model.id) });
  return { server, ctx, vendor: vendor!, admin: admin!, app };
}

/** The seeded admin signed in over HTTP; `headers` signs one request as the web console does. */
export async function consoleSession(baseUrl: string, vendorKey: string) {
  const created = await fetch(`${baseUrl}/v1/auth/session`, { method: 'POST' });
  const { token, secret } = (await created.json()) as { token: string; secret: string };
  const headers = (method: string, path: string): Record<string, string> => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = hmacSha256Hex(secret, signingMessage(method, path, timestamp));
    return { 'x-accesstoken': encodeAccessToken(token, timestamp, signature), 'x-vendor': vendorKey };
  };
  const signin = await fetch(`${baseUrl}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers('POST', '/v1/auth/signin') },
    body: JSON.stringify({ identifier: ADMIN_EMAIL, secret: ADMIN_PASSWORD }),
  });
  if (signin.status !== 200) throw new Error(`sign-in failed: ${signin.status} ${await signin.text()}`);
  return { headers };
}

/**
 * A socket.io client of the relay joined to one conversation's room, speaking for a console session
 * (`headers` of `consoleSession`: its `X-AccessToken` signed for `GET` of the relay's path).
 */
export async function relayClient(
  baseUrl: string,
  conversationToken: string,
  headers: (method: string, path: string) => Record<string, string>,
): Promise<Socket> {
  const auth = { access_token: headers('GET', RELAY_PATH)['x-accesstoken'] };
  const socket = io(baseUrl, { path: RELAY_PATH, transports: ['websocket'], forceNew: true, auth });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.emit('join', conversationToken, (ack: { ok: boolean; error?: string }) =>
      ack.ok ? resolve() : reject(new Error(ack.error)),
    );
  });
  return socket;
}

/**
 * Counts the SQL statements drizzle runs (its logger hook, also used by transactions) and the time PGlite
 * takes to answer them, optionally by statement (its `query` as the server sees it: the round trip to the
 * database's thread; at one caller that is the database's share of a reply). Benchmarks only: the server
 * never logs queries.
 */
export function countQueries(db: Db) {
  const counter = { n: 0, ms: 0, trace: null as Map<string, { n: number; ms: number }> | null };
  // The query log prepared statements keep too (server/src/platform/db/statements.ts).
  queryLogOf(db).listener = () => {
    counter.n++;
  };
  const session = (db as unknown as { session: { client: PgliteThread } }).session;
  const client = session.client;
  const query = client.query.bind(client);
  client.query = (async (...args: Parameters<PgliteThread['query']>) => {
    const t0 = performance.now();
    try {
      return await query(...args);
    } finally {
      const ms = performance.now() - t0;
      counter.ms += ms;
      if (counter.trace) {
        // node-postgres (the embedded server) takes a query config, PGlite the text.
        const arg = args[0] as string | { text: string };
        const text = typeof arg === 'string' ? arg : arg.text;
        const seen = counter.trace.get(text) ?? { n: 0, ms: 0 };
        counter.trace.set(text, { n: seen.n + 1, ms: seen.ms + ms });
      }
    }
  }) as PgliteThread['query'];
  return counter;
}
