/**
 * Redis is an accelerator, not a single point of failure (docs/adr/0056-redis-outage.md): two real server
 * processes share a database and a redis-server of this test's own, which is killed and started again. Needs
 * DATABASE_URL (a database of its own is made on that server) and `redis-server` installed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomToken } from '@llmor/server/platform/crypto';
import { freePort, hasRedisServer, type OwnRedis, startOwnRedis } from '@llmor/server/test/redis-server';
import { RelayClient } from '@llmor/server/test/relay-client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, installDemoChatbot, signedClient } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');
const DATABASE_URL = process.env.DATABASE_URL;

interface Instance {
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  output: () => string;
  /** What it printed to stderr. */
  errors: () => string;
  exited: Promise<number | null>;
}

const children: ChildProcess[] = [];
const dataDirs: string[] = [];

/** The server as `npm start` runs it (without the web build), in its own process group. */
function spawnServer(env: Record<string, string>): Omit<Instance, 'url'> {
  const dataDir = mkdtempSync(join(tmpdir(), 'llmor-redis-'));
  dataDirs.push(dataDir);
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      ...env,
    },
  });
  children.push(child);
  let output = '';
  let errors = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
    errors += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, output: () => output, errors: () => errors, exited };
}

async function startServer(env: Record<string, string>): Promise<Instance> {
  const spawned = spawnServer(env);
  const deadline = Date.now() + 90_000;
  for (;;) {
    const m = /llmor is running at (http:\/\/\S+)/.exec(spawned.output());
    if (m) return { ...spawned, url: m[1]! };
    if (spawned.child.exitCode !== null || Date.now() > deadline) {
      throw new Error(`no URL (exit ${spawned.child.exitCode}):\n${spawned.output()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

type Api = Awaited<ReturnType<typeof signedClient>>;

describe.runIf(Boolean(DATABASE_URL) && hasRedisServer)('Redis outage with two instances', () => {
  const dbName = `llmor_redis_${randomToken(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  let databaseUrl: string;
  let redis: OwnRedis;
  let a: Instance;
  let b: Instance;
  let apiA: Api;
  let apiB: Api;
  let vendorId: number;
  let appId: number;
  const sockets: RelayClient[] = [];

  async function admin(sql: string) {
    const c = new pg.Client({ connectionString: DATABASE_URL });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  }

  beforeAll(async () => {
    await admin(`create database ${dbName}`);
    const url = new URL(DATABASE_URL!);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
    redis = await startOwnRedis();
    const env = { DATABASE_URL: databaseUrl, REDIS_URL: redis.url };
    // One after the other: the first migrates and seeds.
    a = await startServer(env);
    b = await startServer(env);
    apiA = await signedClient(a.url, 'demo');
    apiB = await signedClient(b.url, 'demo');
    ({ vendorId, appId } = await installDemoChatbot(apiA));
  }, 240_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    for (const c of children) {
      if (c.pid && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
    }
    await redis?.stop();
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    await admin(`drop database if exists ${dbName} with (force)`);
  });

  async function joined(instance: Instance, api: Api, token: string): Promise<RelayClient> {
    const socket = await RelayClient.connect(instance.url, api.relayAuth());
    sockets.push(socket);
    expect(await socket.ask('join', token)).toEqual({ ok: true });
    return socket;
  }

  async function conversation(): Promise<string> {
    const opened: { data: { token: string } } = await apiA('POST', '/v1/conversations', {
      vendor_app_id: appId,
      vendor_channel: 'management',
    });
    return opened.data.token;
  }

  /** A send's reply, as the API answers it. */
  async function send(api: Api, token: string, content: string): Promise<string[]> {
    const sent: { data: { role: string }[] } = await api('POST', `/v1/conversations/${token}`, { content });
    return sent.data.map((m) => m.role);
  }

  const ended = (socket: RelayClient) =>
    socket.messages().filter((m) => m.type === 'completion.ended').length;

  async function alive(instance: Instance) {
    expect(instance.child.exitCode).toBeNull();
    expect((await fetch(`${instance.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${instance.url}/readyz`)).status).toBe(200);
  }

  it('keeps both instances serving while Redis is down, and delivers across instances again once it is back', async () => {
    const token = await conversation();
    const onA = await joined(a, apiA, token);
    const onB = await joined(b, apiB, token);
    // Before: a reply running on A reaches the socket on B.
    expect(await send(apiA, token, 'Before')).toEqual(['user', 'assistant']);
    await expect.poll(() => ended(onB)).toBe(1);

    await redis.stop();
    // Sends and replies work on both, and stream to sockets on the instance where they run.
    for (const [api, socket, from] of [
      [apiA, onA, ended(onA)],
      [apiB, onB, ended(onB)],
    ] as const) {
      expect(await send(api, token, 'While Redis is down')).toEqual(['user', 'assistant']);
      await expect.poll(() => ended(socket)).toBe(from + 1);
    }
    expect(onA.messages().map((m) => m.type)).toContain('completion_stream');
    // An API client's limit still refuses past it, counted by each instance alone for the outage.
    const created: { data: { full_token: string } } = await apiA(
      'POST',
      `/v1/vendors/${vendorId}/apps/${appId}/clients`,
      { name: 'During the outage', request_rate_limit: 2, request_rate_interval: 60 },
    );
    const call = (instance: Instance) =>
      fetch(`${instance.url}/v1/conversations`, {
        method: 'POST',
        headers: {
          'X-VendorToken': created.data.full_token,
          'X-Vendor': 'demo',
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ vendor_app_id: appId, vendor_channel: 'api' }),
      }).then((res) => res.status);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push(await call(a));
    expect(statuses).toEqual([201, 201, 429]);
    // A sign-out still disconnects that session's sockets on this instance and refuses its next call.
    const leaving = await signedClient(a.url, 'demo');
    const leavingSocket = await joined(a, leaving, token);
    await leaving('POST', '/v1/auth/signout');
    await leavingSocket.disconnected();
    await expect(leaving('GET', '/v1/vendors')).rejects.toThrow(/→ 401/);
    await alive(a);
    await alive(b);

    // Redis back (empty, on the same port): a reply on A reaches B again, by itself.
    await redis.start();
    const back = Date.now();
    let firstOnB = 0;
    const seenOnB = onB.received.length;
    onB.socket.onAny(() => {
      firstOnB ||= Date.now();
    });
    const deadline = back + 30_000;
    while (!firstOnB && Date.now() < deadline) await send(apiA, token, 'Anyone on B?');
    expect(firstOnB).toBeGreaterThan(0);
    console.log(
      `Redis back → first reply event from instance A on a socket of B after ${firstOnB - back} ms`,
    );
    // A whole reply, in order, in a conversation joined on B after the outage (the probes' tails may still arrive).
    const later = await conversation();
    const onBLater = await joined(b, apiB, later);
    expect(await send(apiA, later, 'After')).toEqual(['user', 'assistant']);
    await onBLater.waitForMessage('completion.ended');
    // Consecutive stream chunks as one.
    const types = onBLater
      .messages()
      .map((m) => m.type)
      .filter((type) => type !== 'debug');
    expect(types.filter((type, i) => type !== types[i - 1])).toEqual([
      'completion.started',
      'user_input',
      'completion_stream',
      'completion.finished',
      'completion.ended',
    ]);
    expect(onB.received.length).toBeGreaterThan(seenOnB);

    await alive(a);
    await alive(b);
    // No crash and no error line, only the warnings of the lost connection.
    for (const instance of [a, b]) {
      expect(instance.output()).not.toMatch(/"level":(50|60)|Unhandled|uncaught/i);
      expect(instance.output()).toMatch(/redis \(relay subscriber\) unreachable, reconnecting/);
    }
  }, 180_000);

  it('stops cleanly on SIGTERM while Redis is down', async () => {
    await redis.stop();
    await expect.poll(() => b.output().match(/redis \(relay subscriber\) unreachable/g)?.length ?? 0).toBe(2);
    process.kill(-b.child.pid!, 'SIGTERM');
    expect(
      await Promise.race([b.exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]),
    ).toBe(0);
    await alive(a);
  }, 60_000);

  it('exits non-zero at start with one line naming REDIS_URL when nothing answers there', async () => {
    const port = await freePort();
    const started = spawnServer({ DATABASE_URL: databaseUrl, REDIS_URL: `redis://127.0.0.1:${port}` });
    const code = await Promise.race([
      started.exited,
      new Promise((r) => setTimeout(() => r('still running'), 90_000)),
    ]);
    expect(code).toBe(1);
    expect(started.errors().trimEnd().split('\n')).toEqual([
      `llmor failed to start: nothing answers at 127.0.0.1:${port} (REDIS_URL) — is Redis running? (connect ECONNREFUSED 127.0.0.1:${port})`,
    ]);
  }, 120_000);
});
