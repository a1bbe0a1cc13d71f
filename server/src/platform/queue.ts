/**
 * The job queue: pg-boss over the app's own database (PGlite through `executeSql`, or the PostgreSQL
 * pool), so the default single process needs nothing else and server mode shares one queue between any
 * number of API and worker processes. Domains declare their jobs (`JobDefinition`) beside their routes;
 * the composition root defines them all and, in a process with the `worker` role, works them.
 */
import { SpanKind } from '@opentelemetry/api';
import type { FastifyBaseLogger } from 'fastify';
import PgBoss from 'pg-boss';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Database } from './db';
import { LATENCY_BUCKETS, type Metrics } from './metrics';
import { inSpan } from './tracing';

/** Every job names the vendor it works for (null for instance-wide jobs such as the monitor's ping). */
export interface JobData {
  vendorId: number | null;
}

export interface JobDefinition<T extends JobData = JobData> {
  /** pg-boss queue name (letters, digits, `-`, `_`, `.`). */
  name: string;
  /** Attempts after the first failure (default 3), spaced by exponential backoff from `retryDelay` s. */
  retryLimit?: number;
  retryDelay?: number;
  /** A job still active after this long (its process died) is failed and retried (default 120 s). */
  expireInSeconds?: number;
  /** A cron line: the worker sends this job on that schedule (once across all workers). */
  cron?: string;
  /** What the job does; its result is stored as the job's output. A throw fails the attempt. */
  handler(data: T, job: { id: string }): Promise<unknown>;
}

/** Builds a job definition with its data type checked at the handler. */
export const job = <T extends JobData>(definition: JobDefinition<T>): JobDefinition<T> => definition;

type JobStatus = 'success' | 'failure' | 'active' | 'queued';

export interface JobRecord {
  id: string;
  action: string;
  status: JobStatus;
  timestamp: string;
  /** Milliseconds from start to end; null until it ended. */
  duration: number | null;
  output: unknown;
  error: string | null;
  vendor_id: number | null;
}

export interface JobHistoryQuery {
  /** Only jobs of this queue (undefined: all). */
  action?: string;
  /** Leave out housekeeping: scheduled jobs (sweeps) and the queue library's own. */
  hideInternal?: boolean;
  page: number;
  pageSize: number;
}

/** pg-boss names its own queues (maintenance, schedules) with this prefix. */
const INTERNAL_PREFIX = '\\_\\_pgboss';

const STATUS_OF: Record<string, JobStatus> = {
  created: 'queued',
  retry: 'queued',
  active: 'active',
  completed: 'success',
  failed: 'failure',
  cancelled: 'failure',
};

const SCHEMA = 'pgboss';

interface JobRow {
  id: string;
  name: string;
  state: string;
  data: unknown;
  output: unknown;
  created_on: Date | string;
  started_on: Date | string | null;
  completed_on: Date | string | null;
}

function errorOf(state: string, output: unknown): string | null {
  if (state !== 'failed') return null;
  if (output && typeof output === 'object' && 'message' in output) return String(output.message);
  return output == null ? 'failed' : JSON.stringify(output);
}

function vendorOf(data: unknown): number | null {
  const v = data && typeof data === 'object' && 'vendorId' in data ? data.vendorId : null;
  return typeof v === 'number' ? v : null;
}

const ms = (d: Date | string) => new Date(d).getTime();

export class JobQueue {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private readonly workerIds = new Map<string, string>();
  private starting: Promise<void> | null = null;
  private stopped = false;
  private readonly jobs: Counter<'job' | 'outcome'> | undefined;
  private readonly jobDuration: Histogram<'job'> | undefined;

  constructor(
    private readonly database: Database,
    log: FastifyBaseLogger,
    private readonly opts: { worker: boolean; pollingIntervalSeconds?: number; metrics?: Metrics },
  ) {
    this.boss = new PgBoss({
      db: {
        // Once stopped, pg-boss's late statements are dropped (see `stop`); it reads a command's answer as
        // the count of rows it changed: none.
        executeSql: (text, values) =>
          this.stopped ? Promise.resolve({ rows: [{ count: 0 }] }) : database.executeSql(text, values),
      },
      schema: SCHEMA,
      // Maintenance (expiry of dead jobs, archiving) and cron run in worker processes only.
      supervise: opts.worker,
      schedule: opts.worker,
    });
    this.boss.on('error', (err) => log.error({ err }, 'job queue error'));
    const registers = opts.metrics ? [opts.metrics] : undefined;
    if (!registers) return;
    this.jobs = new Counter({
      name: 'llmor_jobs_total',
      help: 'Jobs this process worked, by job name and outcome (success, failure: pg-boss retries it or gives up).',
      labelNames: ['job', 'outcome'],
      registers,
    });
    this.jobDuration = new Histogram({
      name: 'llmor_job_duration_seconds',
      help: 'Time one job took in this process, by job name.',
      labelNames: ['job'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    const queue = this;
    new Gauge({
      name: 'llmor_queue_jobs',
      help: 'Jobs waiting (queued, or waiting for a retry) and running, by job name and state, on every instance.',
      labelNames: ['job', 'state'],
      registers,
      async collect() {
        this.reset();
        for (const { name, state, n } of await queue.depth()) this.set({ job: name, state }, n);
      },
    });
  }

  /** Live jobs by name and state; nothing before the queue's schema exists. */
  private async depth(): Promise<{ name: string; state: string; n: number }[]> {
    if (!this.starting || this.stopped) return [];
    await this.starting;
    const { rows } = await this.database.executeSql(
      `select name, state::text as state, count(*)::int as n from ${SCHEMA}.job where state in ('created', 'retry', 'active') group by name, state`,
    );
    return rows as unknown as { name: string; state: string; n: number }[];
  }

  /** Runs one job of `name`, counted and timed when metrics are on, in a trace of its own when tracing is. */
  private async work(name: string, handler: () => Promise<unknown>): Promise<unknown> {
    const started = performance.now();
    let outcome = 'failure';
    try {
      const result = await inSpan(
        `job ${name}`,
        { 'llmor.job.name': name },
        undefined,
        handler,
        SpanKind.CONSUMER,
      );
      outcome = 'success';
      return result;
    } finally {
      this.jobs?.inc({ job: name, outcome });
      this.jobDuration?.observe({ job: name }, (performance.now() - started) / 1000);
    }
  }

  /** Declares jobs (senders need their queues too). Call before `start`. */
  define(definitions: JobDefinition<never>[]): void {
    for (const d of definitions) this.definitions.set(d.name, d);
  }

  /** Installs/migrates the queue schema and creates the queues; in a worker also starts working them. */
  start(): Promise<void> {
    this.starting ??= this.startOnce();
    return this.starting;
  }

  private async startOnce(): Promise<void> {
    // One process at a time: pg-boss's queue creation deadlocks between processes starting together on a
    // fresh database (ADR 0055).
    await this.database.underStartLock(async () => {
      await this.boss.start();
      for (const d of this.definitions.values()) {
        await this.boss.createQueue(d.name, {
          name: d.name,
          retryLimit: d.retryLimit ?? 3,
          retryDelay: d.retryDelay ?? 2,
          retryBackoff: true,
          expireInSeconds: d.expireInSeconds ?? 120,
        });
      }
    });
    if (!this.opts.worker) return;
    for (const d of this.definitions.values()) {
      const id = await this.boss.work<JobData>(
        d.name,
        { pollingIntervalSeconds: this.opts.pollingIntervalSeconds ?? 1, batchSize: 1 },
        async ([j]) =>
          this.work(d.name, () => (d.handler as JobDefinition['handler'])(j!.data, { id: j!.id })),
      );
      this.workerIds.set(d.name, id);
      if (d.cron) await this.boss.schedule(d.name, d.cron, { vendorId: null });
    }
  }

  /** Queues a job; in a worker process the local worker is woken at once. Returns the job id. */
  async send<T extends JobData>(name: string, data: T): Promise<string> {
    if (!this.definitions.has(name)) throw new Error(`no job named '${name}' is defined`);
    await this.start();
    if (this.stopped) throw new Error(`the job queue has stopped: '${name}' was not queued`);
    const id = await this.boss.send(name, data);
    const worker = this.workerIds.get(name);
    if (worker) this.boss.notifyWorker(worker);
    return id!;
  }

  /** Jobs newest first, live and archived (the admin queue monitor). */
  async history(query: JobHistoryQuery): Promise<{ rows: JobRecord[]; filtered: number; total: number }> {
    await this.start();
    const internal = [...this.definitions.values()].filter((d) => d.cron).map((d) => d.name);
    const [filter, params]: [string, unknown[]] =
      query.action !== undefined
        ? [' where name = $1', [query.action]]
        : query.hideInternal
          ? [` where not (name = any($1::text[])) and name not like '${INTERNAL_PREFIX}%'`, [internal]]
          : ['', []];
    const columns = 'id::text, name, state::text, data, output, created_on, started_on, completed_on';
    const all = `select ${columns} from ${SCHEMA}.job ${filter} union all select ${columns} from ${SCHEMA}.archive ${filter}`;
    const n = params.length;
    const count = `select (select count(*) from ${SCHEMA}.job${filter}) + (select count(*) from ${SCHEMA}.archive${filter}) as n`;
    const everything = `select (select count(*) from ${SCHEMA}.job) + (select count(*) from ${SCHEMA}.archive) as n`;
    const [page, filtered, total] = await Promise.all([
      this.database.executeSql(
        `select * from (${all}) jobs order by created_on desc, id desc limit $${n + 1} offset $${n + 2}`,
        [...params, query.pageSize, query.page * query.pageSize],
      ),
      this.database.executeSql(count, params),
      this.database.executeSql(everything),
    ]);
    const rows = (page.rows as unknown as JobRow[]).map(
      (r): JobRecord => ({
        id: r.id,
        action: r.name,
        status: STATUS_OF[r.state] ?? 'queued',
        timestamp: new Date(r.created_on).toISOString(),
        duration: r.started_on && r.completed_on ? ms(r.completed_on) - ms(r.started_on) : null,
        output: r.state === 'completed' ? (r.output ?? null) : null,
        error: errorOf(r.state, r.output),
        vendor_id: vendorOf(r.data),
      }),
    );
    const n0 = (r: { rows: Record<string, unknown>[] }) => Number(r.rows[0]?.n ?? 0);
    return { rows, filtered: n0(filtered), total: n0(total) };
  }

  /**
   * Stops working (waiting briefly for running jobs) and detaches from the database. A job still running
   * past the wait ends later: pg-boss then completes or fails it without awaiting the statement, which
   * would reject once the database is closed and, unhandled, stop the process. Its statements are dropped
   * instead: pg-boss's stop has already given the job back for a retry.
   */
  async stop(): Promise<void> {
    if (!this.starting) return;
    await this.starting.catch(() => {});
    await this.boss.stop({ graceful: true, wait: true, timeout: 5_000, close: false });
    this.stopped = true;
  }
}
