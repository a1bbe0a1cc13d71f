/**
 * Where embeddings live and how documents are found (ADR 0003, ADR 0011, ADR 0033): what the rest of the
 * server uses of `vectors/`.
 *
 * Which engine searches a vector depends on its kind (ADR 0033):
 * - sparse vectors (the offline lexical embedder's), and every vector where the database has no pgvector,
 *   are stored `packed` and searched exactly by the server's in-memory indexes (`vectors/indexes.ts`, each
 *   a `memoryIndex.ts`), rebuilt from the table and following it by `seq`, warmed at start (`vectors/warm-up.ts`);
 * - dense vectors where pgvector exists go to a per-datastore partial HNSW index (`vectors/pgvector.ts`).
 *
 * Search is hybrid (`vectors/ranking.ts`): the nearest passages by vector and the best full-text matches are
 * fused by reciprocal rank. Embedded documents' words are matched by the in-memory BM25 index; documents
 * still waiting for embedding by their `search` tsvector in SQL (`vectors/text-search.ts`). Writes are in
 * `vectors/store.ts`, the table's DDL in `vectors/table.ts`.
 */
export type { RankedId } from './memoryIndex';
export { VectorIndexes } from './vectors/indexes';
export { dropOrphanIndexes } from './vectors/pgvector';
export { fuse, rankedMatches } from './vectors/ranking';
export { dropVectors, storeEmbeddings } from './vectors/store';
export { prepareVectorStore, rowsOf } from './vectors/table';
export { textMatches } from './vectors/text-search';
export { warmMemoryIndexes } from './vectors/warm-up';
