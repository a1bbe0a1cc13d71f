import { RedisAdapter } from '@socket.io/redis-adapter';
import type { createClient } from 'redis';

/**
 * Which rooms have a socket on which instance, so that a broadcast nobody can hear is not published to Redis
 * (docs/adr/0049-relay-room-presence.md). Each instance announces its own rooms on one presence channel of the
 * deployment; messages are JSON (they are rare: a join, a leave, a heartbeat).
 */
export type Announcement =
  /** This instance (re)subscribed: its rooms; every other instance answers with a `snap`. */
  | { t: 'hello'; id: string; seq: number; rooms: string[] }
  /** An instance's rooms, whole (an answer to `hello` or `ask`). */
  | { t: 'snap'; id: string; seq: number; rooms: string[] }
  /** `to` must send its `snap`: the asker missed one of its announcements, or never heard of it. */
  | { t: 'ask'; id: string; to: string }
  | { t: 'add' | 'del'; id: string; seq: number; room: string }
  /** A heartbeat, with the sequence number of the sender's last announcement (a lost last one shows). */
  | { t: 'alive'; id: string; seq: number }
  /** A graceful close: forget this instance's rooms now. */
  | { t: 'bye'; id: string };

interface Peer {
  /** The sequence number of its last announcement applied here. */
  seq: number;
  rooms: Set<string>;
  heard: number;
}

/**
 * The decision half of presence, without Redis: this instance's announced rooms, every other instance's
 * rooms, and whether that view is sure. `send` publishes an announcement.
 */
export class RoomPresence {
  private seq = 0;
  private readonly mine = new Set<string>();
  private readonly peers = new Map<string, Peer>();
  /** How many other instances have each room. */
  private readonly remote = new Map<string, number>();
  /** Instances whose `snap` this instance waits for; their rooms are unknown. */
  private readonly asked = new Set<string>();
  /** How many other instances listen (from Redis); unknown until counted. */
  private others = Number.POSITIVE_INFINITY;

  constructor(
    readonly id: string,
    private readonly send: (a: Announcement) => Promise<void>,
    private readonly timeoutMs: number,
  ) {}

  /** Every other instance's rooms are known (a snapshot from each instance Redis counts, no gap since). */
  get sure(): boolean {
    return this.asked.size === 0 && this.peers.size >= this.others;
  }

  /** Whether another instance may have a socket in `room` (always, while not sure). */
  heardElsewhere(room: string): boolean {
    return !this.sure || this.remote.has(room);
  }

  /** Announces a room that appeared on this instance; resolves once published (undefined if announced already). */
  added(room: string): Promise<void> | undefined {
    if (this.mine.has(room)) return undefined;
    this.mine.add(room);
    return this.send({ t: 'add', id: this.id, seq: ++this.seq, room });
  }

  removed(room: string): Promise<void> | undefined {
    if (!this.mine.delete(room)) return undefined;
    return this.send({ t: 'del', id: this.id, seq: ++this.seq, room });
  }

  /** `fresh`: this instance may have missed announcements (it (re)subscribed), so it forgets what it knew. */
  hello(fresh: boolean): Promise<void> {
    if (fresh) {
      this.peers.clear();
      this.remote.clear();
      this.asked.clear();
      this.others = Number.POSITIVE_INFINITY;
    }
    return this.send({ t: 'hello', id: this.id, seq: ++this.seq, rooms: [...this.mine] });
  }

  /** How many other instances Redis counts as listening. */
  counted(others: number): void {
    this.others = others;
  }

  alive(): Promise<void> {
    return this.send({ t: 'alive', id: this.id, seq: this.seq });
  }

  bye(): Promise<void> {
    return this.send({ t: 'bye', id: this.id });
  }

  /** Forgets instances not heard from for the timeout (gone without a `bye`). */
  expire(now: number): void {
    for (const [id, peer] of this.peers) if (now - peer.heard > this.timeoutMs) this.forget(id);
  }

  /** While not sure: asks again (an earlier `hello` or `ask`, or its answer, may have been lost). */
  remind(): Promise<void>[] {
    if (this.sure) return [];
    const sent = [...this.asked].map((id) => this.ask(id));
    if (this.peers.size < this.others) sent.push(this.hello(false));
    return sent;
  }

  receive(a: Announcement, now: number): Promise<void> | undefined {
    if (a.id === this.id) return undefined;
    if (a.t === 'bye') return this.forget(a.id);
    if (a.t === 'ask') return a.to === this.id ? this.snapshot() : undefined;
    let peer = this.peers.get(a.id);
    const known = peer !== undefined;
    if (!peer) {
      peer = { seq: 0, rooms: new Set(), heard: now };
      this.peers.set(a.id, peer);
    }
    peer.heard = now;
    if (a.t === 'hello' || a.t === 'snap') {
      this.replace(peer, a.rooms);
      peer.seq = a.seq;
      this.asked.delete(a.id);
      return a.t === 'hello' ? this.snapshot() : undefined;
    }
    // Its snapshot, asked for, comes after this message and includes it.
    if (this.asked.has(a.id)) return undefined;
    const expected = a.t === 'alive' ? peer.seq : peer.seq + 1;
    if (!known || a.seq !== expected) return this.ask(a.id);
    if (a.t === 'alive') return undefined;
    peer.seq = a.seq;
    if (a.t === 'add') {
      if (!peer.rooms.has(a.room)) this.count(a.room, 1);
      peer.rooms.add(a.room);
    } else if (peer.rooms.delete(a.room)) {
      this.count(a.room, -1);
    }
    return undefined;
  }

  private snapshot(): Promise<void> {
    return this.send({ t: 'snap', id: this.id, seq: ++this.seq, rooms: [...this.mine] });
  }

  private ask(id: string): Promise<void> {
    this.asked.add(id);
    return this.send({ t: 'ask', id: this.id, to: id });
  }

  private forget(id: string): undefined {
    const peer = this.peers.get(id);
    if (peer) for (const room of peer.rooms) this.count(room, -1);
    this.peers.delete(id);
    this.asked.delete(id);
    return undefined;
  }

  private replace(peer: Peer, rooms: readonly string[]): void {
    for (const room of peer.rooms) this.count(room, -1);
    peer.rooms = new Set(rooms);
    for (const room of peer.rooms) this.count(room, 1);
  }

  private count(room: string, by: 1 | -1): void {
    const n = (this.remote.get(room) ?? 0) + by;
    if (n > 0) this.remote.set(room, n);
    else this.remote.delete(room);
  }
}

type RedisClient = ReturnType<typeof createClient>;

/** The channel a namespace's instances announce their rooms on; apart from the adapter's `<key>#<nsp>#*` rooms. */
export const presenceChannel = (key: string, nsp = '/') => `${key}-presence#${nsp}#`;
type BroadcastOptions = Parameters<RedisAdapter['broadcast']>[1];
type Namespace = ConstructorParameters<typeof RedisAdapter>[0];

export interface PresenceTiming {
  /** How often each instance says it is alive (default 5 s). */
  heartbeatMs?: number;
  /** An instance not heard from for this long is forgotten with its rooms (default three heartbeats). */
  timeoutMs?: number;
}

export interface PresenceAdapterOptions extends PresenceTiming {
  /** The deployment's adapter key (docs/adr/0048-one-redis-namespace-per-deployment.md). */
  key: string;
  onError: (err: unknown) => void;
}

/**
 * The socket.io Redis adapter, except that a broadcast whose rooms no instance has a socket in is not
 * published (docs/adr/0049-relay-room-presence.md). Evictions, fetches and server-side emits are the library's.
 */
export class PresenceAdapter extends RedisAdapter {
  readonly presence: RoomPresence;
  /** The presence channel. */
  private readonly announcements: string;
  /** The channels Redis counts listeners on: presence, and the library's requests (an instance without presence). */
  private readonly countedChannels: string[];
  /** Rooms whose `add` is being published: a second joiner waits for it too. */
  private readonly announcing = new Map<string, Promise<void>>();
  private readonly timer: NodeJS.Timeout;
  private readonly heartbeatMs: number;
  private lastTick = Date.now();
  // After a reconnect (subscriptions restored) this instance may have missed announcements: start over.
  private readonly onReady = () => void this.resync().catch(this.report);
  private readonly onError: (err: unknown) => void;
  /** Errors while Redis is away are expected (its client logged the loss once): only others are reported. */
  private readonly report = (err: unknown) => {
    if (this.redisUp) this.onError(err);
  };
  private readonly rawPub: RedisClient;
  private readonly listener = (message: string) => {
    let announcement: Announcement;
    try {
      announcement = JSON.parse(message) as Announcement;
    } catch (err) {
      return this.onError(err);
    }
    this.presence.receive(announcement, Date.now())?.catch(this.report);
  };

  constructor(nsp: Namespace, pub: RedisClient, sub: RedisClient, opts: PresenceAdapterOptions) {
    super(
      nsp,
      publishingQuietly(pub, (err) => {
        if (pub.isReady && sub.isReady) opts.onError(err);
      }),
      sub,
      { key: opts.key },
    );
    this.rawPub = pub;
    const heartbeatMs = opts.heartbeatMs ?? 5_000;
    this.heartbeatMs = heartbeatMs;
    this.onError = opts.onError;
    this.announcements = presenceChannel(opts.key, nsp.name);
    this.countedChannels = [this.announcements, `${opts.key}-request#${nsp.name}#`];
    this.presence = new RoomPresence(
      this.uid,
      async (a) => {
        await pub.publish(this.announcements, JSON.stringify(a));
      },
      opts.timeoutMs ?? 3 * heartbeatMs,
    );
    this.on('delete-room', (room: string) => this.presence.removed(room)?.catch(this.report));
    // Either client back after an outage: the hello may fail while the other still reconnects; `tick` repeats it.
    pub.on('ready', this.onReady);
    sub.on('ready', this.onReady);
    sub.subscribe(this.announcements, this.listener).then(this.onReady, this.onError);
    this.timer = setInterval(() => void this.tick().catch(this.report), heartbeatMs).unref();
  }

  /** Both clients connected: cross-instance delivery works. */
  private get redisUp(): boolean {
    return this.rawPub.isReady && this.subClient.isReady;
  }

  /** Whether any instance (this one included) may have a socket in `room`. */
  watched(room: string): boolean {
    return this.rooms.has(room) || this.elsewhere(room);
  }

  /** Whether another instance may have a socket in `room` (always, while this one may have missed news). */
  private elsewhere(room: string): boolean {
    return !this.subClient.isReady || this.presence.heardElsewhere(room);
  }

  /**
   * Resolves once every room new here is announced (Redis answered the publish): the relay acknowledges a
   * join after it, so every instance's subscriber already holds the announcement when the client acts.
   */
  override addAll(id: string, rooms: Set<string>): Promise<void> | void {
    super.addAll(id, rooms);
    const pending: Promise<void>[] = [];
    for (const room of rooms) {
      // A socket's own room is never announced: llmor never addresses a socket of another instance by its id.
      if (room === id) continue;
      // Redis away: the room is announced with this instance's hello once it is back; the join goes on.
      let announced = this.announcing.get(room) ?? this.presence.added(room)?.catch(this.report);
      if (!announced) continue;
      if (!this.announcing.has(room)) {
        const settled = announced.finally(() => {
          if (this.announcing.get(room) === settled) this.announcing.delete(room);
        });
        announced = settled;
        this.announcing.set(room, settled);
      }
      pending.push(announced);
    }
    if (pending.length === 0) return;
    const all = Promise.all(pending).then(() => undefined);
    // Callers that do not wait (socket.io's own joins) must not leave a rejection unhandled.
    all.catch(this.onError);
    return all;
  }

  /**
   * Published only when another instance may have a socket in a target room; delivered here alone when only
   * this instance has one (a reply watched where it runs publishes nothing); dropped when none has.
   */
  override broadcast(packet: unknown, opts: BroadcastOptions): void {
    if (opts.flags?.local) {
      super.broadcast(packet, opts);
    } else if (!this.rawPub.isReady) {
      // Redis away: this instance's sockets still hear it (docs/adr/0056-redis-outage.md).
      super.broadcast(packet, localOnly(opts));
    } else if (opts.rooms.size === 0 || this.anyElsewhere(opts.rooms)) {
      super.broadcast(packet, opts);
    } else if (this.anyHere(opts.rooms)) {
      super.broadcast(packet, localOnly(opts));
    }
  }

  /**
   * The library disconnects even this instance's sockets only when its own request comes back through Redis:
   * while Redis is away, a revoked caller's sockets here are disconnected directly.
   */
  override disconnectSockets(opts: BroadcastOptions, close: boolean): void {
    super.disconnectSockets(this.rawPub.isReady ? opts : localOnly(opts), close);
  }

  override async close(): Promise<void> {
    clearInterval(this.timer);
    this.subClient.off('ready', this.onReady);
    this.rawPub.off('ready', this.onReady);
    await Promise.allSettled([
      this.subClient.unsubscribe(this.announcements, this.listener),
      this.presence.bye(),
    ]);
    // The library's unsubscribes are not awaited: sent to a disconnected client they would reject unhandled.
    if (this.subClient.isReady) await super.close();
  }

  private anyElsewhere(rooms: Set<string>): boolean {
    for (const room of rooms) if (this.elsewhere(room)) return true;
    return false;
  }

  private anyHere(rooms: Set<string>): boolean {
    for (const room of rooms) if (this.rooms.has(room)) return true;
    return false;
  }

  private async resync(): Promise<void> {
    await this.presence.hello(true);
    await this.count();
  }

  private async tick(): Promise<void> {
    // Closed by its owner (not reconnecting): nothing more to say.
    if (!this.rawPub.isOpen) return clearInterval(this.timer);
    const now = Date.now();
    // A late tick means this event loop stalled, with others' heartbeats still unread: judge no one by it.
    if (now - this.lastTick < 2 * this.heartbeatMs) this.presence.expire(now);
    this.lastTick = now;
    await this.presence.alive();
    await this.count();
    await Promise.all(this.presence.remind());
  }

  private async count(): Promise<void> {
    const counts = (await this.rawPub.pubSubNumSub(this.countedChannels)) as Record<string, number>;
    this.presence.counted(Math.max(...this.countedChannels.map((c) => counts[c] ?? 0)) - 1);
  }
}

const localOnly = (opts: BroadcastOptions): BroadcastOptions => ({
  ...opts,
  flags: { ...opts.flags, local: true },
});

/**
 * The publisher as the library sees it: the library never handles a failed publish, and one rejected while Redis
 * is away would end the process as an unhandled rejection.
 */
function publishingQuietly(pub: RedisClient, onError: (err: unknown) => void): RedisClient {
  // A view on the same client (node-redis derives its own proxies this way), differing only in `publish`.
  const publish = (...args: Parameters<RedisClient['publish']>) =>
    pub.publish(...args).catch((err: unknown) => {
      onError(err);
      return 0;
    });
  const view: RedisClient = Object.create(pub, { publish: { value: publish } });
  return view;
}

/** What socket.io takes (`io.adapter(...)`) in place of the library's `createAdapter`, one adapter per namespace. */
export function createPresenceAdapter(pub: RedisClient, sub: RedisClient, opts: PresenceAdapterOptions) {
  // A function, not an arrow: socket.io calls it with `new` (the library's `createAdapter` is one too).
  return function presenceAdapter(nsp: Namespace): PresenceAdapter {
    return new PresenceAdapter(nsp, pub, sub, opts);
  };
}
