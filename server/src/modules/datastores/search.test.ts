/**
 * Search engines of datastores (ADR 0033) through the API with the real worker: each engine answers what
 * an exact search over the same documents answers (sparse vectors and their words in the process's index,
 * dense vectors in pgvector's where the database has it), the in-process index is rebuilt from the
 * database and follows it, a model installed later is adopted, a model change re-embeds, and a failing
 * provider is the provider's failure (502).
 */
import { EMBEDDING_MODEL_REQUIRED } from '@llmor/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fakeVector, startFakeOpenAI } from '../../test/fakes';
import {
  type Client,
  createTestServer,
  makeApp,
  signedInVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import type { AppRow } from '../completion/repo';
import { lexicalVector, lexicalWords } from '../models/providers/builtin';
import type { VendorRow } from '../vendors/repo';
import { documentText } from './parse';
import { type RankedId, rankedMatches, VectorIndexes, warmMemoryIndexes } from './vectors';

let server: TestServer;
let vendor: VendorRow;
let c: Client;
let app: AppRow;
let base: string;

beforeAll(async () => {
  server = await createTestServer({ env: { ROLES: 'api,relay,worker' } });
  ({ vendor, client: c } = await signedInVendor(server));
  app = await makeApp(server.ctx, vendor, { type: 'chatbot', appKey: 'chatbot' });
  base = `/v1/vendors/${vendor.id}/apps/${app.id}`;
});
afterAll(async () => {
  await server?.close();
});

async function installModel(id: string, parameters: Record<string, unknown> = {}): Promise<number> {
  const res = await c.post(`/v1/vendors/${vendor.id}/avamodels/${id}/install`, { parameters });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function createDatastore(body: Record<string, unknown> = {}) {
  const res = await c.post(`${base}/datastores`, { name: uniq('ds_').toLowerCase(), ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; embedding_vendor_model_id: number | null };
}

const status = async (id: number) => (await c.get(`/v1/datastores/${id}/status`)).json().data;
const synced = (id: number) =>
  expect.poll(async () => (await status(id)).pending, { timeout: 30_000 }).toBe(0);

async function importQa(id: number, data: { Q: string; A: string }[]) {
  const res = await c.post(`/v1/datastores/${id}/docs/import`, { mode: 'qa', data });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data as { id: number; document: { Q: string; A: string } }[];
}

/** A small corpus with shared words, so rankings have something to separate. */
function corpus(n: number) {
  const words = [
    'glacier',
    'river',
    'bern',
    'train',
    'invoice',
    'password',
    'lake',
    'office',
    'snow',
    'card',
  ];
  return Array.from({ length: n }, (_, i) => ({
    Q: `question ${i} about ${words[i % 10]} and ${words[(i * 3) % 10]}`,
    A: `${words[(i * 7) % 10]} ${words[(i + 4) % 10]} answer ${i} ${words[i % 10]}`,
  }));
}

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
};

/** Every document by cosine (score descending, then id). */
function exactNearest(docs: { id: number; vector: number[] }[], query: number[]) {
  return docs
    .map((d) => ({ id: d.id, score: cosine(d.vector, query) }))
    .sort((a, b) => b.score - a.score || a.id - b.id);
}

/** The exact top-n up to float rounding: equal scores position by position, ties in any order. */
function expectSameRanking(found: RankedId[], exact: RankedId[], n = 10) {
  const scores = (list: RankedId[]) => list.map((r) => r.score.toFixed(4));
  expect(scores(found)).toEqual(scores(exact.slice(0, n)));
  // Where scores are distinct the documents are the same (vectors are stored as float32).
  found.forEach((r, i) => {
    const tied = exact.filter((e) => Math.abs(e.score - r.score) < 1e-4).map((e) => e.id);
    expect(tied, `rank ${i}`).toContain(r.id);
  });
}

/** Every matching document by BM25 (k1 = 1.2, b = 0.75). */
function exactBm25(docs: { id: number; text: string }[], query: string) {
  const tokenised = docs.map((d) => ({ id: d.id, words: lexicalWords(d.text) }));
  const avg = tokenised.reduce((s, d) => s + d.words.length, 0) / tokenised.length;
  const terms = [...new Set(lexicalWords(query))];
  return tokenised
    .map((d) => {
      let score = 0;
      for (const t of terms) {
        const tf = d.words.filter((w) => w === t).length;
        if (tf === 0) continue;
        const df = tokenised.filter((x) => x.words.includes(t)).length;
        const idf = Math.log(1 + (tokenised.length - df + 0.5) / (df + 0.5));
        score += (idf * tf * 2.2) / (tf + 1.2 * (0.25 + (0.75 * d.words.length) / avg));
      }
      return { id: d.id, score };
    })
    .filter((d) => d.score > 0)
    .sort((a, b) => b.score - a.score || a.id - b.id);
}

const QUERIES = ['glacier river', 'password for the office', 'train to bern', 'invoice card 7', 'lake snow'];

describe('search engines answer what exact search answers', () => {
  it('sparse (offline lexical) vectors and the words of embedded documents: the process index', async () => {
    const ds = await createDatastore({
      embedding_vendor_model_id: await installModel('builtin-lexical-embedding'),
    });
    const rows = await importQa(ds.id, corpus(60));
    await synced(ds.id);
    const docs = rows.map((r) => ({ id: r.id, text: documentText(r.document) }));
    const vectors = docs.map((d) => ({ id: d.id, vector: lexicalVector(d.text) }));
    for (const query of QUERIES) {
      const [byVector, byWords, waiting] = await rankedMatches(
        server.ctx.vectorIndexes,
        { vendorId: vendor.id, id: ds.id, modelId: ds.embedding_vendor_model_id },
        { text: query, vector: lexicalVector(query) },
        10,
      );
      expectSameRanking(byVector!, exactNearest(vectors, lexicalVector(query)));
      expectSameRanking(byWords!, exactBm25(docs, query));
      expect(waiting).toEqual([]);
    }
  });

  it('dense vectors: pgvector where the database has it, else the process index', async () => {
    const fake = await startFakeOpenAI();
    onTestFinished(() => fake.close());
    const model = await installModel('openai-compatible-embedding', {
      base_url: fake.baseUrl,
      model: 'fake-embed',
      dimensions: 8,
    });
    const ds = await createDatastore({ embedding_vendor_model_id: model });
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const rows = await importQa(ds.id, corpus(40));
    await synced(ds.id);
    const vectors = rows.map((r) => ({ id: r.id, vector: fakeVector(documentText(r.document), 8) }));
    for (const query of QUERIES) {
      const [byVector] = await rankedMatches(
        server.ctx.vectorIndexes,
        { vendorId: vendor.id, id: ds.id, modelId: model },
        { text: query, vector: fakeVector(query, 8) },
        10,
      );
      expectSameRanking(byVector!, exactNearest(vectors, fakeVector(query, 8)));
    }
    fake.expectNoFailures();
  });

  it('the words of documents not embedded yet: full text in SQL', async () => {
    const ds = await createDatastore();
    // The vendor has embedding models; a datastore made without one adopts the first, so take it away.
    const { updateDatastore } = await import('./repo');
    await updateDatastore(server.ctx.db, vendor.id, ds.id, { embeddingVendorModelId: null });
    const rows = await importQa(ds.id, corpus(30));
    const [waiting] = await rankedMatches(
      server.ctx.vectorIndexes,
      { vendorId: vendor.id, id: ds.id, modelId: null },
      { text: 'glacier', vector: null },
      50,
    );
    const expected = rows.filter((r) => documentText(r.document).includes('glacier')).map((r) => r.id);
    expect(waiting!.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected);
  });

  it('without pgvector, the words of waiting documents are searched while the query is being embedded', async () => {
    const ds = await createDatastore();
    const { updateDatastore } = await import('./repo');
    await updateDatastore(server.ctx.db, vendor.id, ds.id, { embeddingVendorModelId: null });
    const rows = await importQa(ds.id, corpus(30));
    const { db } = server.ctx.database;
    let statements = 0;
    const counted = new Proxy(db, {
      get: (target, key, receiver) =>
        key === 'execute'
          ? (...args: Parameters<typeof db.execute>) => {
              statements++;
              return target.execute(...args);
            }
          : Reflect.get(target, key, receiver),
    });
    let embedded!: (vector: number[] | null) => void;
    const search = rankedMatches(
      new VectorIndexes({ ...server.ctx.database, hasVector: false, db: counted }),
      { vendorId: vendor.id, id: ds.id, modelId: null },
      { text: 'glacier', vector: new Promise((resolve) => (embedded = resolve)) },
      50,
    );
    await expect.poll(() => statements).toBe(1);
    embedded(null);
    const [waiting] = await search;
    const expected = rows.filter((r) => documentText(r.document).includes('glacier')).map((r) => r.id);
    expect(waiting!.map((r) => r.id).sort((a, b) => a - b)).toEqual(expected);
    expect(statements).toBe(1);
  });
});

describe('the process index', () => {
  it('is rebuilt from the database when missing, follows rows another instance writes, and drops deleted documents', async () => {
    const ds = await createDatastore({
      embedding_vendor_model_id: await installModel('builtin-lexical-embedding'),
    });
    await importQa(ds.id, corpus(30));
    await synced(ds.id);
    const search = (indexes = server.ctx.vectorIndexes) =>
      rankedMatches(
        indexes,
        { vendorId: vendor.id, id: ds.id, modelId: ds.embedding_vendor_model_id },
        { text: 'glacier river', vector: lexicalVector('glacier river') },
        10,
      );
    const before = await search();
    // A process that starts (after a crash, or another instance) has no index: it builds one from the table.
    const restarted = new VectorIndexes(server.ctx.database);
    expect(await search(restarted)).toEqual(before);

    // Rows written through one instance are found by the other's index on its next search.
    const added = await importQa(ds.id, [{ Q: 'glacier river glacier river', A: 'glacier river' }]);
    await synced(ds.id);
    expect((await search(restarted))[0]![0]!.id).toBe(added[0]!.id);
    expect((await search())[0]![0]!.id).toBe(added[0]!.id);

    // A deleted document is not answered by search (the table's rows went with it).
    expect((await c.delete(`/v1/datastores/${ds.id}/docs/${added[0]!.id}`)).statusCode).toBe(204);
    const hits = (await c.post(`/v1/datastores/${ds.id}/search`, { query: 'glacier river', k: 5 })).json()
      .data;
    expect(hits.map((h: { id: number }) => h.id)).not.toContain(added[0]!.id);
    expect(hits).toHaveLength(5);
  });
});

describe('warming at start', () => {
  it('a starting process builds the indexes of the most recently searched datastores first', async () => {
    const model = await installModel('builtin-lexical-embedding');
    const older = await createDatastore({ embedding_vendor_model_id: model });
    const recent = await createDatastore({ embedding_vendor_model_id: model });
    for (const ds of [older, recent]) {
      await importQa(ds.id, corpus(20));
      await synced(ds.id);
    }
    for (const ds of [older, recent]) {
      const res = await c.post(`/v1/datastores/${ds.id}/search`, { query: 'glacier river', k: 3 });
      expect(res.statusCode, res.body).toBe(200);
    }
    // A process that starts (a restart, another instance) with room for one index warms the recent one.
    // Each server keeps its own indexes: the one that searched holds them, a new one none.
    expect(server.ctx.vectorIndexes.holds(recent.id)).toBe(true);
    const restarted = new VectorIndexes(server.ctx.database);
    expect(restarted.holds(recent.id)).toBe(false);
    const warmed = await warmMemoryIndexes(restarted, { maxPostings: 1 });
    expect(warmed).toEqual([recent.id]);
    expect(restarted.holds(recent.id)).toBe(true);
    expect(restarted.holds(older.id)).toBe(false);
    // With room for all, every datastore with vectors is warmed, the recently searched first.
    const all = await warmMemoryIndexes(new VectorIndexes(server.ctx.database));
    expect(all.slice(0, 2)).toEqual([recent.id, older.id]);
  });
});

describe('vectors stored before the process index', () => {
  it('are read from the embedding column when a row has no packed form', async () => {
    const ds = await createDatastore({
      embedding_vendor_model_id: await installModel('builtin-lexical-embedding'),
    });
    const rows = await importQa(ds.id, corpus(20));
    await synced(ds.id);
    const searched = { vendorId: vendor.id, id: ds.id, modelId: ds.embedding_vendor_model_id };
    const query = { text: 'glacier river', vector: lexicalVector('glacier river') };
    const [expected] = await rankedMatches(server.ctx.vectorIndexes, searched, query, 10);
    const column = server.ctx.database.hasVector ? 'vector' : 'real[]';
    for (const row of rows) {
      const v = lexicalVector(documentText(row.document));
      const text = server.ctx.database.hasVector ? `[${v.join(',')}]` : `{${v.join(',')}}`;
      await server.ctx.db.execute(
        sql`update datastore_embeddings set packed = null, embedding = ${text}::${sql.raw(column)} where document_id = ${row.id}`,
      );
    }
    const [found] = await rankedMatches(new VectorIndexes(server.ctx.database), searched, query, 10);
    expectSameRanking(found!, expected!);
  });
});

describe('embedding models', () => {
  it('a datastore made before any embedding model adopts the first one installed and embeds what waited', async () => {
    const { vendor: other, client: oc } = await signedInVendor(server);
    const otherApp = await makeApp(server.ctx, other, { type: 'chatbot', appKey: 'chatbot' });
    const made = await oc.post(`/v1/vendors/${other.id}/apps/${otherApp.id}/datastores`, { name: 'early' });
    expect(made.json().data.embedding_vendor_model_id).toBeNull();
    const ds = made.json().data as { id: number };
    await oc.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: corpus(5) });
    const waiting = (await oc.get(`/v1/datastores/${ds.id}/status`)).json().data;
    expect(waiting).toMatchObject({ pending: 5, last_error: EMBEDDING_MODEL_REQUIRED });

    const installed = await oc.post(`/v1/vendors/${other.id}/avamodels/builtin-lexical-embedding/install`, {
      parameters: {},
    });
    expect(installed.statusCode).toBe(201);
    await expect
      .poll(async () => (await oc.get(`/v1/datastores/${ds.id}/status`)).json().data, { timeout: 30_000 })
      .toMatchObject({ documents: 5, pending: 0, last_error: null });
    const list = (await oc.get(`/v1/vendors/${other.id}/apps/${otherApp.id}/datastores`)).json().data;
    expect(list[0].embedding_vendor_model_id).toBe(installed.json().data.id);
    const hits = (await oc.post(`/v1/datastores/${ds.id}/search`, { query: 'glacier', k: 1 })).json().data;
    expect(documentText(hits[0].document)).toContain('glacier');
  });

  it("changing a datastore's model embeds it again with the new one, counted in its status", async () => {
    const ds = await createDatastore({
      embedding_vendor_model_id: await installModel('builtin-lexical-embedding'),
    });
    await importQa(ds.id, corpus(12));
    await synced(ds.id);
    const fake = await startFakeOpenAI();
    onTestFinished(() => fake.close());
    const dense = await installModel('openai-compatible-embedding', {
      base_url: fake.baseUrl,
      model: 'fake-embed',
      dimensions: 8,
    });
    fake.embeddings({ kind: 'error', status: 503 });
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const changed = await c.put(`${base}/datastores/${ds.id}`, { embedding_vendor_model_id: dense });
    expect(changed.statusCode, changed.body).toBe(200);
    // Progress while it waits: every document counts as pending until the new model embedded it.
    await expect.poll(async () => (await status(ds.id)).failed, { timeout: 30_000 }).toBe(12);
    await synced(ds.id);
    expect(fake.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([12, 12]);
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const hits = await c.post(`/v1/datastores/${ds.id}/search`, { query: 'glacier', k: 3 });
    expect(hits.statusCode, hits.body).toBe(200);
    expect(hits.json().data).toHaveLength(3);
    fake.expectNoFailures();
  }, 60_000);

  it("a search whose embedding provider fails answers 502 with the provider's message", async () => {
    const fake = await startFakeOpenAI();
    onTestFinished(() => fake.close());
    const model = await installModel('openai-compatible-embedding', {
      base_url: fake.baseUrl,
      model: 'fake-embed',
      dimensions: 8,
    });
    const ds = await createDatastore({ embedding_vendor_model_id: model });
    fake.embeddings({ kind: 'error', status: 401 });
    const res = await c.post(`/v1/datastores/${ds.id}/search`, { query: 'glacier', k: 3 });
    expect(res.statusCode, res.body).toBe(502);
    expect(res.json().message).toMatch(/^The embedding model could not answer: .+/);
    fake.expectNoFailures();
  });
});
