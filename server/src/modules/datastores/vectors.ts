/**
 * Where embeddings live and how documents are found (ADR 0003, ADR 0011, ADR 0033).
 *
 * `datastore_embeddings` is created here, not by a migration. Which engine searches a vector depends on
 * its kind (ADR 0033):
 * - sparse vectors (the offline lexical embedder's), and every vector where the database has no pgvector,
 *   are stored `packed` (their non-zero entries) and searched exactly by the process's in-memory index
 *   (`memoryIndex.ts`), which is rebuilt from this table and follows it by `seq`;
 * - dense vectors where pgvector exists go to the `embedding` column and a per-datastore partial HNSW
 *   index (cosine) at the dimension of the embedding model, so a search walks only that datastore's graph.
 *
 * Like every repo, each function that reads or writes a datastore's rows takes the vendor id and touches
 * nothing unless that vendor owns the datastore (the embeddings table has no vendor column of its own).
 *
 * Search is hybrid: the nearest passages by vector and the best full-text matches are fused by reciprocal
 * rank (RRF, k = 60). Embedded documents' words are matched by the in-memory BM25 index; documents still
 * waiting for embedding by their `search` tsvector (GIN) in SQL.
 */
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database, Db } from '../../platform/db';
import {
  DENSE_SHARE,
  MemoryIndex,
  pack,
  type RankedId,
  type SparseVector,
  sparse,
  stored,
  unpack,
} from './memoryIndex';
import { documentText } from './parse';
import { nextTurn } from './turns';

export type { RankedId } from './memoryIndex';

/** pgvector's HNSW indexes `vector` up to 2,000 dimensions and `halfvec` up to 4,000. */
const VECTOR_MAX_INDEXED = 2000;
const RRF_K = 60;
const EF_SEARCH_MIN = 200;
/** Vectors per statement into the HNSW index: an insert costs ~5 ms there (bench/knowledge). */
const HNSW_WRITE_CHUNK = 8;
/**
 * Stored vectors' bytes per statement otherwise: a worker batch of lexical vectors (~360 bytes each) is one
 * statement, dense ones (3 KB at 768 dimensions) go in several, so no statement's JSON blocks the event
 * loop for long (ADR 0042, "Amended 2026-11-25 (2)").
 */
const STORE_STATEMENT_BYTES = 1 << 20;
/** Rows added to an in-memory index between two turns of the event loop. */
const INDEX_SLICE = 128;
/** Rows read per statement while an in-memory index loads (the event loop breathes between pages). */
const LOAD_PAGE = 5000;
/**
 * What a process keeps of in-memory indexes, in postings (~8 bytes each: ~400 MB); the least recently
 * searched datastores' indexes go first and are rebuilt when searched again.
 */
const MEMORY_INDEX_POSTINGS_MAX = 50_000_000;

const prepared = new WeakMap<Database, Promise<void>>();
/** The `hnsw.ef_search` PGlite's one session holds. */
const sessionEfSearch = new WeakMap<Database, number>();

/** Creates the embeddings table once per database (idempotent; safe when several processes race). */
export function prepareVectorStore(database: Database): Promise<void> {
  let ready = prepared.get(database);
  if (!ready) {
    const column = database.hasVector ? 'vector' : 'real[]';
    ready = (async () => {
      await database.db.execute(sql.raw('create sequence if not exists datastore_embeddings_seq'));
      await database.db.execute(
        sql.raw(`create table if not exists datastore_embeddings (
          document_id integer primary key references datastore_documents(id) on delete cascade,
          datastore_id integer not null,
          dims integer not null,
          embedding ${column}
        )`),
      );
      // Tables made before the in-memory index (ADR 0033) gain its columns.
      await database.db.execute(
        sql.raw(`alter table datastore_embeddings
          alter column embedding drop not null,
          add column if not exists packed bytea,
          add column if not exists seq bigint not null default nextval('datastore_embeddings_seq')`),
      );
      await database.db.execute(
        sql.raw(
          'create index if not exists datastore_embeddings_seq_idx on datastore_embeddings (datastore_id, seq)',
        ),
      );
      // When each datastore was last searched: a starting process warms the recently searched first.
      await database.db.execute(
        sql.raw(`create table if not exists datastore_searches (
          datastore_id integer primary key references datastores(id) on delete cascade,
          searched_at timestamptz not null
        )`),
      );
      // A row goes with its document (cascade), and a document with its datastore: the key on the
      // datastore checked nothing more, and checking it cost as much as the insert (bench/knowledge).
      await database.db.execute(
        sql.raw(
          'alter table datastore_embeddings drop constraint if exists datastore_embeddings_datastore_id_fkey',
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
  forgetMemoryIndexes(database, datastoreId);
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

const literal = (v: number[]) => `[${v.join(',')}]`;

/** Whether the database's HNSW index serves this kind of vector (dense, pgvector, indexable size). */
function indexedByDatabase(database: Database, vector: ArrayLike<number>): boolean {
  if (!database.hasVector || vector.length > 4000) return false;
  let nonZero = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) nonZero++;
  return nonZero > vector.length * DENSE_SHARE;
}

/** A document the worker embedded: its id, the hash it had when claimed, its vector and its text. */
export interface EmbeddedDocument {
  documentId: number;
  hash: string;
  vector: number[];
  text: string;
}

/**
 * Stores (or replaces) the vectors of embedded documents of one datastore and marks them synced, one
 * statement per chunk: a document whose content changed since it was claimed keeps waiting. Each statement
 * takes the datastore's write lock first, so `seq` grows in commit order within a datastore and an in-memory
 * index that has read up to some `seq` never misses a row committed later with a smaller one.
 *
 * `keepIndex` (a process that serves searches): the rows join this process's in-memory index of the
 * datastore at once when it is current, or start it when the datastore had no vectors — an import is
 * searchable without the index reading it back.
 */
export async function storeEmbeddings(
  database: Database,
  datastore: SearchedDatastore,
  rows: EmbeddedDocument[],
  opts: { keepIndex: boolean },
): Promise<void> {
  if (rows.length === 0) return;
  await prepareVectorStore(database);
  const datastoreId = datastore.id;
  const dims = rows[0]!.vector.length;
  const hnsw = indexedByDatabase(database, rows[0]!.vector);
  if (hnsw) await ensureIndex(database, datastoreId, dims);
  const chunkSize = hnsw
    ? HNSW_WRITE_CHUNK
    : Math.max(1, Math.floor(STORE_STATEMENT_BYTES / pack(stored(rows[0]!.vector)).length));
  for (let i = 0; i < rows.length; i += chunkSize) {
    const chunk = rows.slice(i, i + chunkSize);
    const forms = hnsw ? [] : chunk.map((r) => stored(r.vector));
    const packed = forms.map(pack);
    const payload = JSON.stringify(
      chunk.map((r, j) => ({
        id: r.documentId,
        hash: r.hash,
        ...(hnsw ? { embedding: literal(r.vector) } : { packed: packed[j]!.toString('base64') }),
      })),
    );
    // Each document is found by its key (`limit 1` keeps the lookup per row): a join would let the
    // planner scan the whole datastore for every chunk.
    const store = sql`
      with x as (
        select x.* from json_to_recordset(${payload}::json) as x(id int, hash text, packed text, embedding text)),
      mine as materialized (
        select x.id, x.packed, x.embedding, d.hash = x.hash as current from x
        cross join lateral (
          select d.hash from datastore_documents d
          where d.id = x.id and d.datastore_id = ${datastoreId} and d.vendor_id = ${datastore.vendorId}
          limit 1) d),
      written as (
        insert into datastore_embeddings (document_id, datastore_id, dims, embedding, packed)
        select id, ${datastoreId}, ${dims},
          ${hnsw ? sql`embedding::vector` : sql`null`}, ${hnsw ? sql`null` : sql`decode(packed, 'base64')`}
        from mine
        on conflict (document_id) do update
          set embedding = excluded.embedding, packed = excluded.packed, dims = excluded.dims,
            datastore_id = excluded.datastore_id, seq = nextval('datastore_embeddings_seq')
        returning document_id, seq),
      synced as (
        update datastore_documents set requires_sync = false, sync_lease_until = null, sync_error = null
        where id = any(array(select id from mine where current)))
      select (select coalesce(max(seq), 0) from datastore_embeddings where datastore_id = ${datastoreId}) as before,
        document_id as id, seq from written`;
    // The embedded database has one session: statements already run one at a time.
    const result =
      database.kind === 'pglite'
        ? await database.db.execute(store)
        : await database.db.transaction(async (tx) => {
            await tx.execute(sql`select pg_advisory_xact_lock(${WRITE_LOCK}, ${datastoreId})`);
            return tx.execute(store);
          });
    vectorWrites.set(datastoreId, (vectorWrites.get(datastoreId) ?? 0) + 1);
    if (hnsw || !opts.keepIndex) continue;
    const written = rowsOf<{ before: string | number; id: number; seq: string | number }>(result);
    if (written.length === 0) continue;
    const byId = new Map(chunk.map((r, j) => [r.documentId, j]));
    await appendToMemoryIndex(
      database,
      datastore,
      dims,
      Number(written[0]?.before ?? 0),
      written.flatMap((w) => {
        const j = byId.get(w.id);
        return j === undefined
          ? []
          : [{ id: w.id, seq: Number(w.seq), vector: forms[j]!, text: chunk[j]!.text }];
      }),
    );
  }
}

/**
 * Adds rows just written to the datastore's in-memory index when it has read everything before them
 * (`before`: the datastore's highest `seq` ahead of the write) and no refresh is reading meanwhile;
 * otherwise the next search reads them from the table as it would have. The rows go in slices, the event
 * loop turning between them; a search meanwhile waits for the whole append, as for a refresh.
 */
async function appendToMemoryIndex(
  database: Database,
  datastore: SearchedDatastore,
  dims: number,
  before: number,
  rows: { id: number; seq: number; vector: SparseVector | Float32Array; text: string }[],
) {
  const key = indexKey(datastore, dims);
  const cache = memoryIndexes.get(database);
  let entry = cache?.get(key);
  if (!entry && before === 0) entry = memoryIndexOf(database, key, dims);
  if (!entry || entry.refresh || entry.index.seq !== before) return;
  const appending = entry;
  appending.refresh = (async () => {
    for (let i = 0; i < rows.length; i += INDEX_SLICE) {
      if (i > 0) await nextTurn();
      for (const row of rows.slice(i, i + INDEX_SLICE)) {
        appending.index.upsert(row.id, row.vector, row.text);
        appending.index.seq = Math.max(appending.index.seq, row.seq);
      }
    }
    appending.writesSeen = vectorWrites.get(datastore.id) ?? 0;
  })().finally(() => {
    appending.refresh = undefined;
    recount(memoryIndexes.get(database), key, appending);
  });
  await appending.refresh;
}

/** The advisory-lock namespace of datastore vector writes (the second key is the datastore's id). */
const WRITE_LOCK = 0x64_73_76_77;

/** Vector writes this process finished, by datastore (counted after the statement: no row is missed). */
const vectorWrites = new Map<number, number>();

interface IndexEntry {
  index: MemoryIndex;
  refresh?: Promise<void>;
  writesSeen: number;
}

/**
 * A process's in-memory indexes, least recently searched evicted first past `maxPostings`. An index larger
 * than the whole budget counts as the whole budget: it evicts every other and stays. Dropping it would not
 * lower the process's peak (each search would build it whole again, from every row of the table) and would
 * make every search of its datastore a rebuild (ADR 0042, "Amended 2026-11-25 (2)").
 */
export function indexCache(maxPostings: number): LRUCache<string, IndexEntry> {
  return new LRUCache({
    maxSize: maxPostings,
    sizeCalculation: (entry) => Math.min(maxPostings, Math.max(1, entry.index.postings)),
  });
}

/**
 * Counts an index again at its new size (it grew), if the cache still holds it. Setting the same entry
 * again would not: the cache measures a value when it is added or replaced by another, never when it is
 * set again, so every index stayed counted at the size it was made with (empty) and nothing was evicted.
 */
export function recount(cache: LRUCache<string, IndexEntry> | undefined, key: string, entry: IndexEntry) {
  if (cache?.peek(key) !== entry) return;
  cache.delete(key);
  cache.set(key, entry);
}

/** In-memory indexes by datastore, model and dimension (a changed model starts a new one). */
const memoryIndexes = new WeakMap<Database, LRUCache<string, IndexEntry>>();

function memoryIndexOf(database: Database, key: string, dims: number) {
  let cache = memoryIndexes.get(database);
  if (!cache) {
    cache = indexCache(MEMORY_INDEX_POSTINGS_MAX);
    memoryIndexes.set(database, cache);
  }
  let entry = cache.get(key);
  if (!entry) {
    entry = { index: new MemoryIndex(dims), writesSeen: -1 };
    cache.set(key, entry);
  }
  return entry;
}

/** An in-memory index's key: datastore, embedding model and dimension (a changed model starts a new one). */
const indexKey = (datastore: SearchedDatastore, dims: number) =>
  `${datastore.id}:${datastore.modelId ?? ''}:${dims}`;

const ofDatastore = (key: string, datastoreId: number) => key.startsWith(`${datastoreId}:`);

/** Forgets this process's in-memory indexes of a datastore. */
function forgetMemoryIndexes(database: Database, datastoreId: number) {
  const cache = memoryIndexes.get(database);
  if (!cache) return;
  for (const key of [...cache.keys()]) if (ofDatastore(key, datastoreId)) cache.delete(key);
}

/**
 * Forgets documents a search found in the in-memory index but the database no longer has: deleting a
 * document removes its row by cascade, which the index, following new rows only, does not see.
 */
export function forgetDocuments(database: Database, datastoreId: number, documentIds: number[]) {
  const cache = memoryIndexes.get(database);
  if (!cache) return;
  for (const [key, entry] of cache.entries())
    if (ofDatastore(key, datastoreId)) for (const id of documentIds) entry.index.remove(id);
}

/** Reads what the table gained since the index last looked (everything, the first time). */
async function refresh(database: Database, datastore: SearchedDatastore, dims: number, index: MemoryIndex) {
  for (;;) {
    const rows = rowsOf<{
      id: number;
      packed: Uint8Array | null;
      embedding: string | null;
      seq: string | number;
      document: unknown;
    }>(
      await database.db.execute(sql`
        select e.document_id as id, e.packed, case when e.packed is null then e.embedding::text end as embedding,
          e.seq, d.document
        from datastore_embeddings e join datastore_documents d on d.id = e.document_id
        where e.datastore_id = ${datastore.id} and d.vendor_id = ${datastore.vendorId}
          and e.seq > ${index.seq} and e.dims = ${dims}
        order by e.seq limit ${LOAD_PAGE}`),
    );
    for (let i = 0; i < rows.length; i++) {
      // A page of 5,000 dense rows took over a second of one turn of the event loop.
      if (i > 0 && i % INDEX_SLICE === 0) await nextTurn();
      const row = rows[i]!;
      // Rows written before ADR 0033 hold only the `embedding` column ('[…]' with pgvector, '{…}' without).
      const vector = row.packed
        ? unpack(row.packed, dims)
        : sparse(row.embedding!.slice(1, -1).split(',').map(Number));
      index.upsert(row.id, vector, documentText(row.document));
      index.seq = Math.max(index.seq, Number(row.seq));
    }
    if (rows.length < LOAD_PAGE) return;
  }
}

/** The datastore's in-memory index, brought up to date with the table (one refresh at a time). */
async function currentMemoryIndex(database: Database, datastore: SearchedDatastore, dims: number) {
  await prepareVectorStore(database);
  const key = indexKey(datastore, dims);
  const entry = memoryIndexOf(database, key, dims);
  while (entry.refresh) await entry.refresh;
  // Only this process uses the database (PGlite, the embedded server): nothing new to read unless it wrote since.
  const writes = vectorWrites.get(datastore.id) ?? 0;
  if (database.soleProcess && entry.writesSeen === writes) return entry.index;
  entry.writesSeen = writes;
  entry.refresh = refresh(database, datastore, dims, entry.index).finally(() => {
    entry.refresh = undefined;
    recount(memoryIndexes.get(database), key, entry);
  });
  await entry.refresh;
  return entry.index;
}

/** A process notes a datastore's search in the table at most this often. */
const SEARCH_NOTE_MS = 60_000;
const searchNoted = new WeakMap<Database, Map<number, number>>();

/** Notes that the datastore was searched (for the warm-up of a starting process), throttled per process. */
async function noteSearch(database: Database, datastoreId: number): Promise<void> {
  let noted = searchNoted.get(database);
  if (!noted) {
    noted = new Map();
    searchNoted.set(database, noted);
  }
  const now = Date.now();
  if (now - (noted.get(datastoreId) ?? 0) < SEARCH_NOTE_MS) return;
  noted.set(datastoreId, now);
  await database.db.execute(sql`
    insert into datastore_searches (datastore_id, searched_at)
    select id, now() from datastores where id = ${datastoreId}
    on conflict (datastore_id) do update set searched_at = excluded.searched_at`);
}

/**
 * Builds this process's in-memory indexes from the table in the background, recently searched datastores
 * first, until `maxPostings` (default: most of what a process keeps) — so the first search after a start
 * does not wait for a build. Reads only: every instance warms its own. `stopped()` ends it between
 * datastores (the server closes). Answers the datastores warmed.
 */
export async function warmMemoryIndexes(
  database: Database,
  opts: { maxPostings?: number; stopped?: () => boolean } = {},
): Promise<number[]> {
  await prepareVectorStore(database);
  const budget = opts.maxPostings ?? MEMORY_INDEX_POSTINGS_MAX * 0.8;
  const candidates = rowsOf<{ id: number; vendor_id: number; model_id: number | null; dims: number | null }>(
    await database.db.execute(sql`
      select d.id, d.vendor_id, d.embedding_vendor_model_id as model_id,
        (select e.dims from datastore_embeddings e
          where e.datastore_id = d.id and e.packed is not null limit 1) as dims
      from datastores d left join datastore_searches s on s.datastore_id = d.id
      order by s.searched_at desc nulls last, d.id`),
  );
  const warmed: number[] = [];
  for (const row of candidates) {
    if (opts.stopped?.() || row.dims === null) continue;
    const held = () => memoryIndexes.get(database)?.calculatedSize ?? 0;
    if (held() >= budget) break;
    await currentMemoryIndex(
      database,
      { vendorId: row.vendor_id, id: row.id, modelId: row.model_id },
      Number(row.dims),
    );
    // The index just built is counted in what the cache holds.
    if (held() > budget && warmed.length > 0) {
      forgetMemoryIndexes(database, row.id);
      break;
    }
    warmed.push(row.id);
  }
  return warmed;
}

/** Whether this process holds an in-memory index of the datastore (any model and dimension). */
export function holdsMemoryIndex(database: Database, datastoreId: number): boolean {
  const cache = memoryIndexes.get(database);
  return [...(cache?.keys() ?? [])].some((key) => ofDatastore(key, datastoreId));
}

export interface SearchedDatastore {
  /** The vendor that owns it (every read is scoped to it). */
  vendorId: number;
  id: number;
  /** Its embedding model (vectors of different models are indexed apart). */
  modelId: number | null;
}

/**
 * The one search the datastores call: ranked lists to fuse — by vector (when there is one), by the
 * words of embedded documents, and by the words of documents still waiting for embedding. The query's
 * vector may still be on its way (`vector` a promise: the embedding model's answer).
 */
export async function rankedMatches(
  database: Database,
  datastore: SearchedDatastore,
  query: { text: string; vector: number[] | null | Promise<number[] | null> },
  n: number,
): Promise<RankedId[][]> {
  // Without pgvector every search reads the waiting documents' words: that statement runs while the
  // query is embedded, instead of after (ADR 0042, "Amended").
  const early = database.hasVector ? null : waitingTextMatches(database.db, datastore, query.text, n);
  early?.catch(() => undefined);
  const vector = await query.vector;
  const waiting = () => early ?? waitingTextMatches(database.db, datastore, query.text, n);
  if (!vector) return [await waiting()];
  if (indexedByDatabase(database, vector)) {
    return Promise.all([
      nearestByDatabase(database, datastore, vector, n),
      textMatches(database.db, datastore.vendorId, datastore.id, query.text, n),
    ]);
  }
  const [index, waitingHits] = await Promise.all([
    currentMemoryIndex(database, datastore, vector.length),
    waiting(),
    noteSearch(database, datastore.id),
  ]);
  return [index.nearest(sparse(vector), n), index.textMatches(query.text, n), waitingHits];
}

/** Ids of the `n` nearest documents by the database's HNSW index (cosine), nearest first. */
async function nearestByDatabase(
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

/** Words of a query as an OR of prefix-free lexemes (a question rarely has all its words in one passage). */
export function orQuery(text: string): string | null {
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

const waitingTextMatches = (db: Db, datastore: SearchedDatastore, text: string, n: number) =>
  textMatches(db, datastore.vendorId, datastore.id, text, n, { waiting: true });

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
