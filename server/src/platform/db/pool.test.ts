/**
 * The pool's idle connections (docs/adr/0047-a-lean-reply-path.md, amended 2026-11-25): which releases arm
 * pg's idle timer. On the PostgreSQL server of DATABASE_URL (`npm run test:pg`); the pool settings are the same
 * whichever server they reach.
 */
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { poolConfig, SHARED_IDLE_MS } from './index';

const url = process.env.DATABASE_URL;

/** The idle timers pg armed while `work` ran (pg's is the only timer of `SHARED_IDLE_MS` here). */
async function idleTimers(work: () => Promise<unknown>): Promise<number> {
  const setTimer = vi.spyOn(globalThis, 'setTimeout');
  try {
    await work();
    return setTimer.mock.calls.filter(([, ms]) => ms === SHARED_IDLE_MS).length;
  } finally {
    setTimer.mockRestore();
  }
}

const statements = (pool: pg.Pool, parallel: number) =>
  Promise.all(Array.from({ length: parallel }, () => pool.query('select pg_sleep(0.01)')));

describe.skipIf(!url)('the database pool', () => {
  const pools: pg.Pool[] = [];
  const open = (shared: boolean) => {
    const pool = new pg.Pool(poolConfig({ connectionString: url }, { shared }));
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((pool) => pool.end()));
  });

  it('embedded: released connections stay open and arm no idle timer', async () => {
    const pool = open(false);
    expect(await idleTimers(() => statements(pool, 4))).toBe(0);
    expect(pool.idleCount).toBe(4);
  });

  it('shared: the first two connections arm no idle timer, those above them close when idle', async () => {
    const pool = open(true);
    expect(await idleTimers(() => statements(pool, 2))).toBe(0);
    expect(await idleTimers(() => statements(pool, 4))).toBeGreaterThan(0);
    expect(pool.totalCount).toBe(4);
  });
});
