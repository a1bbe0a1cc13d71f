/**
 * The server as `npm start` runs it (node itself, its TypeScript through tsx's loader, without the web
 * build), as a child process in its own process group: for the journeys that stop it, kill it or start
 * several at once (ADR 0036, 0054, 0055). A signal reaches the server process itself, as a supervisor's does:
 * tsx's CLI would stand between them and relay it (under load it turned a SIGTERM into exit 143). Call
 * `killServerProcesses` in `afterAll`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive } from '@llmor/server/platform/db/lock';
import pg from 'pg';
import { vi } from 'vitest';
import { ADMIN, type signedClient } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');
/** How long a start may take on a loaded runner before it counts as failed. */
const START_TIMEOUT_MS = 90_000;

/** A server process that may not serve yet (or never will: a start that must fail). */
export interface LaunchedServer {
  child: ChildProcess;
  /** Its DATA_DIR, when it was given one. */
  dataDir: string | undefined;
  /** The exit code once the process ended (null: ended by a signal). */
  exited: Promise<number | null>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** What it printed so far to stderr. */
  errors(): string;
  /** Sends `signal` to the server process. */
  signal(signal: NodeJS.Signals): void;
}

/** A server that printed its address. */
export interface ServerProcess extends LaunchedServer {
  url: string;
}

/**
 * The runner's environment without its database and Redis: a server gets only those its test gives it, so a
 * journey of the embedded default stays one when the runner has `DATABASE_URL` set (`npm run test:pg`).
 */
const { DATABASE_URL: _database, REDIS_URL: _redis, ...inherited } = process.env;

const launched: LaunchedServer[] = [];
const dataDirs: string[] = [];
const postmasters: number[] = [];

/**
 * Launches a server with the admin seeded as `ADMIN`, on a free port, taking loopback fakes; `env` adds the
 * rest (DATA_DIR or DATABASE_URL…). Does not wait for it.
 */
export function launchServerProcess(env: Record<string, string>): LaunchedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...inherited,
      PORT: '0',
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The fake providers listen on loopback.
      OUTBOUND_ALLOW: '127.0.0.1',
      ...env,
    },
  });
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  const server: LaunchedServer = {
    child,
    dataDir: env.DATA_DIR,
    exited: new Promise((done) => child.once('exit', (code) => done(code))),
    output: () => output,
    errors: () => errors,
    signal: (signal) => process.kill(child.pid!, signal),
  };
  launched.push(server);
  return server;
}

/** Launches a server and resolves once it prints its address; fails with its output if it exits first. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const server = launchServerProcess(env);
  const url = await new Promise<string>((found, fail) => {
    const timer = setTimeout(
      () => fail(new Error(`no URL within ${START_TIMEOUT_MS / 1000} s:\n${server.output()}`)),
      START_TIMEOUT_MS,
    );
    const look = () => {
      const m = /llmor is running at (http:\/\/\S+)/.exec(server.output());
      if (m) {
        clearTimeout(timer);
        found(m[1]!);
      }
    };
    server.child.stdout!.on('data', look);
    server.child.stderr!.on('data', look);
    void server.exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`the server exited early (${code}):\n${server.output()}`));
    });
  });
  return Object.assign(server, { url });
}

/** SIGTERM, as a supervisor stops it; its exit code. */
export function stop(server: LaunchedServer): Promise<number | null> {
  server.signal('SIGTERM');
  return server.exited;
}

/**
 * kill -9 of the server's process group, as a crash. The embedded PostgreSQL runs in a group of its own and
 * outlives it, as it would (ADR 0036). Resolves once the holder of DATA_DIR's lock is gone, so that the next
 * start on it is not refused as a second llmor.
 */
export async function crash(server: LaunchedServer): Promise<void> {
  const lock = server.dataDir && join(server.dataDir, 'llmor.lock');
  const holder = lock && existsSync(lock) ? Number(readFileSync(lock, 'utf8')) : undefined;
  if (server.child.exitCode === null && server.child.signalCode === null) {
    process.kill(-server.child.pid!, 'SIGKILL');
  }
  await server.exited;
  if (!holder) return;
  // vi.waitFor, not expect.poll: `crash` runs in afterAll too, where expect.poll is refused.
  await vi.waitFor(
    () => {
      if (isAlive(holder)) throw new Error(`the lock holder ${holder} still runs 10 s after the crash`);
    },
    { timeout: 10_000, interval: 50 },
  );
}

/**
 * A new, empty DATA_DIR below `parent`, removed by `killServerProcesses`. By default directly in the system's
 * tmp: run as root, the embedded server's user must be able to pass every directory above it (ADR 0036).
 */
export function newDataDir(parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, 'llmor-e2e-data-'));
  dataDirs.push(dir);
  return dir;
}

const postmasterPid = (dataDir: string) =>
  Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);

/** The embedded PostgreSQL server's pid as its `postmaster.pid` names it (killed by `killServerProcesses`). */
export function postmaster(dataDir: string): number {
  const pid = postmasterPid(dataDir);
  postmasters.push(pid);
  return pid;
}

/**
 * The embedded PostgreSQL still running on `dataDir`, if one is: a kill -9 leaves `postmaster.pid` behind, so
 * the pid counts only while that process runs on this directory.
 */
function runningPostmaster(dataDir: string): number | undefined {
  try {
    const pid = postmasterPid(dataDir);
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dataDir) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A test file's end, passed or not: crashes every server still running, kills the embedded PostgreSQL
 * servers read by `postmaster` or left running on a server's DATA_DIR (a crash leaves it, ADR 0036), and
 * removes the directories `newDataDir` made.
 */
export async function killServerProcesses(): Promise<void> {
  const servers = launched.splice(0);
  // All killed before any is awaited: a crash waits for its DATA_DIR's lock holder, maybe another server.
  await Promise.all(servers.map(crash));
  for (const server of servers) {
    const orphan = server.dataDir && runningPostmaster(server.dataDir);
    if (orphan) postmasters.push(orphan);
  }
  for (const pid of new Set(postmasters.splice(0))) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

type SignedClient = Awaited<ReturnType<typeof signedClient>>;

/**
 * A chatbot in the demo vendor answering with an OpenAI-compatible model at `baseUrl` (a fake's), installed
 * with `apiKey` when given.
 */
export async function installFakeChatbot(
  api: SignedClient,
  baseUrl: string,
  apiKey?: string,
): Promise<{ vendorId: number; appId: number }> {
  const vendors: { id: number; key: string }[] = (await api('GET', '/v1/vendors')).data;
  const vendorId = vendors.find((v) => v.key === 'demo')!.id;
  const model: { id: number } = (
    await api('POST', `/v1/vendors/${vendorId}/avamodels/openai-compatible-chat/install`, {
      parameters: { base_url: baseUrl, model: 'fake-chat', ...(apiKey ? { api_key: apiKey } : {}) },
    })
  ).data;
  const app: { id: number; name: string } = (
    await api('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' })
  ).data;
  await api('PUT', `/v1/vendors/${vendorId}/apps/${app.id}`, {
    name: app.name,
    completion_vendor_model_id: model.id,
  });
  return { vendorId, appId: app.id };
}

/** A new management conversation of the app; its token. */
export async function openConversation(api: SignedClient, appId: number): Promise<string> {
  const opened: { data: { token: string } } = await api('POST', '/v1/conversations', {
    vendor_app_id: appId,
    vendor_channel: 'management',
  });
  return opened.data.token;
}

/** A conversation's stored messages as [role, text] pairs. */
export async function storedMessages(api: SignedClient, token: string): Promise<[string, string | null][]> {
  const stored: { data: { role: string; message: string | null }[] } = await api(
    'GET',
    `/v1/conversations/${token}`,
  );
  return stored.data.map((m) => [m.role, m.message]);
}

/** Runs one statement on the PostgreSQL server at `url` on a connection of its own. */
export async function onPostgres(url: string, statement: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(statement);
  } finally {
    await client.end();
  }
}

/** A new, empty database of a unique name on the server at `serverUrl` (`DATABASE_URL`), to drop after. */
export async function freshDatabase(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `llmor_e2e_${randomBytes(4).toString('hex')}`;
  await onPostgres(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await onPostgres(serverUrl, `drop database if exists ${name} with (force)`);
    },
  };
}
