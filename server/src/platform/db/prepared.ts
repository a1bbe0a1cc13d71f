import type { Placeholder } from 'drizzle-orm';
import type { Db } from './index';

/**
 * The hot statements of a reply, each built once per database (docs/adr/0043-hot-statements-prepared-once.md):
 * drizzle builds the SQL text and its row mapping at `prepare`, every value is a placeholder filled at
 * `execute`, and on node-postgres the statement's name makes each connection parse and plan it once.
 * Keyed by the Db the caller passes, so a transaction's statements run in that transaction.
 */
const built = new WeakMap<Db, Map<string, unknown>>();

export function preparedOnce<T>(db: Db, name: string, build: (db: Db, name: string) => T): T {
  let statements = built.get(db);
  if (!statements) {
    statements = new Map();
    built.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (statement === undefined) {
    statement = build(db, name);
    statements.set(name, statement);
  }
  return statement;
}

/** A value of a statement: given when it is built each time, or filled at `execute` when prepared. */
export type Bound<T> = T | Placeholder;
