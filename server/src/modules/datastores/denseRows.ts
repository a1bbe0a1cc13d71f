/**
 * Dense vectors of an in-memory index (ADR 0042, "Amended (3)"): each normalised float32 row, and beside it
 * one bit per dimension in a WebAssembly memory (the sign of each entry less the first rows' mean). A search quantizes the query to
 * four bits an entry, scans every row's bits in SIMD (`sign-dots.wat`: 96 bytes a row at 768 dimensions,
 * 128 dimensions an instruction) for an estimate of its cosine, keeps the best `RESCORED_PER_HIT` × n rows
 * by that estimate, and ranks those by their exact float32 cosine: the hits and their scores are the exact
 * scan's unless a true hit's estimate fell below that many others' (the bound: many rows nearly equal to
 * each other, which one bit a dimension cannot tell apart, can push a true hit out; denseRows.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ROOT } from '../../platform/paths';

/**
 * Rows kept per hit asked for by the sign pass, rescored exactly: recall@10 1.000 at 32 on bench/knowledge's
 * 100,000 documents (20 hits asked for), 0.999 at 16, 0.995 at 8 (bench/README.md has the sweep).
 */
export const RESCORED_PER_HIT = 32;
/** …and at least this many, so a search for one or two hits still has room for the estimate's error. */
export const RESCORED_MIN = 160;
const PAGE = 65_536;
/**
 * Float32 rows per block of `exact`: a block grows by doubling up to this, then the next one starts, so a
 * large index grows without copying hundreds of megabytes in one turn of the event loop (nor holding twice
 * its size meanwhile), and a small one holds little more than its rows.
 */
const BLOCK_ROWS = 1024;
/** A wasm32 memory's most pages (4 GiB); the index budget keeps far below it (vectors/indexes.ts). */
const PAGES_MAX = 65_536;
/** Rows whose mean becomes the centre of every row's signs. */
export const CENTERED_AFTER = 1024;
/** The query's entries are quantized to 0…LEVELS, four bit planes (`sign-dots.wat`). */
const LEVELS = 15;

/** The WebAssembly calls used here (the project's TypeScript libraries declare none: no DOM). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object;
      Memory: new (descriptor: { initial: number }) => WasmMemory;
      Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
    };
  }
).WebAssembly;

let compiled: object | undefined;
/** The sign scan, compiled once per process when the first dense row arrives. */
function signDots(): object {
  compiled ??= new wasm.Module(readFileSync(join(SERVER_ROOT, 'src/modules/datastores/sign-dots.wasm')));
  return compiled;
}

/**
 * The best `n` (row, score) pairs offered, in no order: a min-heap, so a row that cannot enter costs one
 * comparison and one that enters log n (the first pass keeps hundreds).
 */
class TopRows {
  readonly rows: Int32Array;
  readonly scores: Float64Array;
  length = 0;

  constructor(readonly n: number) {
    this.rows = new Int32Array(n);
    this.scores = new Float64Array(n);
  }

  /** The score a row must beat to enter. */
  get floor(): number {
    return this.length < this.n ? Number.NEGATIVE_INFINITY : this.scores[0]!;
  }

  offer(row: number, score: number) {
    const { rows, scores, n } = this;
    let i: number;
    if (this.length < n) {
      // Sift up from the end.
      i = this.length++;
      while (i > 0) {
        const parent = (i - 1) >> 1;
        if (scores[parent]! <= score) break;
        scores[i] = scores[parent]!;
        rows[i] = rows[parent]!;
        i = parent;
      }
    } else {
      // Replace the worst at the root and sift down.
      i = 0;
      for (;;) {
        let child = 2 * i + 1;
        if (child >= n) break;
        if (child + 1 < n && scores[child + 1]! < scores[child]!) child++;
        if (scores[child]! >= score) break;
        scores[i] = scores[child]!;
        rows[i] = rows[child]!;
        i = child;
      }
    }
    scores[i] = score;
    rows[i] = row;
  }
}

/** Σ rows[offset + d] · query[d] for d < dims, in four running sums (independent additions pipeline). */
function dot(rows: Float32Array, offset: number, query: Float32Array, dims: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let d = 0;
  for (; d + 4 <= dims; d += 4) {
    s0 += rows[offset + d]! * query[d]!;
    s1 += rows[offset + d + 1]! * query[d + 1]!;
    s2 += rows[offset + d + 2]! * query[d + 2]!;
    s3 += rows[offset + d + 3]! * query[d + 3]!;
  }
  for (; d < dims; d++) s0 += rows[offset + d]! * query[d]!;
  return s0 + s1 + s2 + s3;
}

/**
 * A row's estimate of (row − centre) · query from its sign sum: sign(y) · q = 2 Σ_{y_d > 0} q_d − Σ q_d, with
 * Σ_{y_d > 0} q_d ≈ low · ones + step · sum, times the row's factor.
 */
function estimateOf(low: number, step: number, total: number, ones: number, sum: number, factor: number) {
  return (2 * (low * ones + step * sum) - total) * factor;
}

export class DenseRows {
  /** Normalised float32 rows, `dims` wide, `BLOCK_ROWS` to a block: the exact scores. */
  private readonly exact: Float32Array[] = [];
  /** Per row, how many of its entries are positive (bits set). */
  private ones = new Float32Array(0);
  /**
   * Per row, with y = x − centre: |y|² / Σ|y_d|, so that sign(y) · q · factor estimates y · q (RaBitQ's
   * estimator: sign(y) / |sign(y)| · q over its cosine with y), which ranks rows as x · q does.
   */
  private factor = new Float32Array(0);
  /**
   * The mean of the first `CENTERED_AFTER` rows (zero until then): signs taken around it split each
   * dimension's values evenly, where an embedding model's vectors share a common direction.
   */
  private readonly centre: Float32Array;
  /** The sign row's width in bytes: `dims` bits rounded up to the scan's 128 (the rest zero). */
  private readonly width: number;
  private memory: WasmMemory | undefined;
  private dots: ((rows: number, query: number, n: number, width: number, out: number) => void) | undefined;
  count = 0;

  constructor(private readonly dims: number) {
    this.width = Math.ceil(dims / 128) * 16;
    this.centre = new Float32Array(dims);
  }

  /** What a row costs in memory, in bytes: its float32 entries, its bits, its two factors. */
  get rowBytes(): number {
    return 4 * this.dims + this.width + 8;
  }

  /** Adds a row (normalised here; a zero vector stays zero); answers its row number. */
  add(vector: Float32Array): number {
    const { dims } = this;
    const row = this.count++;
    const block = Math.floor(row / BLOCK_ROWS);
    const offset = (row % BLOCK_ROWS) * dims;
    let exact = this.exact[block];
    if (!exact || exact.length === offset) {
      const grown = new Float32Array(Math.min(BLOCK_ROWS * dims, Math.max(16 * dims, 2 * offset)));
      if (exact) grown.set(exact);
      this.exact[block] = grown;
      exact = grown;
    }
    if (this.count > this.ones.length) {
      const size = Math.max(BLOCK_ROWS, this.ones.length * 2);
      const ones = new Float32Array(size);
      ones.set(this.ones);
      this.ones = ones;
      const factor = new Float32Array(size);
      factor.set(this.factor);
      this.factor = factor;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += vector[d]! * vector[d]!;
    norm = Math.sqrt(norm);
    for (let d = 0; d < dims; d++) exact[offset + d] = norm === 0 ? 0 : vector[d]! / norm;
    if (row + 1 === CENTERED_AFTER) {
      // The first rows' mean becomes the centre; their signs are taken again against it.
      for (let r = 0; r < CENTERED_AFTER; r++) {
        const at = (r % BLOCK_ROWS) * dims;
        const rows = this.exact[Math.floor(r / BLOCK_ROWS)]!;
        for (let d = 0; d < dims; d++) this.centre[d]! += rows[at + d]! / CENTERED_AFTER;
      }
      for (let r = 0; r <= row; r++) this.sign(r);
    } else this.sign(row);
    return row;
  }

  /** Writes a row's bits (the signs of its entries less the centre's), its count of ones and its factor. */
  private sign(row: number) {
    const { dims, width, centre } = this;
    const exact = this.exact[Math.floor(row / BLOCK_ROWS)]!;
    const offset = (row % BLOCK_ROWS) * dims;
    const bytes = this.reserve(this.count * width);
    const at = row * width;
    bytes.fill(0, at, at + width);
    let l1 = 0;
    let l2 = 0;
    let ones = 0;
    for (let d = 0; d < dims; d++) {
      const v = exact[offset + d]! - centre[d]!;
      l1 += Math.abs(v);
      l2 += v * v;
      if (v > 0) {
        bytes[at + (d >> 3)]! |= 1 << (d & 7);
        ones++;
      }
    }
    this.ones[row] = ones;
    this.factor[row] = l1 === 0 ? 0 : l2 / l1;
  }

  /**
   * The `n` rows of highest cosine with `query` (normalised, `dims` wide) among those `skip` lets through,
   * best first, offered to `offer` with their exact cosine. `perHit`: rows rescored per hit asked for.
   */
  nearest(
    query: Float32Array,
    n: number,
    skip: (row: number) => boolean,
    offer: (row: number, score: number) => void,
    perHit = RESCORED_PER_HIT,
  ) {
    const { count } = this;
    if (count === 0 || n <= 0) return;
    const { sums, low, step, total } = this.signSums(query);
    const { ones, factor } = this;
    const kept = new TopRows(Math.max(n * perHit, RESCORED_MIN));
    let floor = kept.floor;
    for (let row = 0; row < count; row++) {
      const estimate = estimateOf(low, step, total, ones[row]!, sums[row]!, factor[row]!);
      if (estimate <= floor || skip(row)) continue;
      kept.offer(row, estimate);
      floor = kept.floor;
    }
    for (let i = 0; i < kept.length; i++) offer(kept.rows[i]!, this.score(kept.rows[i]!, query));
  }

  /** A row's exact cosine with `query` (normalised). */
  private score(row: number, query: Float32Array): number {
    const { dims } = this;
    return dot(this.exact[Math.floor(row / BLOCK_ROWS)]!, (row % BLOCK_ROWS) * dims, query, dims);
  }

  /**
   * The first pass alone: per row, the sign scan's estimate of (row − centre) · query (`query` normalised),
   * which ranks the rows as their cosine does (the centre's own product is the same for every row).
   */
  estimates(query: Float32Array): Float32Array {
    const { sums, low, step, total } = this.signSums(query);
    return Float32Array.from(sums, (sum, row) =>
      estimateOf(low, step, total, this.ones[row]!, sum, this.factor[row]!),
    );
  }

  /**
   * The sign scan: per row, Σ u_d over its set bits, where the query's entries are q_d ≈ low + step · u_d
   * with u_d in 0…LEVELS (a view of the wasm memory, overwritten by the next scan).
   */
  private signSums(query: Float32Array) {
    const { count, width, dims } = this;
    // The wasm memory: the sign rows from 0, then the query's four bit planes, then an int32 sum per row.
    const queryAt = count * width;
    const outAt = queryAt + 4 * width;
    const bytes = this.reserve(outAt + 4 * count);
    let low = Number.POSITIVE_INFINITY;
    let high = Number.NEGATIVE_INFINITY;
    let total = 0;
    for (let d = 0; d < dims; d++) {
      low = Math.min(low, query[d]!);
      high = Math.max(high, query[d]!);
      total += query[d]!;
    }
    const step = high > low ? (high - low) / LEVELS : 0;
    bytes.fill(0, queryAt, outAt);
    for (let d = 0; d < dims; d++) {
      const u = step === 0 ? 0 : Math.round((query[d]! - low) / step);
      for (let k = 0; k < 4; k++) if (u & (1 << k)) bytes[queryAt + k * width + (d >> 3)]! |= 1 << (d & 7);
    }
    this.dots!(0, queryAt, count, width, outAt);
    return { sums: new Int32Array(bytes.buffer, outAt, count), low, step, total };
  }

  /** The wasm memory as bytes, grown (doubling) to hold at least `size`; made with the first row. */
  private reserve(size: number): Uint8Array {
    if (!this.memory) {
      this.memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(size / PAGE)) });
      const instance = new wasm.Instance(signDots(), { env: { memory: this.memory } });
      this.dots = instance.exports.dots as DenseRows['dots'];
    }
    const have = this.memory.buffer.byteLength / PAGE;
    if (size > have * PAGE)
      this.memory.grow(Math.min(PAGES_MAX, Math.max(Math.ceil(size / PAGE), 2 * have)) - have);
    return new Uint8Array(this.memory.buffer);
  }
}
