/**
 * Dense vectors of an in-memory index (ADR 0042, "Amended"): each normalised float32 row, and beside it the
 * same row in int8 (its own scale: 127 / its largest entry) in a WebAssembly memory. A search scans the
 * int8 rows in SIMD (`int8-dots.wat`: a quarter of the bytes, sixteen products an instruction), keeps the
 * best `RESCORED_PER_HIT` × n rows by that estimate, and ranks those by their exact float32 cosine, so the
 * hits and their scores are the exact scan's unless quantization pushed a true hit below that many others.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVER_ROOT } from '../../platform/paths';

/** Rows kept per hit asked for by the int8 pass, rescored exactly (recall 1.000 at 4 in bench/knowledge). */
export const RESCORED_PER_HIT = 4;
/** …and at least this many, so a search for one or two hits still has room for quantization's error. */
const RESCORED_MIN = 40;
const PAGE = 65_536;
/**
 * Float32 rows per block of `exact`: a block grows by doubling up to this, then the next one starts, so a
 * large index grows without copying hundreds of megabytes in one turn of the event loop (nor holding twice
 * its size meanwhile), and a small one holds little more than its rows.
 */
const BLOCK_ROWS = 1024;
/** A wasm32 memory's most pages (4 GiB); the index budget keeps far below it (vectors.ts). */
const PAGES_MAX = 65_536;

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
/** The int8 scan, compiled once per process when the first dense row arrives. */
function int8Dots(): object {
  compiled ??= new wasm.Module(readFileSync(join(SERVER_ROOT, 'src/modules/datastores/int8-dots.wasm')));
  return compiled;
}

/** A best-first list of at most `n` (row, score) pairs; a row that cannot enter costs one comparison. */
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
    return this.length < this.n ? Number.NEGATIVE_INFINITY : this.scores[this.n - 1]!;
  }

  offer(row: number, score: number) {
    let i = this.length < this.n ? this.length++ : this.n - 1;
    for (; i > 0 && this.scores[i - 1]! < score; i--) {
      this.scores[i] = this.scores[i - 1]!;
      this.rows[i] = this.rows[i - 1]!;
    }
    this.scores[i] = score;
    this.rows[i] = row;
  }
}

export class DenseRows {
  /** Normalised float32 rows, `dims` wide, `BLOCK_ROWS` to a block: the exact scores. */
  private readonly exact: Float32Array[] = [];
  /** Per row, its int8 entries' factor back to float (1 / scale). */
  private unscale = new Float32Array(0);
  /** The int8 row's width in bytes: `dims` rounded up to the scan's 16 (the rest zero). */
  private readonly width: number;
  private memory: WasmMemory | undefined;
  private dots: ((rows: number, query: number, n: number, width: number, out: number) => void) | undefined;
  count = 0;

  constructor(private readonly dims: number) {
    this.width = Math.ceil(dims / 16) * 16;
  }

  /** What a row costs in memory, in bytes. */
  get rowBytes(): number {
    return 4 * this.dims + this.width + 4;
  }

  /** Adds a row (normalised here; a zero vector stays zero); answers its row number. */
  add(vector: Float32Array): number {
    const { dims, width } = this;
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
    if (this.count > this.unscale.length) {
      const unscale = new Float32Array(Math.max(BLOCK_ROWS, this.unscale.length * 2));
      unscale.set(this.unscale);
      this.unscale = unscale;
    }
    let norm = 0;
    for (let d = 0; d < dims; d++) norm += vector[d]! * vector[d]!;
    norm = Math.sqrt(norm);
    let largest = 0;
    for (let d = 0; d < dims; d++) {
      const v = norm === 0 ? 0 : vector[d]! / norm;
      exact[offset + d] = v;
      largest = Math.max(largest, Math.abs(v));
    }
    const bytes = this.reserve(this.count * width);
    const scale = largest === 0 ? 0 : 127 / largest;
    for (let d = 0; d < dims; d++) bytes[row * width + d] = Math.round(exact[offset + d]! * scale);
    this.unscale[row] = largest / 127;
    return row;
  }

  /**
   * The `n` rows of highest cosine with `query` (normalised, `dims` wide) among those `skip` lets through,
   * best first, offered to `offer` with their exact cosine.
   */
  nearest(
    query: Float32Array,
    n: number,
    skip: (row: number) => boolean,
    offer: (row: number, score: number) => void,
  ) {
    const { count, width, dims } = this;
    if (count === 0 || n <= 0) return;
    // The wasm memory: the int8 rows from 0, then the query, then an int32 estimate per row.
    const queryAt = count * width;
    const outAt = queryAt + width;
    const bytes = this.reserve(outAt + 4 * count);
    let largest = 0;
    for (let d = 0; d < dims; d++) largest = Math.max(largest, Math.abs(query[d]!));
    const scale = largest === 0 ? 0 : 127 / largest;
    bytes.fill(0, queryAt, outAt);
    for (let d = 0; d < dims; d++) bytes[queryAt + d] = Math.round(query[d]! * scale);
    this.dots!(0, queryAt, count, width, outAt);
    const estimates = new Int32Array(bytes.buffer, outAt, count);
    const { unscale } = this;
    const kept = new TopRows(Math.max(n * RESCORED_PER_HIT, RESCORED_MIN));
    let floor = kept.floor;
    for (let row = 0; row < count; row++) {
      const estimate = estimates[row]! * unscale[row]!;
      if (estimate <= floor || skip(row)) continue;
      kept.offer(row, estimate);
      floor = kept.floor;
    }
    for (let i = 0; i < kept.length; i++) {
      const row = kept.rows[i]!;
      const exact = this.exact[Math.floor(row / BLOCK_ROWS)]!;
      const offset = (row % BLOCK_ROWS) * dims;
      let score = 0;
      for (let d = 0; d < dims; d++) score += exact[offset + d]! * query[d]!;
      offer(row, score);
    }
  }

  /** The wasm memory as bytes, grown (doubling) to hold at least `size`; made with the first row. */
  private reserve(size: number): Int8Array {
    if (!this.memory) {
      this.memory = new wasm.Memory({ initial: Math.ceil(size / PAGE) });
      const instance = new wasm.Instance(int8Dots(), { env: { memory: this.memory } });
      this.dots = instance.exports.dots as DenseRows['dots'];
    }
    const have = this.memory.buffer.byteLength / PAGE;
    if (size > have * PAGE)
      this.memory.grow(Math.min(PAGES_MAX, Math.max(Math.ceil(size / PAGE), 2 * have)) - have);
    return new Int8Array(this.memory.buffer);
  }
}
