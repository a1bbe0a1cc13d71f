import { createClient } from 'redis';
import { Server } from 'socket.io';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redisNamespace } from '../../platform/config';
import { createPresenceAdapter, type PresenceAdapter, presenceChannel } from '../../platform/relay/presence';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  type makeUser,
  signedInVendor,
  uniq,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import type { AppRow } from '../completion/repo';
import {
  finish,
  ModelChoice,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  text,
} from '../completion/testing';
import type { VendorRow } from '../vendors/repo';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

/** Two app instances sharing one PostgreSQL database and one Redis: rooms span both. */
describe.runIf(Boolean(DATABASE_URL && REDIS_URL))('relay across two instances (PostgreSQL + Redis)', () => {
  // Heartbeats often enough that a test waits little for a count or a timeout (docs/adr/0049).
  const relayPresence = { heartbeatMs: 100, timeoutMs: 1_000 };
  const env = { REDIS_URL: REDIS_URL! };
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  const modelsOfA = new ModelChoice();
  const modelsOfB = new ModelChoice();
  let httpB: Client;
  let vendor: VendorRow;
  let user: Awaited<ReturnType<typeof makeUser>>;
  let app: AppRow;
  let relayKey: string;
  /** A raw subscriber on the deployment's adapter channels: the rooms broadcasts were published for, in order. */
  let redis: ReturnType<typeof createClient>;
  const published: string[] = [];
  /** A conversation a client on each instance stays joined to: a broadcast to it is always published. */
  let marker: { token: string; sockets: RelayClient[] };
  const sockets: RelayClient[] = [];

  beforeAll(async () => {
    a = await createListeningTestServer({ env, relayPresence, engine: { resolveModel: modelsOfA.resolve } });
    b = await createListeningTestServer({
      databaseUrl: a.databaseUrl,
      env,
      relayPresence,
      engine: { resolveModel: modelsOfB.resolve },
    });
    // B shares A's database: the vendor and person it makes are A's too.
    ({ vendor, user, client: httpB } = await signedInVendor(b, 'member'));
    app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
    relayKey = `${redisNamespace(a.ctx.config)}relay`;
    redis = createClient({ url: REDIS_URL });
    await redis.connect();
    const rooms = `${relayKey}#/#`;
    await redis.pSubscribe(`${rooms}*`, (_message, channel) =>
      published.push(channel.slice(rooms.length, -1)),
    );
    const token = (await makeConversation(a.ctx, app)).token;
    const kept: RelayClient[] = [];
    await joined(a, token, kept);
    await joined(b, token, kept);
    marker = { token, sockets: kept };
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.close();
  });
  afterAll(async () => {
    for (const socket of marker?.sockets ?? []) socket.close();
    await redis?.quit();
    await b?.close();
    await a?.close();
  });

  /** `kept`: where the socket is kept to be closed (by default, after each test). */
  async function joined(server: ListeningTestServer, token: string, kept = sockets) {
    const c = await RelayClient.connect(server.url, httpB.relayAuth());
    kept.push(c);
    expect(await c.ask('join', token)).toEqual({ ok: true });
    return c;
  }

  function send(http: Client, token: string, content: string, headers: Record<string, string> = {}) {
    return http.request({ method: 'POST', url: `/v1/conversations/${token}`, payload: { content }, headers });
  }

  /**
   * Tells each room from `server` that its state changed (straight to the adapter's broadcast: the hub checks
   * nothing), then the marker's room, again at each poll until Redis carried it (`server` publishes it once it
   * heard of the other instance's socket; published after them on the same connection): the rooms of those
   * that were published.
   */
  async function publishedFrom(server: ListeningTestServer, rooms: string[]): Promise<string[]> {
    const from = published.length;
    for (const room of rooms) server.ctx.relay.stateChanged(room, {});
    await expect
      .poll(() => {
        server.ctx.relay.emit(marker.token, 'probe', {});
        return published.slice(from);
      })
      .toContain(marker.token);
    return published.slice(from).filter((room) => room !== marker.token);
  }

  /** Sure of every instance's rooms: a room nobody joined is known unwatched (never so while unsure). */
  async function sure(server: ListeningTestServer) {
    await expect.poll(() => server.ctx.relay.watched(uniq('nobody-')), { timeout: 5_000 }).toBe(false);
  }

  it('delivers a completion run on instance B to clients on A, in order, input_async per poster', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const poster = await joined(a, conversation.token);
    const watcherA = await joined(a, conversation.token);
    const watcherB = await joined(b, conversation.token);
    modelsOfB.use(() => new ScriptedModel([[text('across '), text('instances'), finish()]]));

    const res = await send(httpB, conversation.token, 'Hello from B', { 'x-relay-socket': poster.id });
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

  it('publishes nothing for a conversation nobody joined, and every event once a client joined', async () => {
    const conversation = await makeConversation(a.ctx, app);
    await sure(b);
    const from = published.length;
    modelsOfB.use(() => new ScriptedModel([[text('unheard'), finish()]]));
    expect((await send(httpB, conversation.token, 'Nobody listens')).statusCode).toBe(200);
    await publishedFrom(b, []);
    expect(published.slice(from)).not.toContain(conversation.token);

    const watcher = await joined(a, conversation.token);
    modelsOfB.use(() => new ScriptedModel([[text('heard'), finish()]]));
    expect((await send(httpB, conversation.token, 'Someone listens')).statusCode).toBe(200);
    await watcher.waitForMessage('completion.ended');
    expect(
      watcher
        .messages()
        .map((m) => m.type)
        .filter((type) => type !== 'debug'),
    ).toEqual([
      'completion.started',
      'user_input',
      'completion_stream',
      'completion.finished',
      'completion.ended',
    ]);
    expect(published).toContain(conversation.token);
  });

  it('delivers a reply watched only where it runs without publishing it, and publishes once another instance has a client', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const onA = await joined(a, conversation.token);
    await sure(a);
    const from = published.length;
    const httpA = await Client.signedIn(a.app, user.email, user.password);
    httpA.vendorKey = vendor.key;
    modelsOfA.use(() => new ScriptedModel([[text('only '), text('here'), finish()]]));
    expect((await send(httpA, conversation.token, 'Watched on A')).statusCode).toBe(200);
    await onA.waitForMessage('completion.ended');
    expect(onA.messages().filter((m) => m.type === 'completion_stream')).toEqual([
      { type: 'completion_stream', data: { chunk: 'only ' } },
      { type: 'completion_stream', data: { chunk: 'here' } },
    ]);
    expect(await publishedFrom(a, [conversation.token])).toEqual([]);
    expect(published.slice(from)).not.toContain(conversation.token);

    const onB = await joined(b, conversation.token);
    // A's subscriber has read B's announcement (a reply would first wait on the database; this probe does not).
    await expect
      .poll(() => publishedFrom(a, [conversation.token]), { timeout: 5_000 })
      .toEqual([conversation.token]);
    modelsOfA.use(() => new ScriptedModel([[text('both'), finish()]]));
    expect((await send(httpA, conversation.token, 'Watched on A and B')).statusCode).toBe(200);
    for (const socket of [onA, onB]) {
      await socket.waitFor(
        (r) => r.event === 'message' && (r.data as { data?: { chunk?: string } }).data?.chunk === 'both',
      );
    }
  });

  it("reaches a client joined before its instance started: it learned the other instances' rooms", async () => {
    const conversation = await makeConversation(a.ctx, app);
    const onB = await joined(b, conversation.token);
    const late = await createListeningTestServer({
      databaseUrl: a.databaseUrl,
      env,
      relayPresence,
      engine: { resolveModel: () => new ScriptedModel([[text('late'), finish()]]) },
    });
    try {
      await sure(late);
      expect(late.ctx.relay.watched(conversation.token)).toBe(true);
      const http = await Client.signedIn(late.app, user.email, user.password);
      http.vendorKey = vendor.key;
      expect((await send(http, conversation.token, 'From a new instance')).statusCode).toBe(200);
      await onB.waitForMessage('completion.ended');
      expect(onB.messages().filter((m) => m.type !== 'debug')).toEqual([
        { type: 'completion.started', data: { input_async: true } },
        {
          type: 'user_input',
          data: { message: expect.objectContaining({ message: 'From a new instance' }) },
        },
        { type: 'completion_stream', data: { chunk: 'late' } },
        { type: 'completion.finished', data: { input_async: true } },
        { type: 'completion.ended', data: {} },
      ]);
    } finally {
      await late.close();
    }
    // Its stop closed its own sockets only.
    expect(await onB.ask('get')).toEqual({ ok: true });
  });

  it('stops publishing for a room once its last client left', async () => {
    const conversation = await makeConversation(a.ctx, app);
    const onB = await joined(b, conversation.token);
    // A's subscriber has read B's announcement (a reply would first wait on the database; this probe does not).
    await expect.poll(() => a.ctx.relay.watched(conversation.token)).toBe(true);
    expect(await publishedFrom(a, [conversation.token])).toEqual([conversation.token]);
    onB.close();
    await expect.poll(() => a.ctx.relay.watched(conversation.token)).toBe(false);
    expect(await publishedFrom(a, [conversation.token])).toEqual([]);
  });

  it('forgets the rooms of an instance gone without a goodbye, after the timeout', async () => {
    const room = uniq('gone-');
    // An instance of its own (no HTTP server), whose Redis connections end abruptly: no `bye`.
    const pub = createClient({ url: REDIS_URL });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    const io = new Server();
    io.adapter(createPresenceAdapter(pub, sub, { key: relayKey, ...relayPresence, onError: () => {} }));
    await (io.of('/').adapter as PresenceAdapter).addAll('its-socket', new Set([room]));
    // Sure, and knowing the room (A's subscriber has read the announcement; nothing else waits here).
    await expect.poll(() => !a.ctx.relay.watched(uniq('nobody-')) && a.ctx.relay.watched(room)).toBe(true);
    expect(await publishedFrom(a, [room])).toEqual([room]);
    sub.destroy();
    pub.destroy();
    await expect.poll(() => a.ctx.relay.watched(room), { timeout: 5_000 }).toBe(false);
    expect(await publishedFrom(a, [room])).toEqual([]);
  });

  it('publishes every event while a listener on the presence channel has not told its rooms', async () => {
    const room = uniq('nobody-');
    await sure(a);
    expect(await publishedFrom(a, [room])).toEqual([]);
    const stranger = createClient({ url: REDIS_URL });
    await stranger.connect();
    try {
      await stranger.subscribe(presenceChannel(relayKey), () => {});
      await expect.poll(() => a.ctx.relay.watched(room), { timeout: 5_000 }).toBe(true);
      expect(await publishedFrom(a, [room])).toEqual([room]);
    } finally {
      await stranger.quit();
    }
    await sure(a);
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
    const { vendor, user, client: http } = await signedInVendor(server, 'member');
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
