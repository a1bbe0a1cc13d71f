import { type RelayMessageData, RelayServerEvent } from '@llmor/contracts';
import { Gauge } from 'prom-client';
import type { Server } from 'socket.io';
import type { Metrics } from '../metrics';

/**
 * What the rest of the server uses to talk to a conversation's room: the completion engine, and later
 * Lua `relay.emit` / `state.set`. Rooms are named by the conversation token.
 */
interface RelayPublisher {
  /**
   * Sends `message` (the JSON string `{type, data}`) to the room of `token`.
   * `except`: a socket id that must not receive it. `only`: deliver only to that socket, and only if it
   * has joined this conversation.
   */
  emit<T extends string>(
    token: string,
    type: T,
    data: MessageData<T>,
    opts?: { except?: string; only?: string },
  ): void;
  /** Tells the room the state changed (`state_change`, whole new state), except one socket if given. */
  stateChanged(token: string, state: unknown, opts?: { except?: string }): void;
}

/** The payload of a `message` type: as contracts/src/relay.ts maps it, any JSON for a script's own types. */
export type MessageData<T extends string> = T extends keyof RelayMessageData ? RelayMessageData[T] : unknown;

/** The private room of one socket inside one conversation: lets `only` reach it only while joined. */
export const memberRoom = (token: string, socketId: string) => `${token}#${socketId}`;

/**
 * Who a socket speaks for: every socket is in the rooms of its callers (its session, its person, its API
 * client or embed, the vendor of the conversation it joined), so a revocation reaches it on every instance.
 */
export type CallerRoomKind = 'session' | 'user' | 'client' | 'embed' | 'vendor';
export const callerRoom = (kind: CallerRoomKind, id: number) => `caller:${kind}:${id}`;

/**
 * The process's publisher. Without a socket.io server (relay role off and no Redis) it drops events.
 * With one, it publishes through its adapter, so with Redis every instance's rooms are reached.
 */
export class RelayHub implements RelayPublisher {
  private io: Server | null = null;
  private isWatched: (room: string) => boolean = () => false;

  /** This instance's sockets and the conversation rooms they joined, read at each scrape. */
  constructor(metrics?: Metrics) {
    if (!metrics) return;
    const hub = this;
    new Gauge({
      name: 'llmor_relay_sockets',
      help: 'Relay sockets connected to this instance.',
      registers: [metrics],
      collect() {
        this.set(hub.io?.of('/').sockets.size ?? 0);
      },
    });
    new Gauge({
      name: 'llmor_relay_rooms',
      help: 'Conversation rooms with a socket on this instance.',
      registers: [metrics],
      collect() {
        this.set(hub.conversationRooms());
      },
    });
  }

  /** Rooms named by a conversation token: not a socket's own room, a member room or a caller room. */
  private conversationRooms(): number {
    if (!this.io) return 0;
    const namespace = this.io.of('/');
    let n = 0;
    for (const room of namespace.adapter.rooms.keys()) {
      if (!namespace.sockets.has(room) && !room.includes('#') && !room.startsWith('caller:')) n += 1;
    }
    return n;
  }

  /**
   * `watched`: whether any instance may have a socket in a room (one instance: its own rooms; with Redis the
   * presence adapter's view of every instance, docs/adr/0049-relay-room-presence.md).
   */
  attach(io: Server, watched: (room: string) => boolean): void {
    this.io = io;
    this.isWatched = watched;
  }

  detach(): void {
    this.io = null;
  }

  get attached(): boolean {
    return this.io !== null;
  }

  /**
   * Disconnects every socket of a caller on every instance (through the adapter): a revoked caller stops
   * receiving at once and must authenticate again to rejoin.
   */
  evict(kind: CallerRoomKind, ids: readonly number[]): void {
    if (!this.io || ids.length === 0) return;
    this.io.in(ids.map((id) => callerRoom(kind, id))).disconnectSockets(true);
  }

  /** Whether a socket on any instance may be in `room` (false while detached). */
  watched(room: string): boolean {
    return this.io !== null && this.isWatched(room);
  }

  /** How many sockets have joined a conversation's room (on every instance, through the adapter). */
  async roomSize(token: string): Promise<number> {
    if (!this.io) return 0;
    return (await this.io.in(token).fetchSockets()).length;
  }

  emit<T extends string>(
    token: string,
    type: T,
    data: MessageData<T>,
    opts: { except?: string; only?: string } = {},
  ): void {
    if (!this.io) return;
    const room = opts.only ? memberRoom(token, opts.only) : token;
    // A room nobody joined hears nothing: skip encoding it (a reply's every chunk).
    if (!this.isWatched(room)) return;
    const payload = JSON.stringify({ type, data });
    const target = this.io.to(room);
    (opts.except ? target.except(opts.except) : target).emit(RelayServerEvent.message, payload);
  }

  stateChanged(token: string, state: unknown, opts: { except?: string } = {}): void {
    if (!this.io) return;
    const target = this.io.to(token);
    (opts.except ? target.except(opts.except) : target).emit(RelayServerEvent.stateChange, state);
  }
}
