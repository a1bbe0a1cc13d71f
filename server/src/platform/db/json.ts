import { type SQL, type SQLWrapper, type Subquery, sql } from 'drizzle-orm';

/**
 * The rows of `subquery` as one JSON list of objects keyed by its fields, in `orderBy` (else in whatever
 * order the aggregate meets them), to read with other rows in one statement: one value to send and parse
 * rather than a row each. Values come back as JSON gives them (a timestamp as text).
 */
export function jsonList<T>(subquery: Subquery, orderBy?: SQLWrapper): SQL<T[]> {
  const fields = Object.entries(subquery._.selectedFields as Record<string, unknown>).map(
    ([key, column]) => sql`${sql.raw(`'${key}'`)}, ${column}`,
  );
  const order = orderBy ? sql` order by ${orderBy}` : sql``;
  return sql<
    T[]
  >`(select coalesce(json_agg(json_build_object(${sql.join(fields, sql`, `)})${order}), '[]'::json) from ${subquery})`;
}
