/**
 * Where embeddings live and how documents are found (ADR 0003, ADR 0011).
 *
 * `datastore_embeddings` is created here, not by a migration: with pgvector (always on PGlite) the
 * column is `vector` and each datastore gets its own partial HNSW index (cosine) at the dimension of its
 * embedding model, so a search walks only that datastore's graph; without pgvector (a PostgreSQL server
 * lacking the extension) the column is `real[]` and search is exact, in SQL.
 *
 * Search is hybrid: the nearest passages by vector and the best full-text matches (`search` tsvector,
 * GIN) are fused by reciprocal rank (RRF, k = 60).
 *
 * Like every repo, each function that reads or writes a datastore's rows takes the vendor id and touches
 * nothing unless that vendor owns the datastore (the embeddings table has no vendor column of its own).
 */
import { sql } from 'drizzle-orm';
import type { Database, Db } from '../../platform/db';

/** pgvector's HNSW indexes `vector` up to 2,000 dimensions and `halfvec` up to 4,000. */
const VECTOR_MAX_INDEXED = 2000;
const RRF_K = 60;
const EF_SEARCH_MIN = 200;
const WRITE_CHUNK = 8;

const prepared = new WeakMap<Database, Promise<void>>();
/** The `hnsw.ef_search` the embedded database's session holds. */
const sessionEfSearch = new WeakMap<Database, number>();

/** Creates the embeddings table once per database (idempotent; safe when several processes race). */
export function prepareVectorStore(database: Database): Promise<void> {
  let ready = prepared.get(database);
  if (!ready) {
    const column = database.hasVector ? 'vector' : 'real[]';
    ready = (async () => {
      await database.db.execute(
        sql.raw(`create table if not exists datastore_embeddings (
          document_id integer primary key references datastore_documents(id) on delete cascade,
          datastore_id integer not null references datastores(id) on delete cascade,
          dims integer not null,
          embedding ${column} not null
        )`),
      );
      await database.db.execute(
        sql.raw(
          'create index if not exists datastore_embeddings_ds_idx on datastore_embeddings (datastore_id)',
        ),
      );
    })().catch((err: unknown) => {
      prepared.delete(database);
      throw err;
    });
    prepared.set(database, ready);
  }
  return ready;
}

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

/**
 * The datastore's HNSW index at `dims` (ids and dims are inlined: a partial index only serves queries
 * whose predicate and expression match it literally). pgvector's default graph (m = 16,
 * ef_construction = 64): a sparser one (m = 8 / 32) inserts ~4× faster on PGlite but its recall@10 on
 * lexical vectors fell to 0.80 (bench/knowledge), which no ef_search won back.
 */
async function ensureIndex(database: Database, datastoreId: number, dims: number): Promise<void> {
  if (!database.hasVector || dims > 4000) return;
  const { type, ops } = vectorType(dims);
  await database.db.execute(
    sql.raw(
      `create index if not exists ${indexName(datastoreId)} on datastore_embeddings using hnsw ((embedding::${type}) ${ops}) where datastore_id = ${int(datastoreId)}`,
    ),
  );
}

/**
 * The vendor owns the datastore: a condition on no column of the row, so the database checks it once per
 * statement and the datastore's partial index still serves the search.
 */
const ownedBy = (vendorId: number, datastoreId: number) =>
  sql`exists (select 1 from datastores where id = ${datastoreId} and vendor_id = ${vendorId})`;

/** Forgets a datastore's vectors and index (its embedding model changed, or it is deleted). */
export async function dropVectors(database: Database, vendorId: number, datastoreId: number): Promise<void> {
  await prepareVectorStore(database);
  const owned = rowsOf(await database.db.execute(sql`select 1 where ${ownedBy(vendorId, datastoreId)}`));
  if (owned.length === 0) return;
  await database.db.execute(sql`delete from datastore_embeddings where datastore_id = ${datastoreId}`);
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
    if (Number.isSafeInteger(id)) await database.db.execute(sql.raw(`drop index if exists ${indexName(id)}`));
  }
  return rows.length;
}

const literal = (hasVector: boolean, v: number[]) => (hasVector ? `[${v.join(',')}]` : `{${v.join(',')}}`);

/** Stores (or replaces) the vectors of documents of one datastore. */
export async function writeVectors(
  database: Database,
  vendorId: number,
  datastoreId: number,
  rows: { documentId: number; vector: number[] }[],
): Promise<void> {
  if (rows.length === 0) return;
  await prepareVectorStore(database);
  const dims = rows[0]!.vector.length;
  await ensureIndex(database, datastoreId, dims);
  const column = database.hasVector ? 'vector' : 'real[]';
  // Small statements: an HNSW insert (~5 ms) runs in this thread on PGlite, so each chunk holds the event
  // loop only briefly (bench/knowledge: the health call's p99 during an import).
  for (let i = 0; i < rows.length; i += WRITE_CHUNK) {
    const chunk = rows.slice(i, i + WRITE_CHUNK);
    const payload = JSON.stringify(chunk.map((r) => [r.documentId, literal(database.hasVector, r.vector)]));
    await database.db.execute(sql`
      insert into datastore_embeddings (document_id, datastore_id, dims, embedding)
      select d.id, ${datastoreId}, ${dims}, (x->>1)::${sql.raw(column)}
      from jsonb_array_elements(${payload}::jsonb) x
      join datastore_documents d
        on d.id = (x->>0)::int and d.datastore_id = ${datastoreId} and d.vendor_id = ${vendorId}
      on conflict (document_id) do update
        set embedding = excluded.embedding, dims = excluded.dims, datastore_id = excluded.datastore_id`);
  }
}

export interface RankedId {
  id: number;
  score: number;
}

/** Ids of the `n` nearest embedded documents (cosine), nearest first; `exact` skips the index. */
export async function nearest(
  database: Database,
  vendorId: number,
  datastoreId: number,
  vector: number[],
  n: number,
  opts: { exact?: boolean } = {},
): Promise<RankedId[]> {
  await prepareVectorStore(database);
  const dims = vector.length;
  const ds = int(datastoreId);
  if (!database.hasVector) {
    const q = literal(false, vector);
    const rows = await database.db.execute(sql`
      select document_id as id,
        (select sum(a * b) from unnest(embedding, ${q}::real[]) as t(a, b)) as score
      from datastore_embeddings
      where datastore_id = ${sql.raw(ds)} and dims = ${dims} and ${ownedBy(vendorId, datastoreId)}
      order by score desc nulls last limit ${n}`);
    return rowsOf<{ id: number; score: number }>(rows).map((r) => ({ id: r.id, score: Number(r.score) }));
  }
  const { type } = vectorType(dims);
  const q = literal(true, vector);
  const query = sql`
    select document_id as id, 1 - (embedding::${sql.raw(type)} <=> ${q}::${sql.raw(type)}) as score
    from datastore_embeddings where datastore_id = ${sql.raw(ds)} and ${ownedBy(vendorId, datastoreId)}
    order by embedding::${sql.raw(type)} <=> ${q}::${sql.raw(type)} limit ${n}`;
  // The index returns at most ef_search rows, and a wider search finds the true neighbours more often.
  const efSearch = Math.max(EF_SEARCH_MIN, Math.min(1000, n * 4));
  let rows: unknown;
  if (database.kind === 'pglite' && !opts.exact) {
    // The embedded database has one session, ours: the setting stays set, so a search is one statement
    // instead of a transaction of four round trips to the database's thread (ADR 0019).
    if (sessionEfSearch.get(database) !== efSearch) {
      await database.db.execute(sql.raw(`set hnsw.ef_search = ${efSearch}`));
      sessionEfSearch.set(database, efSearch);
    }
    rows = await database.db.execute(query);
  } else {
    // A pooled connection is shared: the setting lives only as long as the transaction.
    rows = await database.db.transaction(async (tx) => {
      await tx.execute(
        sql.raw(opts.exact ? 'set local enable_indexscan = off' : `set local hnsw.ef_search = ${efSearch}`),
      );
      return tx.execute(query);
    });
  }
  return rowsOf<{ id: number; score: number }>(rows).map((r) => ({ id: r.id, score: Number(r.score) }));
}

/** Words of a query as an OR of prefix-free lexemes (a question rarely has all its words in one passage). */
export function orQuery(text: string): string | null {
  const words = [...new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])].slice(0, 32);
  return words.length ? words.map((w) => `'${w}'`).join(' | ') : null;
}

/** Ids of the `n` best full-text matches, best first. */
export async function textMatches(
  db: Db,
  vendorId: number,
  datastoreId: number,
  text: string,
  n: number,
): Promise<RankedId[]> {
  const tsquery = orQuery(text);
  if (!tsquery) return [];
  const rows = await db.execute(sql`
    select id, ts_rank(search, q) as score
    from datastore_documents, to_tsquery('simple', ${tsquery}) q
    where vendor_id = ${vendorId} and datastore_id = ${datastoreId} and search @@ q
    order by score desc, id limit ${n}`);
  return rowsOf<{ id: number; score: number }>(rows).map((r) => ({ id: r.id, score: Number(r.score) }));
}

/** Reciprocal-rank fusion of ranked lists: score = Σ 1 / (60 + rank). */
export function fuse(lists: RankedId[][], k: number): RankedId[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.forEach((hit, i) => {
      scores.set(hit.id, (scores.get(hit.id) ?? 0) + 1 / (RRF_K + i + 1));
    });
  }
  return [...scores.entries()]
    .map(([id, score]) => ({ id, score }))
    .sort((a, b) => b.score - a.score || a.id - b.id)
    .slice(0, k);
}

export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
