import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import type { AppRow } from '../completion/repo';
import {
  finish,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  text,
} from '../completion/testing';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

/** Two app instances sharing one PostgreSQL database and one Redis: rooms span both. */
describe.runIf(Boolean(DATABASE_URL && REDIS_URL))('relay across two instances (PostgreSQL + Redis)', () => {
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  let httpB: Client;
  let app: AppRow;
  const sockets: RelayClient[] = [];

  beforeAll(async () => {
    a = await createListeningTestServer({ env: { REDIS_URL: REDIS_URL! } });
    b = await createListeningTestServer({ databaseUrl: a.databaseUrl, env: { REDIS_URL: REDIS_URL! } });
    const vendor = await makeVendor(a.ctx);
    const user = await makeUser(a.ctx, { vendors: [vendor] });
    httpB = await Client.signedIn(b.app, user.email, user.password);
    httpB.vendorKey = vendor.key;
    app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  async function joined(server: ListeningTestServer, token: string) {
    const c = await RelayClient.connect(server.url, httpB.relayAuth());
    sockets.push(c);
    expect(await c.ask('join', token)).toEqual({ ok: true });
    return c;
  }

  it('delivers a completion run on instance B to clients on A, in order, input_async per poster', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const poster = await joined(a, conversation.token);
    const watcherA = await joined(a, conversation.token);
    const watcherB = await joined(b, conversation.token);
    b.ctx.completion.resolveModel = () => new ScriptedModel([[text('across '), text('instances'), finish()]]);

    const res = await httpB.request({
      method: 'POST',
      url: `/v1/conversations/${conversation.token}`,
      payload: { content: 'Hello from B' },
      headers: { 'x-relay-socket': poster.id },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((m: { message: string }) => m.message)).toEqual([
      'Hello from B',
      'across instances',
    ]);

    const stream = [
      { type: 'completion_stream', data: { chunk: 'across ' } },
      { type: 'completion_stream', data: { chunk: 'instances' } },
    ];
    await poster.waitForMessage('completion.ended');
    expect(poster.messages().filter((m) => m.type !== 'debug')).toEqual([
      { type: 'completion.started', data: { input_async: false } },
      ...stream,
      { type: 'completion.finished', data: { input_async: false } },
      { type: 'completion.ended', data: {} },
    ]);
    for (const watcher of [watcherA, watcherB]) {
      await watcher.waitForMessage('completion.ended');
      expect(watcher.messages().filter((m) => m.type !== 'debug')).toEqual([
        { type: 'completion.started', data: { input_async: true } },
        { type: 'user_input', data: { message: expect.objectContaining({ message: 'Hello from B' }) } },
        ...stream,
        { type: 'completion.finished', data: { input_async: true } },
        { type: 'completion.ended', data: {} },
      ]);
    }
  });

  it('shares state changes across instances', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const onA = await joined(a, conversation.token);
    const onB = await joined(b, conversation.token);
    expect(await onB.ask('set', { from: 'B' })).toEqual({ ok: true });
    await onA.waitFor((r) => r.event === 'state_change');
    expect(onA.received).toEqual([{ event: 'state_change', data: { from: 'B' } }]);
    expect(await onA.ask('patchState', [{ op: 'add', path: '/and', value: 'A' }])).toEqual({ ok: true });
    await onB.waitFor((r) => r.event === 'state_change', { count: 1 });
    expect(onB.received).toEqual([
      { event: 'set', data: { from: 'B' } },
      { event: 'state_change', data: { from: 'B', and: 'A' } },
    ]);
    expect(await onB.ask('get')).toEqual({ ok: true });
    expect(onB.received.at(-1)).toEqual({ event: 'get', data: { from: 'B', and: 'A' } });
  });
});

/**
 * Two deployments (each its own database) sharing one Redis: ids repeat across databases, so a revocation on
 * one must not disconnect the other's sockets of the same id (each deployment's keys and channels live in its
 * own namespace, docs/adr/0048-one-redis-namespace-per-deployment.md).
 */
describe.runIf(Boolean(DATABASE_URL && REDIS_URL))('two deployments sharing one Redis', () => {
  let first: ListeningTestServer;
  let firstTwin: ListeningTestServer;
  let other: ListeningTestServer;
  const sockets: RelayClient[] = [];

  beforeAll(async () => {
    first = await createListeningTestServer({ env: { REDIS_URL: REDIS_URL! } });
    firstTwin = await createListeningTestServer({
      databaseUrl: first.databaseUrl,
      env: { REDIS_URL: REDIS_URL! },
    });
    other = await createListeningTestServer({ env: { REDIS_URL: REDIS_URL! } });
  });
  afterAll(async () => {
    for (const s of sockets.splice(0)) s.close();
    await Promise.all([firstTwin?.close(), other?.close()]);
    await first?.close();
  });

  /** A member's socket joined to a conversation of their vendor (a socket is in its callers' rooms once joined). */
  async function joinedMember(server: ListeningTestServer) {
    const vendor = await makeVendor(server.ctx);
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    const http = await Client.signedIn(server.app, user.email, user.password);
    const chat = await makeChatApp(server.ctx, vendor, { model: await makeVendorModel(server.ctx, vendor) });
    const conversation = await makeConversation(server.ctx, chat);
    const socket = await RelayClient.connect(server.url, http.relayAuth());
    sockets.push(socket);
    expect(await socket.ask('join', conversation.token)).toEqual({ ok: true });
    return { user, socket };
  }

  it("a revocation of user N on one deployment leaves the other's user N connected", async () => {
    const mine = await joinedMember(firstTwin);
    const theirs = await joinedMember(other);
    // Fresh databases number their users alike: the same id on both sides is the case that leaked.
    expect(theirs.user.id).toBe(mine.user.id);

    first.ctx.relay.evict('user', [mine.user.id]);
    // Through Redis to the first deployment's other instance: the publish has been delivered.
    await mine.socket.disconnected();
    expect(await theirs.socket.ask('get')).toEqual({ ok: true });
    expect(theirs.socket.socket.connected).toBe(true);
  });
});
