import { pino } from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { uniq } from '../test/harness';
import { type Database, openDatabase } from './db';
import { JobQueue } from './queue';

let database: Database;
beforeAll(async () => {
  database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: 'memory://' });
});
afterAll(() => database?.close());

it('a job that outlasts the stop ends without touching the closed database, given back for a retry', async () => {
  let closed = false;
  const late: string[] = [];
  // The database as the server closes it after the queue stopped.
  const closing: Database = {
    ...database,
    executeSql: (text, values) => {
      if (!closed) return database.executeSql(text, values);
      late.push(text);
      return Promise.reject(new Error('Cannot use a pool after calling end on the pool'));
    },
  };
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started = false;
  let ended = false;
  const queue = new JobQueue(closing, pino({ level: 'silent' }), {
    worker: true,
    pollingIntervalSeconds: 0.5,
  });
  // A name of this run's own: in server mode the database (and pg-boss's jobs) outlive a run, and an earlier
  // run's job given back for a retry would be the one this worker takes.
  const name = uniq('outlasting-');
  queue.define([
    {
      name,
      handler: async () => {
        started = true;
        await gate;
        ended = true;
      },
    },
  ]);
  await queue.start();
  const id = await queue.send(name, { vendorId: null });
  await expect.poll(() => started, { timeout: 10_000 }).toBe(true);
  await queue.stop(); // waits its 5 s for the job, which goes on
  closed = true;
  release();
  await expect.poll(() => ended).toBe(true);
  // pg-boss's completion came after the stop: dropped, never sent to the closed database (where its
  // rejection went unhandled and ended the process).
  await new Promise((resolve) => setImmediate(resolve));
  expect(late).toEqual([]);
  const { rows } = await database.executeSql('select state::text as state from pgboss.job where id = $1', [
    id,
  ]);
  expect(rows).toEqual([{ state: 'retry' }]);
  await expect(queue.send(name, { vendorId: null })).rejects.toThrow('the job queue has stopped');
}, 20_000);
