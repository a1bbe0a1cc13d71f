import { RELAY_PATH } from '@llmor/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { closeRedis, connectRedisPair, logRedisState, type RedisClient } from '../redis';
import type { RelayHub } from './hub';
import type { RelayMiddleware } from './limits';
import type { PresenceAdapter, PresenceTiming } from './presence';

export interface RelayOptions {
  /** A socket.io server on the app's HTTP server at `/stream`, websocket transport only. */
  serve: boolean;
  /** The Redis adapter, so rooms span every instance; without `serve` the process still publishes. */
  redisUrl?: string;
  /** The adapter's channel prefix: this deployment's Redis namespace (`redisNamespace`). */
  redisKey?: string;
  /** How often instances tell each other they are alive, and when one is forgotten (tests shorten them). */
  presence?: PresenceTiming;
  /** What a connected socket may do (the conversations module answers join/get/set/patchState). */
  onConnection: (socket: Socket) => void;
  /** Checks a connection must pass before `onConnection` (limits per address). */
  middleware?: RelayMiddleware[];
}

/**
 * Starts the relay transport of this process (docs/reference/api.md "Relay"). With neither `serve` nor Redis the
 * hub stays a no-op.
 */
export async function startRelay(
  app: FastifyInstance,
  hub: RelayHub,
  log: FastifyBaseLogger,
  opts: RelayOptions,
): Promise<void> {
  if (!opts.serve && !opts.redisUrl) return;
  const io = opts.serve
    ? new Server(app.server, { path: RELAY_PATH, transports: ['websocket'], serveClient: false })
    : new Server({ serveClient: false });

  let redis: { close(): Promise<void> } | null = null;
  // One instance: its own rooms are every room; with Redis, the presence adapter knows every instance's.
  let watched = (room: string) => io.of('/').adapter.rooms.has(room);
  if (opts.redisUrl) {
    // Loaded only when REDIS_URL is set (it costs start time otherwise).
    const { createPresenceAdapter } = await import('./presence');
    let pub: RedisClient;
    let sub: RedisClient;
    try {
      [pub, sub] = await connectRedisPair(opts.redisUrl);
    } catch (err) {
      io.close();
      throw err;
    }
    logRedisState(pub, log, 'relay');
    logRedisState(sub, log, 'relay subscriber');
    // Publishes only what some instance can hear (docs/adr/0049-relay-room-presence.md); while Redis is away,
    // serves this instance's sockets alone (docs/adr/0056-redis-outage.md).
    io.adapter(
      createPresenceAdapter(pub, sub, {
        key: opts.redisKey ?? 'socket.io',
        ...opts.presence,
        onError: (err) => log.error({ err }, 'relay presence error'),
      }),
    );
    const adapter = io.of('/').adapter as PresenceAdapter;
    watched = (room) => adapter.watched(room);
    redis = {
      close: async () => {
        await Promise.allSettled([closeRedis(pub), closeRedis(sub)]);
      },
    };
  }

  if (opts.serve) {
    for (const middleware of opts.middleware ?? []) io.use(middleware);
    io.on('connection', opts.onConnection);
  }
  hub.attach(io, watched);

  app.addHook('preClose', async () => {
    // This instance's sockets only: through the Redis adapter it would close every instance's.
    io.local.disconnectSockets(true);
    if (opts.serve) io.engine.close();
  });
  app.addHook('onClose', async () => {
    hub.detach();
    await io.of('/').adapter.close();
    await redis?.close();
  });
}
