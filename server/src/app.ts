import type { FastifyInstance } from 'fastify';
import type { Stopping } from './platform/http/connections';
import type { RouteSpec } from './platform/http/route';
import { createMetrics } from './platform/metrics';
import type { PresenceTiming } from './platform/relay/presence';
import { buildContext, type ContextOptions, type ServerContext } from './start/context';
import { createHttpServer, registerFallbacks, registerHttp } from './start/http';
import { defineJobs } from './start/jobs';
import { startReplies } from './start/replies';

export type { ServerContext };

export interface BuildOptions extends ContextOptions {
  /** Serve the built console (default true). */
  serveWeb?: boolean;
  /** The relay presence's heartbeat and timeout with Redis (tests shorten them). */
  relayPresence?: PresenceTiming;
}

/**
 * The composition root, as a table of contents: the context, HTTP, replies and jobs, then each role this
 * process runs (`ROLES`), its start-up loaded only when it runs. `inject()` drives the result in tests;
 * docs/ARCHITECTURE.md "Start-up" walks through it.
 */
export async function buildApp(
  opts: BuildOptions,
): Promise<{ app: FastifyInstance; ctx: ServerContext; routes: readonly RouteSpec[]; stopping: Stopping }> {
  const { config } = opts;
  const app = createHttpServer(config);
  // One registry per server; each domain registers its own families on it (docs/adr/0035-metrics.md).
  const metrics = createMetrics();
  const ctx = await buildContext(app, metrics, opts);
  const { routes, stopping } = await registerHttp(app, ctx, metrics);

  // Every role publishes to the rooms (through Redis when set); the relay role also serves the sockets.
  const serve = config.ROLES.includes('relay');
  if (serve || config.REDIS_URL) {
    const { startRelayTransport } = await import('./start/relay');
    await startRelayTransport(app, ctx, { serve, presence: opts.relayPresence });
  }
  await startReplies(app, ctx);
  defineJobs(app, ctx);
  if (config.ROLES.includes('worker')) {
    const { startWorker } = await import('./start/worker');
    await startWorker(ctx);
  }
  if (config.ROLES.includes('api')) {
    const { startApi } = await import('./start/api');
    startApi(app, ctx);
  }

  await registerFallbacks(app, routes, { config, serveWeb: opts.serveWeb !== false });
  return { app, ctx, routes, stopping };
}
