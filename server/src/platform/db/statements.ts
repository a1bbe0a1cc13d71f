/**
 * Every SQL statement's time, by kind, for `llmor_db_statement_duration_seconds` (docs/adr/0040-traces.md):
 * the drivers' `query` is wrapped where the database is opened; the metric registers itself as the
 * listener. Kinds are a fixed set read from the statement's first word, so no SQL text becomes a label.
 */
export const STATEMENT_KINDS = ['select', 'insert', 'update', 'delete', 'other'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export type StatementListener = (kind: StatementKind, seconds: number, failed: boolean) => void;

const FIRST_WORD = /^\s*(?:\(\s*)*([a-z]+)/i;

/** `select`, `insert`, `update` or `delete` from the first word (a `with …` query counts as `other`). */
export function statementKind(sql: string): StatementKind {
  const word = FIRST_WORD.exec(sql)?.[1]?.toLowerCase();
  return word === 'select' || word === 'insert' || word === 'update' || word === 'delete' ? word : 'other';
}

/** Where a database's statements are reported; nothing is timed until a listener is set. */
export class StatementTimer {
  listener: StatementListener | undefined;

  /**
   * Replaces `target[method]` (a driver's `query`, called with the SQL text or a `{ text }` config first)
   * by one that times each call: by its promise, or by its callback when the caller passes one last.
   */
  wrap<K extends string>(target: Record<K, (...args: never[]) => unknown>, method: K): void {
    const original = target[method] as (...args: unknown[]) => unknown;
    const timer = this;
    target[method] = function timed(this: unknown, ...args: unknown[]) {
      const listener = timer.listener;
      const first = args[0] as string | { text?: unknown } | undefined;
      const sql = typeof first === 'string' ? first : first?.text;
      if (!listener || typeof sql !== 'string') return original.apply(this, args);
      const started = performance.now();
      const report = (failed: boolean) =>
        listener(statementKind(sql), (performance.now() - started) / 1000, failed);
      const last = args.at(-1);
      if (typeof last === 'function') {
        args[args.length - 1] = (err: unknown, ...rest: unknown[]) => {
          report(!!err);
          return last(err, ...rest);
        };
        return original.apply(this, args);
      }
      const result = original.apply(this, args);
      if (!(result instanceof Promise)) return result;
      return result.then(
        (value) => {
          report(false);
          return value;
        },
        (err: unknown) => {
          report(true);
          throw err;
        },
      );
    } as never;
  }
}

/**
 * Drizzle's query logger for one database, which statement-budget tests and the benches listen to. A
 * prepared statement keeps the logger it was built with (docs/adr/0043-hot-statements-prepared-once.md), so
 * the logger stays one object and only its listener changes.
 */
export class QueryLog {
  listener: ((query: string) => void) | undefined;

  logQuery(query: string): void {
    this.listener?.(query);
  }
}

/** The query log `openDatabase` gave drizzle for `db` (or a transaction of it). */
export function queryLogOf(db: object): QueryLog {
  return (db as { session: { logger: QueryLog } }).session.logger;
}
