import { RELAY_PATH } from '@llmor/contracts';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import type { RelayHub } from './hub';
import type { RelayMiddleware } from './limits';

export interface RelayOptions {
  /** A socket.io server on the app's HTTP server at `/stream`, websocket transport only. */
  serve: boolean;
  /** The Redis adapter, so rooms span every instance; without `serve` the process still publishes. */
  redisUrl?: string;
  /** The adapter's channel prefix: this deployment's Redis namespace (`redisNamespace`). */
  redisKey?: string;
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

  let redis: { quit(): Promise<void> } | null = null;
  if (opts.redisUrl) {
    // Loaded only when REDIS_URL is set (they cost start time otherwise).
    const [{ createClient }, { createAdapter }] = await Promise.all([
      import('redis'),
      import('@socket.io/redis-adapter'),
    ]);
    const pub = createClient({ url: opts.redisUrl });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) client.on('error', (err) => log.error({ err }, 'relay redis error'));
    try {
      await Promise.all([pub.connect(), sub.connect()]);
    } catch (err) {
      await Promise.allSettled([pub.quit(), sub.quit()]);
      io.close();
      throw err;
    }
    io.adapter(createAdapter(pub, sub, { key: opts.redisKey }));
    redis = {
      quit: async () => {
        await Promise.allSettled([pub.quit(), sub.quit()]);
      },
    };
  }

  if (opts.serve) {
    for (const middleware of opts.middleware ?? []) io.use(middleware);
    io.on('connection', opts.onConnection);
  }
  hub.attach(io, { shared: Boolean(opts.redisUrl) });

  app.addHook('preClose', async () => {
    // This instance's sockets only: through the Redis adapter it would close every instance's.
    io.local.disconnectSockets(true);
    if (opts.serve) io.engine.close();
  });
  app.addHook('onClose', async () => {
    hub.detach();
    await io.of('/').adapter.close();
    await redis?.quit();
  });
}
