/**
 * Instances started at once on a fresh database (ADR 0055): the migrations and
 * the seed run once, under an advisory lock, and every instance starts.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN } from '../../harness';
import {
  freshDatabase,
  killServerProcesses,
  onPostgres,
  type ServerProcess,
  startServerProcess,
} from '../server-process';

const DATABASE_URL = process.env.DATABASE_URL;
const MIGRATIONS = (
  JSON.parse(
    readFileSync(resolve(import.meta.dirname, '../../../server/drizzle/meta/_journal.json'), 'utf8'),
  ) as { entries: unknown[] }
).entries.length;

describe.runIf(Boolean(DATABASE_URL))('three instances started at once on a fresh database', () => {
  let database: Awaited<ReturnType<typeof freshDatabase>> | undefined;

  afterAll(async () => {
    await killServerProcesses();
    await database?.drop();
  });

  it('all start and are ready, with the admin seeded once and the migrations applied once', async () => {
    database = await freshDatabase(DATABASE_URL!);
    // Every instance the same key (README), and no DATA_DIR of their own to share.
    const env = { DATABASE_URL: database.url, ENCRYPTION_KEY: randomBytes(32).toString('base64') };
    const started = await Promise.allSettled([0, 1, 2].map(() => startServerProcess(env)));
    const failed = started.flatMap((s) => (s.status === 'rejected' ? [String(s.reason)] : []));
    expect(failed).toEqual([]);
    const servers = started.map((s) => (s as PromiseFulfilledResult<ServerProcess>).value);
    for (const server of servers) {
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect(server.child.exitCode).toBeNull();
    }

    const count = async (statement: string) => (await onPostgres(database!.url, statement)).rows[0].n;
    expect(await count(`select count(*)::int as n from users where email = '${ADMIN.email}'`)).toBe(1);
    expect(await count(`select count(*)::int as n from vendors where key = 'demo'`)).toBe(1);
    expect(await count('select count(*)::int as n from vendor_users')).toBe(1);
    expect(await count('select count(*)::int as n from drizzle.__drizzle_migrations')).toBe(MIGRATIONS);

    // And they stop as they should.
    for (const server of servers) server.signal('SIGTERM');
    expect(await Promise.all(servers.map((s) => s.exited))).toEqual([0, 0, 0]);
  }, 180_000);
});
