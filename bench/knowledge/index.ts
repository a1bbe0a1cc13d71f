/**
 * The in-memory index's dense search alone: node --import tsx knowledge/index.ts
 * (KNOWLEDGE_DOCS=100000 by default; KNOWLEDGE_QUERIES=100).
 *
 * Embeds N generated QA documents with the fake dense model (768 dimensions, `corpus.ts`), builds a
 * `MemoryIndex` from them directly (no database), and measures this process's CPU time per search (k = 20,
 * the candidates a hybrid search of 10 asks each list for) against the baseline in the same run: an exact
 * scan of the same normalised float32 rows with four running sums (the index's scan before its first pass),
 * with recall@10 of the index against that scan. Then the parts of an index lookup: the words' BM25 half,
 * the exact rescoring of the rows the first pass keeps, and the dense rows alone at several numbers of rows
 * rescored per hit (recall@10 and CPU of each).
 */
import { DenseRows, RESCORED_MIN, RESCORED_PER_HIT } from '@llmor/server/modules/datastores/denseRows';
import { MemoryIndex, type RankedId, sparse } from '@llmor/server/modules/datastores/memoryIndex';
import { corpus, DENSE_DIMS, DenseFakeModel } from './corpus';

const N = Number(process.env.KNOWLEDGE_DOCS ?? 100_000);
const QUERIES = Number(process.env.KNOWLEDGE_QUERIES ?? 100);
const K = 20;

function cpuMs<T>(run: () => T): [T, number] {
  const c0 = process.cpuUsage();
  const out = run();
  const c = process.cpuUsage(c0);
  return [out, (c.user + c.system) / 1000];
}

const docs = corpus(N);
const model = new DenseFakeModel();
const index = new MemoryIndex(DENSE_DIMS);
const alone = new DenseRows(DENSE_DIMS);
const rows = new Float32Array(N * DENSE_DIMS);
let buildMs = 0;
for (let from = 0; from < N; from += 1000) {
  const batch = docs.slice(from, from + 1000);
  const { vectors } = await model.embed(batch.map((d) => `${d.Q}\n${d.A}`));
  vectors.forEach((v, j) => {
    const vector = Float32Array.from(v);
    const text = `${batch[j]!.Q}\n${batch[j]!.A}`;
    buildMs += cpuMs(() => index.upsert(from + j, vector, text))[1];
    alone.add(vector);
    let norm = 0;
    for (const x of vector) norm += x * x;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < DENSE_DIMS; d++) rows[(from + j) * DENSE_DIMS + d] = vector[d]! / norm;
  });
}
const queryTexts = Array.from({ length: QUERIES }, (_, i) =>
  docs[(i * 7919) % N]!.Q.split(' ').slice(0, 4).join(' '),
);
const queries = (await model.embed(queryTexts)).vectors;

/** The baseline: every row's cosine, the best k kept in a sorted list. */
function exactScan(query: number[], k: number): RankedId[] {
  let qNorm = 0;
  for (const x of query) qNorm += x * x;
  const q = Float32Array.from(query, (x) => x / Math.sqrt(qNorm));
  const best: RankedId[] = [];
  for (let row = 0, offset = 0; row < N; row++, offset += DENSE_DIMS) {
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let d = 0; d < DENSE_DIMS; d += 4) {
      s0 += rows[offset + d]! * q[d]!;
      s1 += rows[offset + d + 1]! * q[d + 1]!;
      s2 += rows[offset + d + 2]! * q[d + 2]!;
      s3 += rows[offset + d + 3]! * q[d + 3]!;
    }
    const score = s0 + s1 + s2 + s3;
    if (best.length === k && best[k - 1]!.score >= score) continue;
    let i = Math.min(best.length, k - 1);
    while (i > 0 && best[i - 1]!.score < score) {
      best[i] = best[i - 1]!;
      i--;
    }
    best[i] = { id: row, score };
  }
  return best;
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil((p / 100) * values.length) - 1)]!;

const indexCpu: number[] = [];
const exactCpu: number[] = [];
const truths: RankedId[][] = [];
let hits = 0;
/** Hits of the first 10 at least as good as the exact tenth. */
const recalled = (found: RankedId[], truth: RankedId[]) =>
  found.slice(0, 10).filter((h) => h.score >= truth[9]!.score - 1e-5).length;
// Alternated, so both see the same machine.
for (const query of queries) {
  const [found, a] = cpuMs(() => index.nearest(sparse(query), K));
  const [truth, b] = cpuMs(() => exactScan(query, K));
  indexCpu.push(a);
  exactCpu.push(b);
  truths.push(truth);
  hits += recalled(found, truth);
}

// The words' half of an index lookup.
const wordsCpu = queryTexts.map((text) => cpuMs(() => index.textMatches(text, K))[1]);
// The exact rescoring of the rows a first pass keeps (the index's default for k = 20), on rows spread
// over the whole block as the kept ones are.
const rescored = Math.max(K * RESCORED_PER_HIT, RESCORED_MIN);
const rescoreCpu = queries.map((query, i) => {
  const q = Float32Array.from(query);
  return cpuMs(() => {
    let sum = 0;
    for (let r = 0; r < rescored; r++) {
      const offset = ((r * 7919 + i * 104_729) % N) * DENSE_DIMS;
      for (let d = 0; d < DENSE_DIMS; d += 4)
        sum +=
          rows[offset + d]! * q[d]! +
          rows[offset + d + 1]! * q[d + 1]! +
          rows[offset + d + 2]! * q[d + 2]! +
          rows[offset + d + 3]! * q[d + 3]!;
    }
    return sum;
  })[1];
});
// The dense rows alone, at several numbers of rows rescored per hit.
const sweep = [1, 2, 4, 8, 16, 32].map((perHit) => {
  const cpu: number[] = [];
  let found = 0;
  queries.forEach((query, i) => {
    let qNorm = 0;
    for (const x of query) qNorm += x * x;
    const q = Float32Array.from(query, (x) => x / Math.sqrt(qNorm));
    const hits: RankedId[] = [];
    cpu.push(
      cpuMs(() =>
        alone.nearest(
          q,
          K,
          () => false,
          (row, score) => hits.push({ id: row, score }),
          perHit,
        ),
      )[1],
    );
    hits.sort((a, b) => b.score - a.score);
    found += recalled(hits, truths[i]!);
  });
  return [
    `dense rows alone, ${perHit} rescored per hit (${Math.max(perHit * K, RESCORED_MIN)} rows): recall@10, CPU p50 / p99`,
    `${(found / (queries.length * 10)).toFixed(3)}, ${ms(percentile(cpu, 50))} / ${ms(percentile(cpu, 99))}`,
  ];
});

const rowsOut = [
  ['measure', 'value'],
  [`add ${N.toLocaleString('en')} dense documents to the index (CPU)`, ms(buildMs)],
  [
    'exact float32 scan, CPU per search p50 / p99 (baseline)',
    `${ms(percentile(exactCpu, 50))} / ${ms(percentile(exactCpu, 99))}`,
  ],
  [
    'index (first pass + exact rescoring), CPU per search p50 / p99',
    `${ms(percentile(indexCpu, 50))} / ${ms(percentile(indexCpu, 99))}`,
  ],
  ['index / exact, p50', `${(percentile(indexCpu, 50) / percentile(exactCpu, 50)).toFixed(3)}×`],
  ['recall@10 vs exact', (hits / (queries.length * 10)).toFixed(3)],
  [
    'words (BM25), CPU per search p50 / p99',
    `${ms(percentile(wordsCpu, 50))} / ${ms(percentile(wordsCpu, 99))}`,
  ],
  [
    `exact rescoring of ${rescored} rows, CPU p50 / p99`,
    `${ms(percentile(rescoreCpu, 50))} / ${ms(percentile(rescoreCpu, 99))}`,
  ],
  ...sweep,
];
console.log(`| ${rowsOut[0]!.join(' | ')} |`);
console.log(`| ${rowsOut[0]!.map(() => '---').join(' | ')} |`);
for (const r of rowsOut.slice(1)) console.log(`| ${r.join(' | ')} |`);
