import type { FastifyInstance } from 'fastify';
import { adminJobs } from '../modules/admin/queue';
import { sessionJobs } from '../modules/auth/service';
import { closeParsePool } from '../modules/datastores/parse-pool';
import { datastoreJobs } from '../modules/datastores/sync';
import { slackJobs } from '../modules/slack/reply';
import type { ServerContext } from './context';

/** Background work every process can queue (a worker also runs it), and what closes after it. */
export function defineJobs(app: FastifyInstance, ctx: ServerContext): void {
  ctx.queue.define([...adminJobs(), ...sessionJobs(ctx), ...datastoreJobs(ctx), ...slackJobs(ctx)]);
  app.addHook('onClose', () => ctx.queue.stop());
  // After the queue: no job is left to reach a provider through the guard's connections.
  app.addHook('onClose', () => ctx.outbound.close());
  app.addHook('onClose', () => closeParsePool(ctx.config));
}
