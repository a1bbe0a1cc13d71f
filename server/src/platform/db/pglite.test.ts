import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '.';
import { PgliteThread } from './pglite-thread';
import { ensurePgliteTemplate } from './template';

describe('embedded database on its own thread', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openDatabase({ dataDir: 'memory://' });
    await database.db.execute(sql`create table thread_probe (id int primary key, at timestamptz)`);
  });
  afterAll(() => database.close());

  it('keeps the event loop free while a long statement runs', async () => {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const started = performance.now();
    await database.db.execute(sql`select count(*) from generate_series(1, 2000000)`);
    const elapsed = performance.now() - started;
    clearInterval(timer);
    // On the server's thread the statement would hold the loop throughout: no tick at all.
    expect(elapsed).toBeGreaterThan(50);
    expect(ticks).toBeGreaterThan(elapsed / 20);
  });

  it("carries the database error's fields across (code, constraint)", async () => {
    await database.db.execute(sql`insert into thread_probe (id) values (1)`);
    const err = await database.db.execute(sql`insert into thread_probe (id) values (1)`).catch((e) => e);
    const cause = (err as { cause?: unknown }).cause ?? err;
    expect(cause).toBeInstanceOf(Error);
    expect(cause).toMatchObject({ code: '23505', constraint: 'thread_probe_pkey' });
  });

  it('rolls a failed transaction back and commits a good one', async () => {
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`insert into thread_probe (id) values (2)`);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe (id) values (3)`);
    });
    const { rows } = await database.executeSql('select id from thread_probe order by id');
    expect(rows.map((r) => r.id)).toEqual([1, 3]);
  });

  it('holds other statements until an open transaction ends', async () => {
    const order: string[] = [];
    let outside: Promise<unknown> | undefined;
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into thread_probe (id) values (4)`);
      outside = database.executeSql('select count(*)::int as n from thread_probe').then((r) => {
        order.push(`outside saw ${r.rows[0]?.n}`);
      });
      // Round trips to the database's thread after the outside statement was sent: were it not held, it would
      // run (and answer) before them.
      for (let i = 0; i < 3; i++) await tx.execute(sql`select 1`);
      await tx.execute(sql`insert into thread_probe (id) values (5)`);
      order.push('transaction done');
    });
    await outside;
    expect(order).toEqual(['transaction done', 'outside saw 4']);
  });

  it('answers dates as text to drizzle and as Date to raw SQL (pg-boss)', async () => {
    await database.executeSql("insert into thread_probe (id, at) values (10, '2026-01-02T03:04:05Z')");
    const viaDrizzle = (await database.db.execute(sql`select at from thread_probe where id = 10`)) as {
      rows: { at: unknown }[];
    };
    expect(typeof viaDrizzle.rows[0]?.at).toBe('string');
    const raw = await database.executeSql('select at from thread_probe where id = $1', [10]);
    expect(raw.rows[0]?.at).toEqual(new Date('2026-01-02T03:04:05Z'));
  });

  it('prepares a statement again when its table changed under it', async () => {
    await database.db.execute(sql`create table plan_probe (a int)`);
    await database.db.execute(sql`insert into plan_probe values (1)`);
    const read = () =>
      database.db.execute(sql`select * from plan_probe where a > ${0}`) as Promise<{ rows: unknown[] }>;
    expect((await read()).rows).toEqual([{ a: 1 }]);
    await database.db.execute(sql`alter table plan_probe add column b text default 'x'`);
    // The prepared plan's result type changed (Postgres' 0A000): prepared afresh, the new column answered.
    expect((await read()).rows).toEqual([{ a: 1, b: 'x' }]);
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table plan_probe add column c int default 2`);
    });
    await expect(
      database.db.transaction(async (tx) => {
        await tx.execute(sql`select * from plan_probe where a > ${0}`);
      }),
    ).rejects.toThrow();
    // Inside a transaction the changed plan fails it; the next use outside prepares afresh.
    expect((await read()).rows).toEqual([{ a: 1, b: 'x', c: 2 }]);
  });

  it('refuses statements once closed', async () => {
    const other = await openDatabase({ dataDir: 'memory://' });
    await other.close();
    await expect(other.ping()).rejects.toThrow('closed');
  });
});

describe('the database thread ending without close', () => {
  it('fails every statement from then on and says so once', async () => {
    const stops: string[] = [];
    const thread = await PgliteThread.open({ tarball: (await ensurePgliteTemplate()).tarball }, (reason) =>
      stops.push(reason.message),
    );
    await expect(thread.query('select 1 as one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
    // A crash of the thread, as an out-of-memory abort would end it.
    await (thread as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await expect(thread.query('select 1')).rejects.toThrow('the embedded database stopped');
    expect(stops).toEqual([expect.stringContaining('the embedded database stopped')]);
    await thread.close();
    expect(stops).toHaveLength(1);
  });
});
