import type { FastifyInstance } from 'fastify';
import { handleRelayConnection } from '../modules/conversations/relay';
import { redisNamespace } from '../platform/config';
import { proxyTrust } from '../platform/http/client-address';
import { limitSocketsPerAddress } from '../platform/relay/limits';
import type { PresenceTiming } from '../platform/relay/presence';
import { startRelay } from '../platform/relay/server';
import type { ServerContext } from './context';

/**
 * socket.io on this app's HTTP server (`serve`: the relay role) and/or the Redis adapter shared by all
 * instances, through which a process that serves no sockets still publishes to the rooms.
 */
export async function startRelayTransport(
  app: FastifyInstance,
  ctx: ServerContext,
  opts: { serve: boolean; presence?: PresenceTiming },
): Promise<void> {
  const { config } = ctx;
  await startRelay(app, ctx.relay, app.log, {
    serve: opts.serve,
    redisUrl: config.REDIS_URL,
    redisKey: `${redisNamespace(config)}relay`,
    presence: opts.presence,
    onConnection: (socket) => handleRelayConnection(ctx, socket),
    middleware: [
      limitSocketsPerAddress(
        ctx.rateLimiter,
        config.RELAY_SOCKETS_PER_ADDRESS,
        proxyTrust(config.TRUST_PROXY),
      ),
    ],
  });
}
