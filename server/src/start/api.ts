import type { FastifyInstance } from 'fastify';
import { warmMemoryIndexes } from '../modules/datastores/vectors';
import type { ServerContext } from './context';

/**
 * The api role: a process that serves searches builds its datastores' in-memory indexes in the background,
 * recently searched first, so the first search after a start finds its index ready (ADR 0042).
 */
export function startApi(app: FastifyInstance, ctx: ServerContext): void {
  let closing = false;
  const warming = warmMemoryIndexes(ctx.vectorIndexes, { stopped: () => closing }).catch((err: unknown) => {
    if (!closing) app.log.warn({ err }, 'warming the datastores’ search indexes failed');
  });
  app.addHook('onClose', async () => {
    closing = true;
    await warming;
  });
}
