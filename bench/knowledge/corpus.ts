/**
 * The knowledge benches' generated data: QA documents over a 3,000-word vocabulary (frequent words more
 * often), and a local fake dense embedding model (deterministic 768-dimension vectors, each text the sum of
 * its words' fixed random vectors, so texts sharing words are close).
 */
import { lexicalWords } from '@llmor/server/modules/models/providers/builtin';

export const DENSE_DIMS = 768;

/** Deterministic pseudo-random numbers (mulberry32), so every run embeds the same corpus. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = rng(42);
const syllables = [
  'ka',
  'lo',
  'mi',
  'ne',
  'ru',
  'sa',
  'ti',
  'vo',
  'ze',
  'pa',
  'qui',
  'dor',
  'fen',
  'gal',
  'hus',
];
const vocabulary = Array.from({ length: 3000 }, () =>
  Array.from(
    { length: 2 + Math.floor(random() * 3) },
    () => syllables[Math.floor(random() * syllables.length)],
  ).join(''),
);
const word = () => vocabulary[Math.floor(random() ** 1.5 * vocabulary.length)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');

/** The local fake dense provider: each word's fixed random vector (seeded by the word), summed. */
export class DenseFakeModel {
  /** Time spent embedding (excluded from the dense import rate). */
  ms = 0;

  private readonly words = new Map<string, Float32Array>();

  private wordVector(w: string): Float32Array {
    let v = this.words.get(w);
    if (!v) {
      let seed = 0;
      for (let i = 0; i < w.length; i++) seed = (Math.imul(seed, 31) + w.charCodeAt(i)) | 0;
      const next = rng(seed);
      v = Float32Array.from({ length: DENSE_DIMS }, () => next() - 0.5);
      this.words.set(w, v);
    }
    return v;
  }

  /**
   * Embeds a slice of 32 texts per turn of the event loop: a provider's own work is not on the server's
   * thread (it answers over the network), so the fake's must not block that thread for a whole call either.
   * `ms` counts the computing only, not the turns between slices.
   */
  async embed(texts: string[]) {
    const vectors: number[][] = [];
    for (let i = 0; i < texts.length; i += 32) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      const t0 = performance.now();
      for (const t of texts.slice(i, i + 32)) {
        const sum = new Float64Array(DENSE_DIMS);
        for (const w of lexicalWords(t)) {
          const v = this.wordVector(w);
          for (let d = 0; d < DENSE_DIMS; d++) sum[d]! += v[d]!;
        }
        vectors.push(Array.from(sum));
      }
      this.ms += performance.now() - t0;
    }
    return { vectors, usage: { tokens: texts.length } };
  }
}

export function corpus(n: number) {
  return Array.from({ length: n }, (_, i) => ({ Q: `${sentence(6)} ${i}?`, A: sentence(18) }));
}
