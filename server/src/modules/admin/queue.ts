/**
 * The queue monitor (superuser): job history of every queue, live and archived, and a ping job a worker
 * answers within seconds — the quickest proof that workers run.
 */
import { hostname } from 'node:os';
import {
  listEnvelopeSchema,
  PING_JOB,
  type QueueJob,
  queueJobSchema,
  queueJobsQuery,
  queuePingSchema,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { type JobQueue, job } from '../../platform/queue';

interface QueueContext extends AppContext {
  queue: JobQueue;
}

export const adminJobs = () => [
  job({
    name: PING_JOB,
    retryLimit: 0,
    handler: async () => ({
      pong: true,
      worker: `${hostname()}:${process.pid}`,
      at: new Date().toISOString(),
    }),
  }),
];

const tags = ['admin'];
const access = { auth: 'superuser' } as const;

export const queueRoutes = (ctx: QueueContext) => [
  route({
    method: 'GET',
    url: '/v1/admin/queue/jobs',
    summary: 'Job history, newest first (type all, ping, or custom with an action name)',
    tags,
    access,
    query: queueJobsQuery,
    response: listEnvelopeSchema(queueJobSchema),
    handler: async ({ query }) => {
      const action =
        query.type === 'ping' ? PING_JOB : query.type === 'custom' ? (query.action ?? '') : undefined;
      const { rows, filtered, total } = await ctx.queue.history({
        action,
        hideInternal: !query.internal,
        page: query.page,
        pageSize: query.page_size,
      });
      const data: QueueJob[] = rows;
      return { data, total_count: total, filter_count: filtered };
    },
  }),
  route({
    method: 'POST',
    url: '/v1/admin/queue/ping',
    summary: 'Queue a ping job (a worker answers it within seconds)',
    tags,
    access,
    status: 202,
    response: queuePingSchema,
    handler: async () => ({ data: { id: await ctx.queue.send(PING_JOB, { vendorId: null }) } }),
  }),
];
