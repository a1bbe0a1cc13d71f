import { createClient } from 'redis';
import { Server } from 'socket.io';
import { describe, expect, it, vi } from 'vitest';
import { uniq } from '../../test/harness';
import { type Announcement, createPresenceAdapter, type PresenceAdapter, RoomPresence } from './presence';

const REDIS_URL = process.env.REDIS_URL;

/** An instance's presence whose announcements are kept in `sent` (nothing is published). */
function instance(id: string, timeoutMs = 1_000) {
  const sent: Announcement[] = [];
  const presence = new RoomPresence(
    id,
    async (a) => {
      sent.push(a);
    },
    timeoutMs,
  );
  return { presence, sent };
}

/** Delivers everything `from` has sent since `since` to each of `to`. */
function deliver(from: ReturnType<typeof instance>, to: ReturnType<typeof instance>[], now = 0, since = 0) {
  for (const a of from.sent.slice(since)) for (const other of to) other.presence.receive(a, now);
}

/** Two instances that know each other: A said hello (Redis counts one other), B answered. */
function acquainted() {
  const a = instance('a');
  const b = instance('b');
  void a.presence.hello(true);
  a.presence.counted(1);
  deliver(a, [b]);
  deliver(b, [a]);
  return { a, b };
}

describe('room presence (the decision, without Redis)', () => {
  it('is sure once every instance Redis counts sent its rooms, and hears only those rooms', () => {
    const a = instance('a');
    const b = instance('b');
    void b.presence.added('room-1');
    void a.presence.hello(true);
    expect(a.presence.sure).toBe(false);
    expect(a.presence.heardElsewhere('room-2')).toBe(true);
    a.presence.counted(1);
    expect(a.presence.sure).toBe(false);
    deliver(a, [b]);
    // B answers A's hello with its whole state.
    expect(b.sent.at(-1)).toEqual({ t: 'snap', id: 'b', seq: 2, rooms: ['room-1'] });
    deliver(b, [a]);
    expect(a.presence.sure).toBe(true);
    expect(a.presence.heardElsewhere('room-1')).toBe(true);
    expect(a.presence.heardElsewhere('room-2')).toBe(false);

    const seen = b.sent.length;
    void b.presence.added('room-2');
    void b.presence.removed('room-1');
    deliver(b, [a], 0, seen);
    expect(a.presence.heardElsewhere('room-1')).toBe(false);
    expect(a.presence.heardElsewhere('room-2')).toBe(true);
  });

  it('asks again after a lost announcement, and is not sure until the answer', () => {
    const { a, b } = acquainted();
    expect(a.presence.sure).toBe(true);

    const seen = b.sent.length;
    void b.presence.added('lost');
    void b.presence.added('after');
    // The first `add` never arrives: the second one's number shows the gap.
    a.presence.receive(b.sent[seen + 1]!, 0);
    expect(a.sent.at(-1)).toEqual({ t: 'ask', id: 'a', to: 'b' });
    expect(a.presence.sure).toBe(false);
    expect(a.presence.heardElsewhere('anything')).toBe(true);
    const asked = b.sent.length;
    deliver(a, [b], 0, a.sent.length - 1);
    deliver(b, [a], 0, asked);
    expect(a.presence.sure).toBe(true);
    expect(a.presence.heardElsewhere('lost')).toBe(true);
    expect(a.presence.heardElsewhere('after')).toBe(true);
  });

  it("notices a lost last announcement by the heartbeat's number", () => {
    const { a, b } = acquainted();
    void b.presence.added('lost');
    void b.presence.alive();
    a.presence.receive(b.sent.at(-1)!, 0);
    expect(a.sent.at(-1)).toEqual({ t: 'ask', id: 'a', to: 'b' });
    expect(a.presence.sure).toBe(false);
  });

  it('asks an instance it never heard of for its rooms before trusting it', () => {
    const a = instance('a');
    void a.presence.hello(true);
    a.presence.counted(0);
    expect(a.presence.sure).toBe(true);
    a.presence.receive({ t: 'add', id: 'c', seq: 7, room: 'room' }, 0);
    expect(a.sent.at(-1)).toEqual({ t: 'ask', id: 'a', to: 'c' });
    expect(a.presence.sure).toBe(false);
    a.presence.receive({ t: 'snap', id: 'c', seq: 8, rooms: ['room'] }, 0);
    expect(a.presence.sure).toBe(true);
    expect(a.presence.heardElsewhere('room')).toBe(true);
  });

  it("forgets an instance's rooms at its bye, or when it is silent for the timeout", () => {
    const a = instance('a', 1_000);
    void a.presence.hello(true);
    a.presence.counted(2);
    a.presence.receive({ t: 'snap', id: 'b', seq: 1, rooms: ['shared', 'b-only'] }, 0);
    a.presence.receive({ t: 'snap', id: 'c', seq: 1, rooms: ['shared', 'c-only'] }, 0);
    a.presence.receive({ t: 'bye', id: 'b' }, 10);
    // Until Redis no longer counts B's subscription, an unknown listener remains: not sure.
    expect(a.presence.sure).toBe(false);
    a.presence.counted(1);
    expect(a.presence.heardElsewhere('b-only')).toBe(false);
    expect(a.presence.heardElsewhere('shared')).toBe(true);

    a.presence.receive({ t: 'alive', id: 'c', seq: 1 }, 500);
    a.presence.expire(1_500);
    expect(a.presence.heardElsewhere('c-only')).toBe(true);
    a.presence.expire(1_501);
    a.presence.counted(0);
    expect(a.presence.sure).toBe(true);
    expect(a.presence.heardElsewhere('shared')).toBe(false);
    expect(a.presence.heardElsewhere('c-only')).toBe(false);
  });

  it('is not sure while Redis counts a listener that never answered, and says hello again', () => {
    const a = instance('a');
    void a.presence.hello(true);
    a.presence.counted(2);
    a.presence.receive({ t: 'snap', id: 'b', seq: 1, rooms: [] }, 0);
    expect(a.presence.sure).toBe(false);
    const sent = a.sent.length;
    void a.presence.remind();
    expect(a.sent.slice(sent)).toEqual([{ t: 'hello', id: 'a', seq: 2, rooms: [] }]);
  });
});

describe.runIf(Boolean(REDIS_URL))('presence adapter (Redis)', () => {
  const adapter = (io: Server) => io.of('/').adapter as PresenceAdapter;

  it("resolves a join only once Redis answered its rooms' announcement, a concurrent one too", async () => {
    const pub = createClient({ url: REDIS_URL });
    const sub = pub.duplicate();
    await Promise.all([pub.connect(), sub.connect()]);
    // No HTTP server: the adapter alone, closed by hand.
    const io = new Server();
    try {
      const order: string[] = [];
      // Notes when Redis answered the publish of an `add`.
      const publish = pub.publish.bind(pub);
      vi.spyOn(pub, 'publish').mockImplementation(async (channel, message) => {
        const n = await publish(channel, message);
        if (JSON.parse(String(message)).t === 'add') order.push('announced');
        return n;
      });
      io.adapter(createPresenceAdapter(pub, sub, { key: uniq('presence-test-'), onError: () => {} }));
      const join = (socket: string) =>
        Promise.resolve(adapter(io).addAll(socket, new Set([socket, 'room']))).then(() => order.push(socket));
      // The second joiner finds the room already here: it waits for the same announcement.
      await Promise.all([join('first'), join('second')]);
      await expect.poll(() => order).toContain('announced');
      expect(order).toEqual(['announced', 'first', 'second']);
    } finally {
      await adapter(io).close();
      await Promise.allSettled([pub.quit(), sub.quit()]);
    }
  });
});
