/**
 * The budget of a process's in-memory indexes (ADR 0042, "Amended 2026-11-25 (2)"): past it the least
 * recently searched index goes, and an index larger than the whole budget (a 100,000-document dense
 * datastore is about the default's size) stays, alone, instead of being dropped and rebuilt on every search.
 */
import { describe, expect, it } from 'vitest';
import { MemoryIndex } from '../memoryIndex';
import { indexCache, recount } from './indexes';

/** An index of `count` dense rows of 16 dimensions (each ~12 postings with its one word). */
function denseIndex(count: number) {
  const index = new MemoryIndex(16);
  for (let id = 1; id <= count; id++)
    index.upsert(
      id,
      Float32Array.from({ length: 16 }, (_, d) => ((id * 7 + d) % 5) - 2 || 1),
      `word${id}`,
    );
  return index;
}

describe('the in-memory index budget', () => {
  it('counts an index again as it grows, and evicts the least recently searched past the budget', () => {
    const a = denseIndex(10);
    const budget = Math.floor(a.postings * 2.5);
    const cache = indexCache(budget);
    cache.set('a', { index: a, writesSeen: 0 });
    cache.set('b', { index: denseIndex(10), writesSeen: 0 });
    cache.get('a');
    const c = { index: denseIndex(1), writesSeen: 0 };
    cache.set('c', c);
    expect([...cache.keys()].sort()).toEqual(['a', 'b', 'c']);
    // It grows (rows the worker stored) and is counted at its new size: the least recently searched goes.
    for (let id = 2; id <= 10; id++)
      c.index.upsert(
        id,
        Float32Array.from({ length: 16 }, () => 1),
        'w',
      );
    recount(cache, 'c', c);
    expect([...cache.keys()].sort()).toEqual(['a', 'c']);
  });

  it('keeps an index larger than the whole budget, alone, as it grows', () => {
    const small = denseIndex(10);
    const cache = indexCache(small.postings * 3);
    cache.set('other', { index: small, writesSeen: 0 });
    const entry = { index: denseIndex(20), writesSeen: 0 };
    cache.set('big', entry);
    // It grows past the budget (rows the worker stored) and is counted again.
    for (let id = 21; id <= 60; id++)
      entry.index.upsert(
        id,
        Float32Array.from({ length: 16 }, () => 1),
        'w',
      );
    expect(entry.index.postings).toBeGreaterThan(small.postings * 3);
    recount(cache, 'big', entry);
    expect(cache.get('big')).toBe(entry);
    expect(cache.has('other')).toBe(false);
    // Another index searched later takes its place.
    cache.set('other', { index: denseIndex(10), writesSeen: 0 });
    expect([...cache.keys()]).toEqual(['other']);
  });
});
