import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';

/** The probes' routes (not traced: they come every few seconds). */
export const HEALTH_PATHS = ['/healthz', '/readyz'];

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await ctx.database.ping();
      return { status: 'ok' };
    } catch {
      reply.code(503);
      return { status: 'unavailable' };
    }
  });
}
