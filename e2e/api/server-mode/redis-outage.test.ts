/**
 * Redis is an accelerator, not a single point of failure (docs/adr/0056-redis-outage.md): two real server
 * processes share a database and a redis-server of this test's own, which is killed and started again. Needs
 * DATABASE_URL (a database of its own is made on that server) and `redis-server` installed.
 */
import { freePort, hasRedisServer, type OwnRedis, startOwnRedis } from '@llmor/server/test/redis-server';
import { RelayClient } from '@llmor/server/test/relay-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installDemoChatbot, signedClient } from '../../harness';
import {
  freshDatabase,
  killServerProcesses,
  launchServerProcess,
  newDataDir,
  type ServerProcess,
  startServerProcess,
} from '../server-process';

const DATABASE_URL = process.env.DATABASE_URL;

type Api = Awaited<ReturnType<typeof signedClient>>;

describe.runIf(Boolean(DATABASE_URL) && hasRedisServer)('Redis outage with two instances', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;
  let redis: OwnRedis;
  let a: ServerProcess;
  let b: ServerProcess;
  let apiA: Api;
  let apiB: Api;
  let vendorId: number;
  let appId: number;
  const sockets: RelayClient[] = [];

  beforeAll(async () => {
    database = await freshDatabase(DATABASE_URL!);
    redis = await startOwnRedis();
    const env = { DATABASE_URL: database.url, REDIS_URL: redis.url };
    // One after the other: the first migrates and seeds.
    a = await startServerProcess({ ...env, DATA_DIR: newDataDir() });
    b = await startServerProcess({ ...env, DATA_DIR: newDataDir() });
    apiA = await signedClient(a.url, 'demo');
    apiB = await signedClient(b.url, 'demo');
    ({ vendorId, appId } = await installDemoChatbot(apiA));
  }, 240_000);

  afterAll(async () => {
    for (const s of sockets) s.close();
    await killServerProcesses();
    await redis?.stop();
    await database?.drop();
  });

  async function joined(instance: ServerProcess, api: Api, token: string): Promise<RelayClient> {
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

  async function alive(instance: ServerProcess) {
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
    const call = (instance: ServerProcess) =>
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
    b.signal('SIGTERM');
    expect(
      await Promise.race([b.exited, new Promise((r) => setTimeout(() => r('still running'), 20_000))]),
    ).toBe(0);
    await alive(a);
  }, 60_000);

  it('exits non-zero at start with one line naming REDIS_URL when nothing answers there', async () => {
    const port = await freePort();
    const started = launchServerProcess({
      DATABASE_URL: database!.url,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      DATA_DIR: newDataDir(),
    });
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
