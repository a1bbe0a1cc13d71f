import { type SQL, type Subquery, sql } from 'drizzle-orm';

/**
 * The rows of `subquery` as one JSON list of objects keyed by its fields, in the order the aggregate meets
 * them (a sorted subquery's, in practice), to read with other rows in one statement: one value to send and parse
 * rather than a row each. Values come back as JSON gives them (a timestamp as text).
 */
export function jsonList<T>(subquery: Subquery): SQL<T[]> {
  const fields = Object.entries(subquery._.selectedFields as Record<string, unknown>).map(
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`,
  );
  return sql<
    T[]
  >`(select coalesce(json_agg(json_build_object(${sql.join(fields, sql`, `)})), '[]'::json) from ${subquery})`;
}

/** A list of rows as its columns: one JSON list per field, the rows' values at the same index. */
export type Columns<T> = { [K in keyof T]: T[K][] };

/**
 * The rows of `subquery` as one JSON object of columns (`{field: [values…]}`), the values of one row at the
 * same index of every list: one aggregate pass feeds every list the rows in one order (a sorted subquery's,
 * in practice; a caller that needs an order sorts the rows). For long lists of small rows PostgreSQL builds
 * columns ~3× faster than a list of objects (no keys and no type lookups per row), and the JSON it answers is
 * smaller to send and parse (bench/README.md "conversation").
 */
export function jsonColumns<T>(subquery: Subquery): SQL<Columns<T>> {
  const fields = Object.entries(subquery._.selectedFields as Record<string, unknown>).map(
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, coalesce(json_agg(${column}), '[]'::json)`,
  );
  return sql<Columns<T>>`(select json_build_object(${sql.join(fields, sql`, `)}) from ${subquery})`;
}
