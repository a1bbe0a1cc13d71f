import type { FastifyInstance } from 'fastify';
import type { ServerContext } from './context';

/**
 * Replies, in every role: those still running when the app closes are aborted (a serving process drained
 * them before, ADR 0055), each storing its error and end events, before the HTTP server waits for its
 * requests (a send waits for its reply, ADR 0025). Replies whose process died left their leases: released,
 * with the interrupted reply's notice, before this process takes a send; on the embedded database this
 * process is the only one, so every lease is stale (ADR 0025).
 */
export async function startReplies(app: FastifyInstance, ctx: ServerContext): Promise<void> {
  app.addHook('preClose', async () => {
    await ctx.completion.close(app.log);
  });
  await ctx.completion.releaseStaleLeases(ctx, { all: ctx.database.soleProcess });
}
