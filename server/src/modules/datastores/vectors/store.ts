/**
 * Writes to the embeddings table (ADR 0033): dense vectors where pgvector exists go to the `embedding`
 * column and the datastore's HNSW index; every other vector is stored `packed` (its non-zero entries) for
 * the in-memory indexes. Like every repo, each function takes the vendor id and touches nothing unless
 * that vendor owns the datastore.
 */
import { sql } from 'drizzle-orm';
import { pack, stored } from '../memoryIndex';
import { noteVectorWrite, type VectorIndexes } from './indexes';
import { dropIndex, ensureIndex, indexedByDatabase, literal } from './pgvector';
import { ownedBy, prepareVectorStore, rowsOf, type SearchedDatastore } from './table';

/** Vectors per statement into the HNSW index: an insert costs ~5 ms there (bench/knowledge). */
const HNSW_WRITE_CHUNK = 8;
/**
 * Stored vectors' bytes per statement otherwise: a worker batch of lexical vectors (~360 bytes each) is one
 * statement, dense ones (3 KB at 768 dimensions) go in several, so no statement's JSON blocks the event
 * loop for long (ADR 0042, "Amended 2026-11-25 (2)").
 */
const STORE_STATEMENT_BYTES = 1 << 20;

/** The advisory-lock namespace of datastore vector writes (the second key is the datastore's id). */
const WRITE_LOCK = 0x64_73_76_77;

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
 * `keepIndex` (a process that serves searches): the rows join the server's in-memory index of the
 * datastore at once when it is current, or start it when the datastore had no vectors — an import is
 * searchable without the index reading it back.
 */
export async function storeEmbeddings(
  indexes: VectorIndexes,
  datastore: SearchedDatastore,
  rows: EmbeddedDocument[],
  opts: { keepIndex: boolean },
): Promise<void> {
  if (rows.length === 0) return;
  const { database } = indexes;
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
    noteVectorWrite(database, datastoreId);
    if (hnsw || !opts.keepIndex) continue;
    const written = rowsOf<{ before: string | number; id: number; seq: string | number }>(result);
    if (written.length === 0) continue;
    const byId = new Map(chunk.map((r, j) => [r.documentId, j]));
    await indexes.append(
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

/** Forgets a datastore's vectors and index (its embedding model changed, or it is deleted). */
export async function dropVectors(
  indexes: VectorIndexes,
  vendorId: number,
  datastoreId: number,
): Promise<void> {
  const { database } = indexes;
  await prepareVectorStore(database);
  const owned = rowsOf(await database.db.execute(sql`select 1 where ${ownedBy(vendorId, datastoreId)}`));
  if (owned.length === 0) return;
  await database.db.execute(sql`delete from datastore_embeddings where datastore_id = ${datastoreId}`);
  indexes.forget(datastoreId);
  await dropIndex(database, datastoreId);
}
