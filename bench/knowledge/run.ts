/**
 * Knowledge benchmark: npx tsx bench/knowledge/run.ts  (KNOWLEDGE_DOCS=100000 by default)
 *
 * On the embedded default (its PostgreSQL in a temp DATA_DIR, ADR 0036; all roles in one process, the offline lexical
 * embedder): import N QA documents through the datastores service, let the worker embed them, then
 * search. Reports documents/s end to end, hybrid search p50/p99, each half of it (vectors, words) against
 * its exact baseline in the same run (a brute-force cosine scan and a brute-force BM25 over every
 * document, in this process) with recall@10, the full-text query in SQL it replaced, the first search of
 * a process that has no index yet (it builds one from the database), a re-import (adds nothing), and the
 * p99 of `GET /healthz` while the import runs against the same call idle (the API must stay responsive),
 * and while a 50 MB PDF is imported.
 *
 * `KNOWLEDGE_VECTORS=dense`: a local fake embedding model instead (deterministic 768-dimension dense
 * vectors, each text the sum of its words' fixed random vectors, so texts sharing words are close); its
 * own time is measured and reported apart. `KNOWLEDGE_PGVECTOR=off`: the database is treated as having no
 * pgvector (server mode without the extension), so every vector goes to the in-process index.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { documentText } from '@llmor/server/modules/datastores/parse';
import {
  importDocuments,
  importFile,
  requireDatastore,
  searchDatastore,
} from '@llmor/server/modules/datastores/service';
import {
  type RankedId,
  rankedMatches,
  rowsOf,
  textMatches,
  VectorIndexes,
} from '@llmor/server/modules/datastores/vectors';
import { LexicalEmbeddingModel, lexicalWords } from '@llmor/server/modules/models/providers/builtin';
import { loadConfig } from '@llmor/server/platform/config';
import { schema } from '@llmor/server/platform/db/index';
import { UploadedBody } from '@llmor/server/platform/http/upload-body';
import { startServer } from '@llmor/server/server';
import { largePdf } from '@llmor/server/test/large-pdf';
import { sql } from 'drizzle-orm';
import { corpus, DenseFakeModel } from './corpus';

const N = Number(process.env.KNOWLEDGE_DOCS ?? 100_000);
const QUERIES = 200;
const DENSE = process.env.KNOWLEDGE_VECTORS === 'dense';

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

const ms = (v: number) => `${v.toFixed(2)} ms`;

const started = performance.now();
/** Progress on stderr (the table goes to stdout): where a long run spends its time. */
const phase = (name: string) =>
  console.error(`[knowledge] ${((performance.now() - started) / 1000).toFixed(1)} s: ${name}`);

/**
 * Wall time of each call, and this process's CPU time in it (`cpu`): on a shared machine the wall time
 * includes waiting for a core, the CPU time does not (nor the database server's, a process of its own).
 */
async function timeEach<T>(
  items: T[],
  run: (item: T) => Promise<unknown>,
): Promise<number[] & { cpu: number[] }> {
  const out = Object.assign([] as number[], { cpu: [] as number[] });
  for (const item of items) {
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    await run(item);
    out.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    out.cpu.push((c.user + c.system) / 1000);
  }
  return out;
}

/**
 * Latencies of `GET /healthz`, one call every 20 ms, until `stop` resolves; and the event loop's delay
 * meanwhile (`loop`: p99 and max in ms, sampled every 5 ms), which names the longest blocks of this thread
 * whatever the probe's own timing.
 */
async function probeHealth(
  url: string,
  stop: Promise<unknown>,
): Promise<number[] & { loop: { p99: number; max: number } }> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
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
  delay.disable();
  return Object.assign(samples, { loop: { p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 } });
}

const dataDir = mkdtempSync(join(tmpdir(), 'llmor-bench-knowledge-'));
const server = await startServer(
  loadConfig({ DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'warn', SEED_ADMIN_PASSWORD: 'bench-password' }),
);
try {
  const { ctx } = server;
  if (process.env.KNOWLEDGE_PGVECTOR === 'off') ctx.database.hasVector = false;
  const dense = new DenseFakeModel();
  if (DENSE) ctx.embeddingModel = () => dense as never;
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
    phase('imported');
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
  phase('embedded');

  const row = await requireDatastore(ctx, vendor!.id, ds!.id);
  const searched = { vendorId: vendor!.id, id: ds!.id, modelId: model!.id };
  const queries = Array.from(
    { length: QUERIES },
    (_, i) => `${docs[(i * 7919) % N]!.Q.split(' ').slice(0, 4).join(' ')}`,
  );
  const embedder = DENSE ? dense : new LexicalEmbeddingModel();
  const vectors = (await embedder.embed(queries)).vectors;
  const importProviderMs = dense.ms;
  const ranked = (indexes: VectorIndexes, i: number) =>
    rankedMatches(indexes, searched, { text: queries[i]!, vector: vectors[i]! }, 10);

  // The first search in this process, which kept its index while the worker stored the vectors.
  let t1 = performance.now();
  await ranked(ctx.vectorIndexes, 0);
  const firstSearch = performance.now() - t1;
  // A process without the index (a restart, another instance) builds it from the database first.
  t1 = performance.now();
  await ranked(new VectorIndexes(ctx.database), 0);
  const coldSearch = performance.now() - t1;
  const search = (query: string) =>
    searchDatastore(ctx, { vendorId: vendor!.id, datastore: row, query, k: 10 });
  await search(queries[0]!); // warm-up
  const hybrid = await timeEach(queries, search);
  const engine = await timeEach(
    queries.map((_, i) => i),
    (i) => ranked(ctx.vectorIndexes, i),
  );
  const sqlText = await timeEach(queries, (q) => textMatches(ctx.db, vendor!.id, ds!.id, q, 10));
  phase('searched');

  // Exact baselines over every document, in this process.
  // The documents as stored (jsonb orders an object's keys, so their text is not the input's).
  const stored = rowsOf<{ id: number; document: unknown }>(
    await ctx.db.execute(
      sql`select id, document from datastore_documents where datastore_id = ${ds!.id} order by id`,
    ),
  );
  const ids = stored.map((r) => r.id);
  const texts = stored.map((r) => documentText(r.document));
  // Cosine over normalised vectors (the lexical embedder's already are; the fake dense model's are not), in
  // one float32 block embedded a page at a time: 100,000 × 768 as arrays of numbers took gigabytes.
  const normalise = (v: ArrayLike<number>, out: Float32Array, at: number, width: number) => {
    let norm = 0;
    for (let d = 0; d < width; d++) norm += v[d]! * v[d]!;
    norm = Math.sqrt(norm) || 1;
    for (let d = 0; d < width; d++) out[at + d] = v[d]! / norm;
  };
  const width = vectors[0]!.length;
  const docVectors = new Float32Array(texts.length * width);
  for (let i = 0; i < texts.length; i += 1000) {
    const page = (await embedder.embed(texts.slice(i, i + 1000))).vectors;
    for (const [j, v] of page.entries()) normalise(v, docVectors, (i + j) * width, width);
  }
  // Exact: every document's cosine, the best 10 kept by insertion (score descending, then id ascending).
  const exactVector = (query: number[]): RankedId[] => {
    const q = new Float32Array(width);
    normalise(query, q, 0, width);
    const best: RankedId[] = [];
    for (let i = 0; i < ids.length; i++) {
      let dot = 0;
      const at = i * width;
      for (let d = 0; d < width; d++) dot += docVectors[at + d]! * q[d]!;
      if (best.length === 10 && dot <= best[9]!.score) continue;
      let j = Math.min(best.length, 9);
      while (j > 0 && best[j - 1]!.score < dot) {
        best[j] = best[j - 1]!;
        j--;
      }
      best[j] = { id: ids[i]!, score: dot };
    }
    return best;
  };
  const termCounts = texts.map((t) => {
    const counts = new Map<string, number>();
    const words = lexicalWords(t);
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    return { counts, length: words.length };
  });
  const avgLength = termCounts.reduce((s, d) => s + d.length, 0) / termCounts.length;
  const exactText = (q: string): RankedId[] => {
    const terms = [...new Set(lexicalWords(q))];
    const idf = terms.map((t) => {
      const df = termCounts.filter((d) => d.counts.has(t)).length;
      return Math.log(1 + (termCounts.length - df + 0.5) / (df + 0.5));
    });
    return termCounts
      .map((d, i) => {
        let score = 0;
        terms.forEach((t, j) => {
          const tf = d.counts.get(t) ?? 0;
          if (tf) score += (idf[j]! * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.length) / avgLength));
        });
        return { id: ids[i]!, score };
      })
      .filter((r) => r.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, 10);
  };
  const sample = queries.slice(0, 50);
  let vectorHits = 0;
  let textHits = 0;
  const exactVectorTimes: number[] = [];
  const exactTextTimes: number[] = [];
  // Ties at the 10th place are common with hashed word features: a hit is any result at least as good
  // as the exact 10th (float32 storage: within 1e-4).
  const hits = (found: RankedId[], truth: RankedId[]) =>
    found.slice(0, 10).filter((r) => r.score >= (truth.at(-1)?.score ?? 0) - 1e-4).length;
  for (let i = 0; i < sample.length; i++) {
    const [byVector, byText] = await ranked(ctx.vectorIndexes, i);
    let t = performance.now();
    const truthVector = exactVector(vectors[i]!);
    exactVectorTimes.push(performance.now() - t);
    t = performance.now();
    const truthText = exactText(sample[i]!);
    exactTextTimes.push(performance.now() - t);
    vectorHits += hits(byVector!, truthVector);
    textHits += Math.min(truthText.length, hits(byText!, truthText));
    if (truthText.length < 10) textHits += 10 - truthText.length;
  }
  phase('exact baselines');
  const vectorRecall = vectorHits / (sample.length * 10);
  const textRecall = textHits / (sample.length * 10);

  const again = await importDocuments(ctx, vendor!.id, ds!.id, 'qa', docs);

  // A 50 MB PDF through the upload path (read in the parse pool), /healthz probed meanwhile. As the upload
  // route hands it over: blocks that own their memory (here one), moved to the parse thread — so pdfBytes
  // is empty after, and its size is read first.
  const pdfBytes = new Uint8Array(await largePdf({ bytes: 50 * 1024 * 1024, pages: 200 }));
  const pdfMb = pdfBytes.byteLength / 1e6;
  const t2 = performance.now();
  const pdfBody = new UploadedBody([pdfBytes], pdfBytes.byteLength);
  const pdfImport = importFile(ctx, vendor!.id, ds!.id, 'pdf', { name: 'large.pdf' }, pdfBody);
  const pdfHealth = await probeHealth(server.url, pdfImport);
  const pdfPassages = (await pdfImport).length;
  const pdfMs = performance.now() - t2;

  const rows = [
    ['measure', 'value', 'goal'],
    [
      `import + embed ${N.toLocaleString('en')} QA documents`,
      `${(total / 1000).toFixed(1)} s (import ${(imported / 1000).toFixed(1)} s)`,
      '',
    ],
    ['documents / s end to end', (N / (total / 1000)).toFixed(0), '≥ 2,000'],
    [
      'documents / s excluding provider time',
      `${(N / ((total - importProviderMs) / 1000)).toFixed(0)} (provider ${(importProviderMs / 1000).toFixed(1)} s)`,
      DENSE ? '≥ 2,000' : '',
    ],
    ['first search after the import, this process', ms(firstSearch), ''],
    [
      'hybrid search p50 / p99 (k = 10)',
      `${ms(percentile(hybrid, 50))} / ${ms(percentile(hybrid, 99))}`,
      'p99 ≤ 15 ms',
    ],
    [
      'CPU of this process per hybrid search p50 / p99',
      `${ms(percentile(hybrid.cpu, 50))} / ${ms(percentile(hybrid.cpu, 99))}`,
      '',
    ],
    [
      'index lookups of a search (vectors + words) p50 / p99',
      `${ms(percentile(engine, 50))} / ${ms(percentile(engine, 99))}`,
      '',
    ],
    [
      'CPU of this process per index lookups p50 / p99',
      `${ms(percentile(engine.cpu, 50))} / ${ms(percentile(engine.cpu, 99))}`,
      '',
    ],
    ['exact vector scan p50 (baseline)', ms(percentile(exactVectorTimes, 50)), ''],
    ['exact BM25 scan p50 (baseline)', ms(percentile(exactTextTimes, 50)), ''],
    [
      'full text in SQL (OR + ts_rank) p50 / p99, replaced',
      `${ms(percentile(sqlText, 50))} / ${ms(percentile(sqlText, 99))}`,
      '',
    ],
    ['recall@10 vectors / words vs exact', `${vectorRecall.toFixed(3)} / ${textRecall.toFixed(3)}`, '≥ 0.95'],
    ['first search of a process without the index (builds it)', ms(coldSearch), ''],
    ['documents added by importing the same documents again', String(again.length), '0'],
    ['GET /healthz p99 idle (baseline)', ms(percentile(idle, 99)), ''],
    ['GET /healthz p99 during import + embed', ms(percentile(busy, 99)), '≤ 50 ms'],
    [
      `import of a ${pdfMb.toFixed(0)} MB PDF (200 pages, ${pdfPassages} passages)`,
      `${(pdfMs / 1000).toFixed(1)} s`,
      '',
    ],
    ['GET /healthz p99 during the PDF import', ms(percentile(pdfHealth, 99)), '≤ 50 ms'],
    ['busy / idle p99', `${(percentile(busy, 99) / percentile(idle, 99)).toFixed(2)}×`, ''],
    [
      'event loop delay p99 / max: idle, import + embed, PDF',
      [idle, busy, pdfHealth].map((h) => `${h.loop.p99.toFixed(0)} / ${h.loop.max.toFixed(0)}`).join(', ') +
        ' ms',
      '',
    ],
  ];
  const [head, ...body] = rows;
  console.log(`| ${head!.join(' | ')} |`);
  console.log(`| ${head!.map(() => '---').join(' | ')} |`);
  for (const r of body) console.log(`| ${r.join(' | ')} |`);
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
