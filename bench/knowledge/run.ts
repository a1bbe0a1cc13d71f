/**
 * Knowledge benchmark: npx tsx bench/knowledge/run.ts  (KNOWLEDGE_DOCS=100000 by default)
 *
 * On the embedded default (PGlite in a temp DATA_DIR, all roles in one process, the offline lexical
 * embedder): import N QA documents through the datastores service, let the worker embed them, then
 * search. Reports documents/s end to end, search p50/p99 (hybrid, and vector-only through the HNSW index
 * against exact search in the same run), recall@10 of HNSW against exact, and the p99 of `GET /healthz`
 * while the import runs against the same call idle (the API must stay responsive).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importDocuments, requireDatastore, searchDatastore } from '@llmor/server/modules/datastores/service';
import { nearest } from '@llmor/server/modules/datastores/vectors';
import { LexicalEmbeddingModel } from '@llmor/server/modules/models/providers/builtin';
import { loadConfig } from '@llmor/server/platform/config';
import { schema } from '@llmor/server/platform/db/index';
import { startServer } from '@llmor/server/server';

const N = Number(process.env.KNOWLEDGE_DOCS ?? 100_000);
const QUERIES = 200;

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

function corpus(n: number) {
  return Array.from({ length: n }, (_, i) => ({ Q: `${sentence(6)} ${i}?`, A: sentence(18) }));
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

async function timeEach<T>(items: T[], run: (item: T) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (const item of items) {
    const t0 = performance.now();
    await run(item);
    out.push(performance.now() - t0);
  }
  return out;
}

/** Latencies of `GET /healthz`, one call every 20 ms, until `stop` resolves. */
async function probeHealth(url: string, stop: Promise<unknown>): Promise<number[]> {
  let done = false;
  void stop.then(() => {
    done = true;
  });
  const samples: number[] = [];
  while (!done) {
    const t0 = performance.now();
    await (await fetch(`${url}/healthz`)).arrayBuffer();
    samples.push(performance.now() - t0);
    await new Promise((r) => setTimeout(r, 20));
  }
  return samples;
}

const dataDir = mkdtempSync(join(tmpdir(), 'llmor-bench-knowledge-'));
const server = await startServer(
  loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', SEED_ADMIN_PASSWORD: 'bench-password' }),
);
try {
  const { ctx } = server;
  const [vendor] = await ctx.db.select().from(schema.vendors).limit(1);
  const [model] = await ctx.db
    .insert(schema.vendorModels)
    .values({
      vendorId: vendor!.id,
      modelKey: 'builtin-lexical-embedding',
      name: 'Lexical',
      type: 'embedding',
      provider: 'builtin',
    })
    .returning();
  const [app] = await ctx.db
    .insert(schema.apps)
    .values({
      vendorId: vendor!.id,
      appKey: 'chatbot',
      type: 'chatbot',
      name: 'Bench',
      parameters: {},
      meta: {},
    })
    .returning();
  const [ds] = await ctx.db
    .insert(schema.datastores)
    .values({ vendorId: vendor!.id, appId: app!.id, name: 'bench', embeddingVendorModelId: model!.id })
    .returning();
  const docs = corpus(N);

  const idle = await probeHealth(server.url, new Promise((r) => setTimeout(r, 2000)));
  const t0 = performance.now();
  const work = (async () => {
    await importDocuments(ctx, vendor!.id, ds!.id, 'qa', docs);
    const imported = performance.now() - t0;
    for (;;) {
      const [row] = await ctx.db
        .execute<{ n: number }>(
          `select count(*)::int as n from datastore_documents where datastore_id = ${ds!.id} and requires_sync` as never,
        )
        .then((r) => (r as unknown as { rows: { n: number }[] }).rows);
      if (row!.n === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    return { imported, total: performance.now() - t0 };
  })();
  const busy = await probeHealth(server.url, work);
  const { imported, total } = await work;

  const row = await requireDatastore(ctx, vendor!.id, ds!.id);
  const queries = Array.from(
    { length: QUERIES },
    (_, i) => `${docs[(i * 7919) % N]!.Q.split(' ').slice(0, 4).join(' ')}`,
  );
  const embedder = new LexicalEmbeddingModel();
  const vectors = (await embedder.embed(queries)).vectors;
  await searchDatastore(ctx, vendor!.id, row, queries[0]!, 10); // warm-up
  const hybrid = await timeEach(queries, (q) => searchDatastore(ctx, vendor!.id, row, q, 10));
  const hnsw = await timeEach(vectors, (v) => nearest(ctx.database, vendor!.id, ds!.id, v, 10));
  const exactSample = vectors.slice(0, 50);
  const exact = await timeEach(exactSample, (v) =>
    nearest(ctx.database, vendor!.id, ds!.id, v, 10, { exact: true }),
  );
  let hits = 0;
  for (const v of exactSample) {
    // Ties at the 10th place are common with hashed word features: a hit is any result at least as
    // close as the exact 10th neighbour.
    const truth = await nearest(ctx.database, vendor!.id, ds!.id, v, 10, { exact: true });
    const tenth = truth.at(-1)!.score - 1e-6;
    const found = await nearest(ctx.database, vendor!.id, ds!.id, v, 10);
    hits += found.filter((r) => r.score >= tenth).length;
  }
  const recall = hits / (exactSample.length * 10);

  const rows = [
    ['measure', 'value', 'goal'],
    [
      `import + embed ${N.toLocaleString('en')} QA documents`,
      `${(total / 1000).toFixed(1)} s (import ${(imported / 1000).toFixed(1)} s)`,
      '',
    ],
    ['documents / s end to end', (N / (total / 1000)).toFixed(0), '≥ 2,000'],
    [
      'hybrid search p50 / p99 (k = 10)',
      `${ms(percentile(hybrid, 50))} / ${ms(percentile(hybrid, 99))}`,
      'p99 ≤ 15 ms',
    ],
    ['vector search (HNSW) p50 / p99', `${ms(percentile(hnsw, 50))} / ${ms(percentile(hnsw, 99))}`, ''],
    ['exact vector search p50 (baseline)', ms(percentile(exact, 50)), ''],
    ['HNSW / exact p50', `${(percentile(hnsw, 50) / percentile(exact, 50)).toFixed(3)}×`, ''],
    ['recall@10, HNSW vs exact', recall.toFixed(3), '≥ 0.95'],
    ['GET /healthz p99 idle (baseline)', ms(percentile(idle, 99)), ''],
    ['GET /healthz p99 during import + embed', ms(percentile(busy, 99)), '≤ 50 ms'],
    ['busy / idle p99', `${(percentile(busy, 99) / percentile(idle, 99)).toFixed(2)}×`, ''],
  ];
  const [head, ...body] = rows;
  console.log(`| ${head!.join(' | ')} |`);
  console.log(`| ${head!.map(() => '---').join(' | ')} |`);
  for (const r of body) console.log(`| ${r.join(' | ')} |`);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
