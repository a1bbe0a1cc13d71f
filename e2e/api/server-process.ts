/**
 * The server as `npm start` runs it (node itself, its TypeScript through tsx's loader, without the web
 * build), as a child process in its own process group: for journeys that stop it, kill it or start several
 * at once. A signal reaches the server process itself, as a supervisor's does (tsx's CLI would stand between
 * them and relay it).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import pg from 'pg';
import { ADMIN, type signedClient } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** The exit code once the process ended (null: ended by a signal). */
  exited: Promise<number | null>;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** Sends `signal` to the server process. */
  signal(signal: NodeJS.Signals): void;
}

const started: ServerProcess[] = [];

/**
 * Starts a server with the admin seeded as `ADMIN`, on a free port, taking loopback fakes; `env` adds the
 * rest (DATA_DIR or DATABASE_URL…). Resolves once it prints its address.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
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
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const server: ServerProcess = {
    url: '',
    child,
    exited,
    output: () => output,
    signal: (signal) => process.kill(child.pid!, signal),
  };
  started.push(server);
  server.url = await new Promise<string>((found, fail) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 90 s:\n${output}`)), 90_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /llmor is running at (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        found(m[1]!);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    void exited.then((code) => fail(new Error(`the server exited early (${code}):\n${output}`)));
  });
  return server;
}

/** kill -9 of the server's whole process group (an embedded PostgreSQL too): a crash. */
export async function crash(server: ServerProcess): Promise<void> {
  if (server.child.exitCode === null && server.child.signalCode === null) {
    process.kill(-server.child.pid!, 'SIGKILL');
    await server.exited;
  }
}

/** Crashes every server still running (a test's end, passed or not). */
export async function killServerProcesses(): Promise<void> {
  for (const s of started.splice(0)) await crash(s);
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
