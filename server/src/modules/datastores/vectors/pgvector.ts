/**
 * Dense vectors where the database has pgvector (ADR 0033): each datastore's own partial HNSW index
 * (cosine) at the dimension of its embedding model, so a search walks only that datastore's graph.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../platform/db';
import { DENSE_SHARE, type RankedId } from '../memoryIndex';
import { ownedBy, prepareVectorStore, rowsOf, type SearchedDatastore } from './table';

/** pgvector's HNSW indexes `vector` up to 2,000 dimensions and `halfvec` up to 4,000. */
const VECTOR_MAX_INDEXED = 2000;
const EF_SEARCH_MIN = 200;

/** The `hnsw.ef_search` PGlite's one session holds. */
const sessionEfSearch = new WeakMap<Database, number>();

/** The SQL type a vector of `dims` is compared as, and its cosine operator class. */
function vectorType(dims: number): { type: string; ops: string } {
  return dims <= VECTOR_MAX_INDEXED
    ? { type: `vector(${dims})`, ops: 'vector_cosine_ops' }
    : { type: `halfvec(${dims})`, ops: 'halfvec_cosine_ops' };
}

const int = (n: number) => {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not an id: ${n}`);
  return String(n);
};
const indexName = (datastoreId: number) => `datastore_embeddings_hnsw_${int(datastoreId)}`;

export const literal = (v: number[]) => `[${v.join(',')}]`;

/** Whether the database's HNSW index serves this kind of vector (dense, pgvector, indexable size). */
export function indexedByDatabase(database: Database, vector: ArrayLike<number>): boolean {
  if (!database.hasVector || vector.length > 4000) return false;
  let nonZero = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) nonZero++;
  return nonZero > vector.length * DENSE_SHARE;
}

/**
 * The datastore's HNSW index at `dims` (ids and dims are inlined: a partial index only serves queries
 * whose predicate and expression match it literally). pgvector's default graph (m = 16,
 * ef_construction = 64): a sparser one (m = 8 / 32) inserts ~4× faster on PGlite but its recall@10 on
 * lexical vectors fell to 0.80 (bench/knowledge), which no ef_search won back.
 */
export async function ensureIndex(database: Database, datastoreId: number, dims: number): Promise<void> {
  if (!database.hasVector || dims > 4000) return;
  const { type, ops } = vectorType(dims);
  await database.db.execute(
    sql.raw(
      `create index if not exists ${indexName(datastoreId)} on datastore_embeddings using hnsw ((embedding::${type}) ${ops}) where datastore_id = ${int(datastoreId)}`,
    ),
  );
}

/** Drops the datastore's HNSW index, if any. */
export async function dropIndex(database: Database, datastoreId: number): Promise<void> {
  if (database.hasVector)
    await database.db.execute(sql.raw(`drop index if exists ${indexName(datastoreId)}`));
}

/**
 * Drops the HNSW indexes of datastores that no longer exist: deleting an app removes its datastores and
 * their vectors by cascade, but not the partial indexes named after them. Returns how many were dropped.
 */
export async function dropOrphanIndexes(database: Database): Promise<number> {
  if (!database.hasVector) return 0;
  await prepareVectorStore(database);
  const rows = rowsOf<{ name: string }>(
    await database.db.execute(sql`
      select i.indexname as name from pg_indexes i
      where i.tablename = 'datastore_embeddings' and i.indexname like 'datastore_embeddings_hnsw_%'
        and not exists (
          select 1 from datastores d
          where d.id = substring(i.indexname from 'datastore_embeddings_hnsw_([0-9]+)$')::int
        )`),
  );
  for (const { name } of rows) {
    const id = Number(/^datastore_embeddings_hnsw_(\d+)$/.exec(name)?.[1]);
    if (Number.isSafeInteger(id)) await dropIndex(database, id);
  }
  return rows.length;
}

/** Ids of the `n` nearest documents by the database's HNSW index (cosine), nearest first. */
export async function nearestByDatabase(
  database: Database,
  datastore: SearchedDatastore,
  vector: number[],
  n: number,
): Promise<RankedId[]> {
  await prepareVectorStore(database);
  const dims = vector.length;
  const ds = int(datastore.id);
  const { type } = vectorType(dims);
  const q = literal(vector);
  const query = sql`
    select document_id as id, 1 - (embedding::${sql.raw(type)} <=> ${q}::${sql.raw(type)}) as score
    from datastore_embeddings
    where datastore_id = ${sql.raw(ds)} and embedding is not null and ${ownedBy(datastore.vendorId, datastore.id)}
    order by embedding::${sql.raw(type)} <=> ${q}::${sql.raw(type)} limit ${n}`;
  // The index returns at most ef_search rows, and a wider search finds the true neighbours more often.
  const efSearch = Math.max(EF_SEARCH_MIN, Math.min(1000, n * 4));
  let rows: unknown;
  if (database.kind === 'pglite') {
    // PGlite has one session, ours: the setting stays set, so a search is one statement
    // instead of a transaction of four round trips to the database's thread (ADR 0019).
    if (sessionEfSearch.get(database) !== efSearch) {
      await database.db.execute(sql.raw(`set hnsw.ef_search = ${efSearch}`));
      sessionEfSearch.set(database, efSearch);
    }
    rows = await database.db.execute(query);
  } else {
    // A pooled connection is shared: the setting lives only as long as the transaction.
    rows = await database.db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local hnsw.ef_search = ${efSearch}`));
      return tx.execute(query);
    });
  }
  return rowsOf<{ id: number; score: number }>(rows).map((r) => ({ id: r.id, score: Number(r.score) }));
}
