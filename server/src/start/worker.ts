import { sweep } from '../modules/datastores/sync';
import type { ServerContext } from './context';

/**
 * The worker role: runs the queued jobs, and at start resumes what a stopped or killed process left (on
 * the embedded database it is the only process, so every lease is stale).
 */
export async function startWorker(ctx: ServerContext): Promise<void> {
  await ctx.queue.start();
  await sweep(ctx, { restart: ctx.database.soleProcess });
}
