/**
 * The statement timer (docs/adr/0040-traces.md): the kind from the first word only, both calling styles of
 * a driver's `query` (a promise, as drizzle calls it; a callback, as node-postgres' pool calls its clients),
 * failures reported as such.
 */
import { describe, expect, it } from 'vitest';
import { type StatementKind, StatementTimer, statementKind } from './statements';

describe('statementKind', () => {
  it('reads the first word, any case, and calls everything else other', () => {
    expect(statementKind('select 1')).toBe('select');
    expect(statementKind('\n  INSERT INTO t VALUES ($1)')).toBe('insert');
    expect(statementKind('(select 1) union (select 2)')).toBe('select');
    expect(statementKind('update t set a = 1')).toBe('update');
    expect(statementKind('delete from t')).toBe('delete');
    expect(statementKind('with x as (select 1) select * from x')).toBe('other');
    expect(statementKind('create table t (a int)')).toBe('other');
    expect(statementKind('')).toBe('other');
  });
});

describe('StatementTimer', () => {
  type Heard = [StatementKind, boolean][];
  const driver = () => ({
    query(sql: string | { text: string }, ...rest: unknown[]): Promise<string> | undefined {
      const text = typeof sql === 'string' ? sql : sql.text;
      const failed = text.includes('fail');
      const callback = rest.at(-1);
      if (typeof callback === 'function') {
        queueMicrotask(() => callback(failed ? new Error('failed') : null, 'rows'));
        return undefined;
      }
      return failed ? Promise.reject(new Error('failed')) : Promise.resolve('rows');
    },
  });
  const timed = () => {
    const timer = new StatementTimer();
    const target = driver();
    timer.wrap(target, 'query');
    const heard: Heard = [];
    return {
      timer,
      target,
      heard,
      listen: () => (timer.listener = (kind, _s, failed) => heard.push([kind, failed])),
    };
  };

  it('times promise calls, with their failures, and keeps their answers', async () => {
    const { target, heard, listen } = timed();
    listen();
    await expect(target.query({ text: 'select 1' })).resolves.toBe('rows');
    await expect(target.query('update fail')).rejects.toThrow('failed');
    expect(heard).toEqual([
      ['select', false],
      ['update', true],
    ]);
  });

  it('times callback calls when the callback comes', async () => {
    const { target, heard, listen } = timed();
    listen();
    const answers: unknown[] = [];
    await new Promise<void>((resolve) =>
      target.query('insert 1', [], (err: unknown, rows: unknown) => {
        answers.push(err, rows);
        resolve();
      }),
    );
    await new Promise<void>((resolve) => target.query('delete fail', [], () => resolve()));
    expect(answers).toEqual([null, 'rows']);
    expect(heard).toEqual([
      ['insert', false],
      ['delete', true],
    ]);
  });
});
