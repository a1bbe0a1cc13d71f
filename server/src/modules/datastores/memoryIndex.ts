/**
 * The in-process search index of one datastore (ADR 0033): an exact inverted index of its vectors' non-zero
 * dimensions and a BM25 index of its documents' words. PostgreSQL holds the truth; this is rebuilt from it
 * (never from a file), so a crash loses nothing and a missing index is only slower for its first search.
 *
 * Vector search is exact. A sparse vector (at most half its entries non-zero) goes into postings by
 * dimension: a query's score on a document is the sum over the query's non-zero dimensions, so walking only
 * those dimensions' postings ranks every document that can score above zero; the offline lexical
 * embedder's queries have ~7 non-zero dimensions of 384, which makes this cheap. A dense vector (an
 * embedding model's, where the database has no pgvector) is kept whole, normalised, in float32 and as one
 * bit per dimension (`denseRows.ts`): a query scans the bits in SIMD and ranks the best of them by their exact
 * float32 cosine (docs/adr/0042-bulk-import-and-warm-indexes.md has the figures).
 */
import { lexicalWords } from '../models/providers/builtin';
import { DenseRows } from './denseRows';

export interface RankedId {
  id: number;
  score: number;
}

/** A vector's non-zero entries. */
export interface SparseVector {
  indices: Uint32Array;
  values: Float32Array;
}

const BM25_K1 = 1.2;
const BM25_B = 0.75;
/** A vector is dense when more than this share of its entries is non-zero. */
export const DENSE_SHARE = 0.5;

/** A growable pair of columns: slot numbers and a float per slot. */
class Postings {
  slots = new Int32Array(8);
  values = new Float32Array(8);
  length = 0;

  push(slot: number, value: number) {
    if (this.length === this.slots.length) {
      const slots = new Int32Array(this.length * 2);
      slots.set(this.slots);
      this.slots = slots;
      const values = new Float32Array(this.length * 2);
      values.set(this.values);
      this.values = values;
    }
    this.slots[this.length] = slot;
    this.values[this.length] = value;
    this.length++;
  }
}

function grow<T extends Float32Array | Float64Array | Int32Array | Uint8Array>(array: T, size: number): T {
  if (size <= array.length) return array;
  const next = new (array.constructor as new (n: number) => T)(Math.max(size, array.length * 2));
  next.set(array);
  return next;
}

/** The `n` best hits offered (score descending, then document id ascending); a hit that cannot enter costs a comparison. */
class Best {
  readonly hits: RankedId[] = [];

  constructor(private readonly n: number) {}

  offer(id: number, score: number) {
    const { hits, n } = this;
    if (n <= 0) return;
    if (hits.length === n) {
      const last = hits[n - 1]!;
      if (last.score > score || (last.score === score && last.id < id)) return;
    }
    let i = hits.length === n ? n - 1 : hits.length;
    for (; i > 0; i--) {
      const above = hits[i - 1]!;
      if (above.score > score || (above.score === score && above.id < id)) break;
      hits[i] = above;
    }
    hits[i] = { id, score };
  }
}

export class MemoryIndex {
  /** The highest `seq` of the embeddings table this index has read. */
  seq = 0;
  private ids = new Int32Array(1024);
  private norms = new Float32Array(1024);
  private lengths = new Int32Array(1024);
  private dead = new Uint8Array(1024);
  private slots = 0;
  private live = 0;
  private totalLength = 0;
  private readonly slotOf = new Map<number, number>();
  private readonly byDimension: Postings[] = [];
  private readonly terms = new Map<string, Postings>();
  private scores = new Float64Array(1024);
  private touchedMark = new Uint8Array(1024);
  /** The slots a search touched, kept between searches (no array grows and is dropped per search). */
  private touched = new Int32Array(1024);
  /** BM25's length factor per slot, for the average length it was computed at. */
  private lengthNorms = new Float64Array(0);
  private lengthNormsFor = Number.NaN;
  /** Dense vectors, `dims` wide, and the slot of each row. */
  private readonly dense: DenseRows;
  private denseSlots = new Int32Array(1024);

  /** `dims`: the width of the vectors (an index holds one embedding model's). */
  constructor(private readonly dims: number) {
    this.dense = new DenseRows(dims);
  }

  /** Postings held (live or dead): what the index costs in memory, ~8 bytes each. */
  postings = 0;

  get size(): number {
    return this.live;
  }

  /** Adds a document, or replaces what the index had for it. */
  upsert(documentId: number, vector: SparseVector | Float32Array, text: string) {
    this.remove(documentId);
    const slot = this.slots++;
    const size = slot + 1;
    this.ids = grow(this.ids, size);
    this.norms = grow(this.norms, size);
    this.lengths = grow(this.lengths, size);
    this.dead = grow(this.dead, size);
    this.scores = grow(this.scores, size);
    this.touchedMark = grow(this.touchedMark, size);
    this.touched = grow(this.touched, size);
    this.ids[slot] = documentId;
    this.dead[slot] = 0;
    this.slotOf.set(documentId, slot);
    if (vector instanceof Float32Array) this.addDense(slot, vector);
    else if (this.isDense(vector)) this.addDense(slot, whole(vector, this.dims));
    else this.addSparse(slot, vector);
    const counts = new Map<string, number>();
    const words = lexicalWords(text);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const [w, tf] of counts) {
      let postings = this.terms.get(w);
      if (!postings) {
        postings = new Postings();
        this.terms.set(w, postings);
      }
      postings.push(slot, tf);
    }
    this.postings += counts.size;
    this.lengths[slot] = words.length;
    this.totalLength += words.length;
    this.live++;
  }

  /** Whether a vector is kept whole (dense) rather than in postings (sparse). */
  private isDense(vector: SparseVector): boolean {
    return vector.indices.length > this.dims * DENSE_SHARE;
  }

  private addDense(slot: number, vector: Float32Array) {
    const row = this.dense.add(vector);
    this.denseSlots = grow(this.denseSlots, row + 1);
    this.denseSlots[row] = slot;
    this.norms[slot] = 1;
    // What the row costs, counted in postings' 8 bytes.
    this.postings += Math.ceil(this.dense.rowBytes / 8);
  }

  private addSparse(slot: number, vector: SparseVector) {
    let norm = 0;
    for (let i = 0; i < vector.indices.length; i++) {
      const d = vector.indices[i]!;
      const v = vector.values[i]!;
      norm += v * v;
      let postings = this.byDimension[d];
      if (!postings) {
        postings = new Postings();
        this.byDimension[d] = postings;
      }
      postings.push(slot, v);
    }
    this.postings += vector.indices.length;
    this.norms[slot] = Math.sqrt(norm);
  }

  /** Forgets a document (its postings stay, marked dead, until the index is rebuilt). */
  remove(documentId: number) {
    const slot = this.slotOf.get(documentId);
    if (slot === undefined) return;
    this.slotOf.delete(documentId);
    this.dead[slot] = 1;
    this.live--;
    this.totalLength -= this.lengths[slot]!;
  }

  /** Adds every live posting's weight to its slot's score; answers how many slots it touched (`touched`). */
  private accumulate(lists: { postings: Postings; weights: Float64Array | number }[]) {
    let count = 0;
    const { scores, touchedMark, dead, touched } = this;
    for (const { postings, weights } of lists) {
      const { slots, values, length } = postings;
      // A vector dimension weighs every value by the query's (a number); BM25 brings a weight per slot
      // from the term frequency's table (`weights[tf]` scaled by the slot's length factor).
      if (typeof weights === 'number') {
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          if (dead[slot]) continue;
          if (touchedMark[slot] === 0) {
            touchedMark[slot] = 1;
            touched[count++] = slot;
          }
          scores[slot]! += weights * values[i]!;
        }
      } else {
        const { lengthNorms } = this;
        for (let i = 0; i < length; i++) {
          const slot = slots[i]!;
          if (dead[slot]) continue;
          if (touchedMark[slot] === 0) {
            touchedMark[slot] = 1;
            touched[count++] = slot;
          }
          const tf = values[i]!;
          scores[slot]! += (weights[0]! * tf) / (tf + lengthNorms[slot]!);
        }
      }
    }
    return count;
  }

  /** Offers the touched slots' scores, then clears them for the next search. */
  private offerTouched(best: Best, count: number, score: (slot: number) => number) {
    for (let i = 0; i < count; i++) {
      const slot = this.touched[i]!;
      best.offer(this.ids[slot]!, score(slot));
      this.scores[slot] = 0;
      this.touchedMark[slot] = 0;
    }
    return best.hits;
  }

  /** The `n` documents nearest to `query` by cosine, nearest first; exact. */
  nearest(query: SparseVector, n: number): RankedId[] {
    let qNorm = 0;
    const lists: { postings: Postings; weights: number }[] = [];
    for (let i = 0; i < query.indices.length; i++) {
      const q = query.values[i]!;
      qNorm += q * q;
      const postings = this.byDimension[query.indices[i]!];
      if (postings) lists.push({ postings, weights: q });
    }
    qNorm = Math.sqrt(qNorm);
    const best = new Best(n);
    if (qNorm === 0) return best.hits;
    if (this.dense.count > 0) this.scanDense(query, qNorm, n, best);
    return this.offerTouched(best, this.accumulate(lists), (slot) => {
      const norm = this.norms[slot]! * qNorm;
      return norm === 0 ? 0 : this.scores[slot]! / norm;
    });
  }

  /** Offers the `n` live dense rows of highest cosine with the query (the rows are normalised). */
  private scanDense(query: SparseVector, qNorm: number, n: number, best: Best) {
    const q = new Float32Array(this.dims);
    for (let i = 0; i < query.indices.length; i++) {
      const d = query.indices[i]!;
      if (d < this.dims) q[d] = query.values[i]! / qNorm;
    }
    const { denseSlots, dead, ids } = this;
    this.dense.nearest(
      q,
      n,
      (row) => dead[denseSlots[row]!] === 1,
      (row, score) => best.offer(ids[denseSlots[row]!]!, score),
    );
  }

  /** The `n` best BM25 matches of the query's words, best first. */
  textMatches(text: string, n: number): RankedId[] {
    const words = [...new Set(lexicalWords(text))];
    this.refreshLengthNorms();
    const lists: { postings: Postings; weights: Float64Array }[] = [];
    for (const w of words) {
      const postings = this.terms.get(w);
      if (!postings) continue;
      const df = postings.length;
      const idf = Math.log(1 + (this.live - df + 0.5) / (df + 0.5));
      lists.push({ postings, weights: Float64Array.of(idf * (BM25_K1 + 1)) });
    }
    return this.offerTouched(new Best(n), this.accumulate(lists), (slot) => this.scores[slot]!);
  }

  /**
   * BM25's length factor of each slot, k1 · (1 − b + b · length / average length), kept until the
   * average changes.
   */
  private refreshLengthNorms() {
    const avgLength = this.live === 0 ? 1 : this.totalLength / this.live;
    if (this.lengthNormsFor === avgLength && this.lengthNorms.length >= this.slots) return;
    this.lengthNorms = new Float64Array(Math.max(this.slots, 1));
    for (let slot = 0; slot < this.slots; slot++)
      this.lengthNorms[slot] = BM25_K1 * (1 - BM25_B + (BM25_B * this.lengths[slot]!) / avgLength);
    this.lengthNormsFor = avgLength;
  }
}

/** A sparse vector spread to `dims` float32 entries. */
function whole(vector: SparseVector, dims: number): Float32Array {
  const out = new Float32Array(dims);
  for (let i = 0; i < vector.indices.length; i++) out[vector.indices[i]!] = vector.values[i]!;
  return out;
}

/** A vector's non-zero entries. */
export function sparse(vector: ArrayLike<number>): SparseVector {
  let n = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) n++;
  const indices = new Uint32Array(n);
  const values = new Float32Array(n);
  for (let i = 0, j = 0; i < vector.length; i++) {
    if (vector[i] !== 0) {
      indices[j] = i;
      values[j++] = vector[i]!;
    }
  }
  return { indices, values };
}

/**
 * A vector as it is stored and indexed: whole (float32) when at least half its entries are non-zero, else
 * its non-zero entries. The index takes this form straight from the worker's vectors, so it holds exactly
 * what `pack` wrote without reading the bytes back.
 */
export function stored(vector: ArrayLike<number>): SparseVector | Float32Array {
  let n = 0;
  for (let i = 0; i < vector.length; i++) if (vector[i] !== 0) n++;
  return 2 * n >= vector.length ? Float32Array.from(vector) : sparse(vector);
}

/**
 * The stored form's bytes: a sparse vector's non-zero entries (their indices as uint32, then their values as
 * float32, little-endian: 8 bytes each), or a whole vector (float32, little-endian) and one byte more — the
 * whole form's length alone is odd.
 */
export function pack(form: SparseVector | Float32Array): Buffer {
  if (form instanceof Float32Array) {
    const out = Buffer.alloc(4 * form.length + 1);
    const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
    for (let i = 0; i < form.length; i++) view.setFloat32(4 * i, form[i]!, true);
    out[4 * form.length] = 1;
    return out;
  }
  const n = form.indices.length;
  const out = Buffer.alloc(8 * n);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (let i = 0; i < n; i++) {
    view.setUint32(4 * i, form.indices[i]!, true);
    view.setFloat32(4 * (n + i), form.values[i]!, true);
  }
  return out;
}

/** A stored vector of `dims` dimensions: whole (a float32 array) or its non-zero entries. */
export function unpack(bytes: Uint8Array, dims: number): SparseVector | Float32Array {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength % 2 === 1) {
    const whole = new Float32Array(dims);
    for (let i = 0; i < dims; i++) whole[i] = view.getFloat32(4 * i, true);
    return whole;
  }
  const n = bytes.byteLength / 8;
  const indices = new Uint32Array(n);
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    indices[i] = view.getUint32(4 * i, true);
    values[i] = view.getFloat32(4 * (n + i), true);
  }
  return { indices, values };
}
