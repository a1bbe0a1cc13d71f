import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';

/** The probes' routes (not traced: they come every few seconds). */
export const HEALTH_PATHS = ['/healthz', '/readyz'];

/** A database that has not answered the readiness ping within this long is not ready (ADR 0054). */
const READY_TIMEOUT_MS = 2_000;

export function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    if (await answersWithin(ctx.database.ping(), READY_TIMEOUT_MS)) return { status: 'ok' };
    reply.code(503);
    return { status: 'unavailable' };
  });
}

/** Whether `ping` succeeds within `ms`; a ping still pending then is left to fail on its own. */
async function answersWithin(ping: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([ping.then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
