/**
 * A server's in-memory indexes (ADR 0033): a `MemoryIndex` per datastore, embedding model and dimension,
 * of sparse vectors and words, and of dense vectors where the database has no pgvector. Each is rebuilt
 * from the embeddings table and follows it by `seq`; the least recently searched go past a budget (ADR 0042).
 *
 * One `VectorIndexes` per server, made by the composition root and reached through the context, so two
 * servers in one process keep their own; a test makes its own to play a process that starts.
 */
import { sql } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import type { Database } from '../../../platform/db';
import { MemoryIndex, type SparseVector, sparse, unpack } from '../memoryIndex';
import { documentText } from '../parse';
import { nextTurn } from '../turns';
import { prepareVectorStore, rowsOf, type SearchedDatastore } from './table';

/** Rows added to an in-memory index between two turns of the event loop. */
const INDEX_SLICE = 128;
/** Rows read per statement while an in-memory index loads (the event loop breathes between pages). */
const LOAD_PAGE = 5000;
/**
 * What a process keeps of in-memory indexes, in postings (~8 bytes each: ~400 MB); the least recently
 * searched datastores' indexes go first and are rebuilt when searched again.
 */
export const MEMORY_INDEX_POSTINGS_MAX = 50_000_000;

/**
 * Vector writes this process finished, by database and datastore (counted after the statement: no row is
 * missed). Kept by database, not by server: every index of the database in this process must see them.
 */
const vectorWrites = new WeakMap<Database, Map<number, number>>();

const writesTo = (database: Database, datastoreId: number) =>
  vectorWrites.get(database)?.get(datastoreId) ?? 0;

/** Counts a finished vector write (an index of an embedded database reads the table again only after one). */
export function noteVectorWrite(database: Database, datastoreId: number): void {
  let writes = vectorWrites.get(database);
  if (!writes) {
    writes = new Map();
    vectorWrites.set(database, writes);
  }
  writes.set(datastoreId, writesTo(database, datastoreId) + 1);
}

export interface IndexEntry {
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
export function recount(cache: LRUCache<string, IndexEntry>, key: string, entry: IndexEntry) {
  if (cache.peek(key) !== entry) return;
  cache.delete(key);
  cache.set(key, entry);
}

/** An in-memory index's key: datastore, embedding model and dimension (a changed model starts a new one). */
const indexKey = (datastore: SearchedDatastore, dims: number) =>
  `${datastore.id}:${datastore.modelId ?? ''}:${dims}`;

const ofDatastore = (key: string, datastoreId: number) => key.startsWith(`${datastoreId}:`);

/** A row just written, as an in-memory index takes it. */
export interface IndexedRow {
  id: number;
  seq: number;
  vector: SparseVector | Float32Array;
  text: string;
}

export class VectorIndexes {
  private readonly cache = indexCache(MEMORY_INDEX_POSTINGS_MAX);

  /** `database`: the one whose embeddings table the indexes follow. */
  constructor(readonly database: Database) {}

  /** What the indexes hold, in postings as the budget counts them. */
  get postings(): number {
    return this.cache.calculatedSize;
  }

  /** Whether an in-memory index of the datastore is held (any model and dimension). */
  holds(datastoreId: number): boolean {
    return [...this.cache.keys()].some((key) => ofDatastore(key, datastoreId));
  }

  /** Forgets the in-memory indexes of a datastore. */
  forget(datastoreId: number): void {
    for (const key of [...this.cache.keys()]) if (ofDatastore(key, datastoreId)) this.cache.delete(key);
  }

  /**
   * Forgets documents a search found in the in-memory index but the database no longer has: deleting a
   * document removes its row by cascade, which the index, following new rows only, does not see.
   */
  forgetDocuments(datastoreId: number, documentIds: number[]): void {
    for (const [key, entry] of this.cache.entries())
      if (ofDatastore(key, datastoreId)) for (const id of documentIds) entry.index.remove(id);
  }

  /** The datastore's in-memory index, brought up to date with the table (one refresh at a time). */
  async current(datastore: SearchedDatastore, dims: number): Promise<MemoryIndex> {
    const { database } = this;
    await prepareVectorStore(database);
    const key = indexKey(datastore, dims);
    const entry = this.entry(key, dims);
    while (entry.refresh) await entry.refresh;
    // Only this process uses the database (PGlite, the embedded server): nothing new to read unless it wrote since.
    const writes = writesTo(database, datastore.id);
    if (database.soleProcess && entry.writesSeen === writes) return entry.index;
    entry.writesSeen = writes;
    entry.refresh = refresh(database, datastore, dims, entry.index).finally(() => {
      entry.refresh = undefined;
      recount(this.cache, key, entry);
    });
    await entry.refresh;
    return entry.index;
  }

  /**
   * Adds rows just written to the datastore's in-memory index when it has read everything before them
   * (`before`: the datastore's highest `seq` ahead of the write) and no refresh is reading meanwhile;
   * otherwise the next search reads them from the table as it would have. The rows go in slices, the event
   * loop turning between them; a search meanwhile waits for the whole append, as for a refresh.
   */
  async append(
    datastore: SearchedDatastore,
    dims: number,
    before: number,
    rows: IndexedRow[],
  ): Promise<void> {
    const key = indexKey(datastore, dims);
    let entry = this.cache.get(key);
    if (!entry && before === 0) entry = this.entry(key, dims);
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
      appending.writesSeen = writesTo(this.database, datastore.id);
    })().finally(() => {
      appending.refresh = undefined;
      recount(this.cache, key, appending);
    });
    await appending.refresh;
  }

  private entry(key: string, dims: number): IndexEntry {
    let entry = this.cache.get(key);
    if (!entry) {
      entry = { index: new MemoryIndex(dims), writesSeen: -1 };
      this.cache.set(key, entry);
    }
    return entry;
  }
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
