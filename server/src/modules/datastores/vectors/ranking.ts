/**
 * The one search the datastores call (ADR 0033): ranked lists by vector and by words, fused by reciprocal
 * rank (RRF, k = 60).
 */
import { type RankedId, sparse } from '../memoryIndex';
import type { VectorIndexes } from './indexes';
import { indexedByDatabase, nearestByDatabase } from './pgvector';
import type { SearchedDatastore } from './table';
import { textMatches, waitingTextMatches } from './text-search';
import { noteSearch } from './warm-up';

const RRF_K = 60;

/**
 * Ranked lists to fuse — by vector (when there is one), by the words of embedded documents, and by the
 * words of documents still waiting for embedding. The query's vector may still be on its way (`vector` a
 * promise: the embedding model's answer).
 */
export async function rankedMatches(
  indexes: VectorIndexes,
  datastore: SearchedDatastore,
  query: { text: string; vector: number[] | null | Promise<number[] | null> },
  n: number,
): Promise<RankedId[][]> {
  const { database } = indexes;
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
    indexes.current(datastore, vector.length),
    waiting(),
    noteSearch(database, datastore.id),
  ]);
  return [index.nearest(sparse(vector), n), index.textMatches(query.text, n), waitingHits];
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
