import { afterEach, describe, expect, it } from 'vitest';
import { SiliconPool } from './index';

// Fair sharing between tenants (docs/adr/0021-limits-inside-a-reply-and-fair-pool.md): a tenant holds at
// most `maxPerTenant` workers, tenants' queues are served in turn, FIFO within each.

/** A host function that blocks its run until `open()`; `waiting` counts the runs blocked in it. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  const g = {
    waiting: 0,
    open,
    wait: async () => {
      g.waiting += 1;
      await opened;
      g.waiting -= 1;
      return null;
    },
  };
  return g;
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

let pool: SiliconPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('tenants', () => {
  it("one tenant's blocked runs hold at most half the pool; another tenant's run goes through", async () => {
    pool = new SiliconPool({ size: 2, spares: 0 });
    const blocked = gate();
    const noisy = [1, 2, 3].map(() =>
      pool!.run({
        code: 'function run() wait() return "late" end',
        host: { wait: blocked.wait },
        tenant: 'a',
      }),
    );
    await until(() => blocked.waiting === 1);
    expect(pool.stats()).toMatchObject({ busy: 1, queued: 2 });

    const other = await pool.run({ code: 'function run() return "mine" end', tenant: 'b' });
    expect(other).toMatchObject({ status: 1, result: 'mine' });
    // Still blocked when the other tenant's answer came: it did not wait for them.
    expect(blocked.waiting).toBe(1);
    expect(pool.stats()).toMatchObject({ queued: 2 });

    blocked.open();
    expect((await Promise.all(noisy)).map((r) => r.result)).toEqual(['late', 'late', 'late']);
  });

  it('serves tenants in turn and each tenant first come, first served', async () => {
    pool = new SiliconPool({ size: 1, spares: 0 });
    const blocked = gate();
    const order: string[] = [];
    const first = pool.run({ code: 'function run() wait() end', host: { wait: blocked.wait }, tenant: 'x' });
    await until(() => blocked.waiting === 1);
    const queued = [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
      ['c', 'c1'],
      ['b', 'b2'],
    ].map(([tenant, name]) =>
      pool!.run({
        code: `function run() mark("${name}") end`,
        host: { mark: (n: unknown) => order.push(String(n)) },
        tenant,
      }),
    );
    blocked.open();
    await Promise.all([first, ...queued]);
    expect(order).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('runs without a tenant share one queue and may use the whole pool', async () => {
    pool = new SiliconPool({ size: 2, spares: 0 });
    const blocked = gate();
    const runs = [1, 2].map(() =>
      pool!.run({ code: 'function run() wait() end', host: { wait: blocked.wait } }),
    );
    await until(() => blocked.waiting === 2);
    expect(pool.stats()).toMatchObject({ busy: 2, queued: 0 });
    blocked.open();
    await Promise.all(runs);
  });

  it("a full queue refuses only that tenant's runs", async () => {
    pool = new SiliconPool({ size: 2, spares: 0, maxQueue: 1 });
    await pool.ready();
    const blocked = gate();
    const run = (tenant: string) =>
      pool!.run({ code: 'function run() wait() end', host: { wait: blocked.wait }, tenant });
    const held = [run('a'), run('a')];
    await until(() => blocked.waiting === 1);
    await expect(run('a')).rejects.toThrow('silicon pool queue is full (1 runs waiting)');
    const other = run('b');
    await until(() => blocked.waiting === 2);
    blocked.open();
    await Promise.all([...held, other]);
  });
});
