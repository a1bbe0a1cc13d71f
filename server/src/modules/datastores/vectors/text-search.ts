/**
 * Full-text matches in SQL, by the documents' `search` tsvector (GIN): what finds documents still waiting
 * for embedding (embedded documents' words are matched by the in-memory BM25 index, ADR 0033).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../platform/db';
import type { RankedId } from '../memoryIndex';
import { rowsOf, type SearchedDatastore } from './table';

/** Words of a query as an OR of prefix-free lexemes (a question rarely has all its words in one passage). */
function orQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
  return words.length ? words.map((w) => `'${w}'`).join(' | ') : null;
}

/** Ids of the `n` best full-text matches in SQL, best first; `waiting`: only documents not embedded yet. */
export async function textMatches(
  db: Db,
  vendorId: number,
  datastoreId: number,
  text: string,
  n: number,
  opts: { waiting?: boolean } = {},
): Promise<RankedId[]> {
  const tsquery = orQuery(text);
  if (!tsquery) return [];
  // Waiting documents are found through their partial index first: usually none, and the word index
  // would otherwise be walked for every document of the datastore.
  const documents = opts.waiting
    ? sql`(with waiting as materialized (
        select id, search from datastore_documents
        where vendor_id = ${vendorId} and datastore_id = ${datastoreId} and requires_sync)
        select * from waiting)`
    : sql`(select id, search from datastore_documents where vendor_id = ${vendorId} and datastore_id = ${datastoreId})`;
  const rows = await db.execute(sql`
    select d.id, ts_rank(d.search, q) as score
    from ${documents} d, to_tsquery('simple', ${tsquery}) q
    where d.search @@ q
    order by score desc, d.id limit ${n}`);
  return rowsOf<{ id: number; score: number }>(rows).map((r) => ({ id: r.id, score: Number(r.score) }));
}

export const waitingTextMatches = (db: Db, datastore: SearchedDatastore, text: string, n: number) =>
  textMatches(db, datastore.vendorId, datastore.id, text, n, { waiting: true });
