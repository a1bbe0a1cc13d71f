/**
 * Dense vectors in the in-memory index (ADR 0042, "Amended"): the int8 first pass and its exact rescoring
 * answer what an exact cosine scan answers, at widths the SIMD scan does not divide, and a removed document
 * is never among the hits.
 */
import { describe, expect, it } from 'vitest';
import { MemoryIndex, type RankedId, sparse } from './memoryIndex';

/** Deterministic pseudo-random numbers (mulberry32). */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Vectors like an embedding model's for short texts (bench/knowledge's fake): each the sum of a few of 500
 * "words" (fixed random vectors), frequent words more often, so neighbours share words and scores crowd.
 */
function corpus(dims: number, count: number, seed: number) {
  const random = rng(seed);
  const words = Array.from({ length: 500 }, () => Float32Array.from({ length: dims }, () => random() - 0.5));
  const text = (length: number) => {
    const v = new Float32Array(dims);
    for (let i = 0; i < length; i++) {
      const w = words[Math.floor(random() ** 1.5 * words.length)]!;
      for (let d = 0; d < dims; d++) v[d]! += w[d]!;
    }
    return v;
  };
  // Documents normalised here once (cosine is unchanged), so the exact scan below divides by the query's norm only.
  const normalised = (v: Float32Array) => {
    const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0));
    return v.map((x) => x / norm);
  };
  return {
    documents: Array.from({ length: count }, () => normalised(text(12))),
    queries: Array.from({ length: 40 }, () => text(3)),
  };
}

function exactNearest(documents: Float32Array[], query: Float32Array, n: number, gone: Set<number>) {
  const q = Math.sqrt(query.reduce((s, x) => s + x * x, 0));
  const hits: RankedId[] = [];
  documents.forEach((v, id) => {
    if (gone.has(id)) return;
    let dot = 0;
    for (let d = 0; d < v.length; d++) dot += v[d]! * query[d]!;
    hits.push({ id, score: dot / q });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, n);
}

/** Hits at least as good as the exact n-th, out of n (float32 rows: within 1e-5). */
function recall(found: RankedId[], truth: RankedId[]) {
  const nth = truth[found.length - 1]!.score;
  return found.filter((hit) => hit.score >= nth - 1e-5).length / found.length;
}

describe('dense vectors in the process index', () => {
  it.each([768, 100])('at %i dimensions, the same hits and scores as an exact scan', (dims) => {
    const { documents, queries } = corpus(dims, 3000, dims);
    const index = new MemoryIndex(dims);
    for (const [id, v] of documents.entries()) index.upsert(id, v, '');
    let total = 0;
    for (const query of queries) {
      const found = index.nearest(sparse(query), 10);
      const truth = exactNearest(documents, query, 30, new Set());
      expect(found).toHaveLength(10);
      // A hit's score is its exact cosine, not the int8 estimate.
      const exact = new Map(truth.map((hit) => [hit.id, hit.score]));
      for (const hit of found) if (exact.has(hit.id)) expect(hit.score).toBeCloseTo(exact.get(hit.id)!, 5);
      total += recall(found, truth);
    }
    expect(total / queries.length).toBeGreaterThanOrEqual(0.99);
  });

  it('a removed document is never found, and the hits still number n', () => {
    const dims = 64;
    const { documents, queries } = corpus(dims, 500, 7);
    const index = new MemoryIndex(dims);
    for (const [id, v] of documents.entries()) index.upsert(id, v, '');
    const gone = new Set<number>();
    // Two queries' best 60 hits go: more than the int8 pass keeps for 10 hits.
    for (const query of queries.slice(0, 2))
      for (const hit of exactNearest(documents, query, 60, gone)) {
        index.remove(hit.id);
        gone.add(hit.id);
      }
    for (const query of queries) {
      const found = index.nearest(sparse(query), 10);
      expect(found.filter((hit) => gone.has(hit.id))).toEqual([]);
      expect(found).toHaveLength(10);
      expect(recall(found, exactNearest(documents, query, 10, gone))).toBe(1);
    }
  });
});
