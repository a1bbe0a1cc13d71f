/**
 * Datastores through the API with the real worker (pg-boss on the suite's database): import modes,
 * dedup, malformed input, background embedding, failures retried, search, RAG in a chatbot reply,
 * Lua `datastore.search`, and the queue monitor.
 */
import { DOCUMENT_MAX_BYTES, EMBEDDING_MODEL_REQUIRED, PING_JOB } from '@llmor/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { startFakeOpenAI } from '../../test/fakes';
import {
  Client,
  createListeningTestServer,
  createTestServer,
  makeApp,
  makeUser,
  signedInVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import type { AppRow } from '../completion/repo';
import {
  finish,
  ModelChoice,
  makeConversation,
  makeVendorModel,
  RecordingRelay,
  ScriptedModel,
  text,
} from '../completion/testing';
import type { VendorRow } from '../vendors/repo';
import { sweep } from './sync';
import { rowsOf } from './vectors';

let server: TestServer;
let vendor: VendorRow;
let c: Client;
let superuser: Client;
let app: AppRow;
let base: string;

const WORKER = { ROLES: 'api,relay,worker' };
/** The server's fakes: replies' events recorded, and the model a test chooses. */
const relay = new RecordingRelay();
const models = new ModelChoice();

/** The probe's value once `ok` holds; the test fails if it does not within `ms`. */
function eventually<T>(probe: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000): Promise<T> {
  return vi.waitFor(
    async () => {
      const v = await probe();
      if (!ok(v)) throw new Error(`not yet: ${JSON.stringify(v)}`);
      return v;
    },
    { timeout: ms, interval: 100 },
  );
}

async function installModel(id: string, parameters: Record<string, unknown> = {}): Promise<number> {
  const res = await c.post(`/v1/vendors/${vendor.id}/avamodels/${id}/install`, { parameters });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id;
}

async function createDatastore(name = uniq('ds_').toLowerCase(), body: Record<string, unknown> = {}) {
  const res = await c.post(`${base}/datastores`, { name, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data as { id: number; name: string; embedding_vendor_model_id: number | null };
}

const status = async (id: number) => (await c.get(`/v1/datastores/${id}/status`)).json().data;
const synced = (id: number) =>
  eventually(
    () => status(id),
    (s) => s.pending === 0,
  );
const docs = async (id: number, q = '') =>
  (await c.get(`/v1/datastores/${id}/docs?page_size=100${q}`)).json();

const QA = [
  { Q: 'How do I reset my password?', A: 'Open Sign in, choose Forgot password and follow the mailed link.' },
  {
    Q: 'Which payment methods are accepted?',
    A: 'Credit cards and bank transfer; invoices are paid within 30 days.',
  },
  { Q: 'Where is the head office?', A: 'The head office is in Bern, next to the railway station.' },
];

beforeAll(async () => {
  server = await createTestServer({ env: WORKER, relay, engine: { resolveModel: models.resolve } });
  ({ vendor, client: c } = await signedInVendor(server));
  const su = await makeUser(server.ctx, { isSu: true });
  superuser = await Client.signedIn(server.app, su.email, su.password);
  app = await makeApp(server.ctx, vendor, { type: 'chatbot', appKey: 'chatbot' });
  base = `/v1/vendors/${vendor.id}/apps/${app.id}`;
});
afterAll(async () => {
  await server?.close();
});

describe('datastores of an app', () => {
  it('without an embedding model a datastore stores documents and says what is missing', async () => {
    const ds = await createDatastore();
    expect(ds.embedding_vendor_model_id).toBeNull();
    const imported = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'qa',
      data: JSON.stringify(QA),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const s = await eventually(
      () => status(ds.id),
      (v) => v.last_error !== null,
    );
    expect(s).toMatchObject({ documents: 3, pending: 3, last_error: EMBEDDING_MODEL_REQUIRED });
  });

  it('creates (default: the first embedding model), lists, renames and deletes; names are checked', async () => {
    const lexical = await installModel('builtin-lexical-embedding');
    const ds = await createDatastore('faq');
    expect(ds.embedding_vendor_model_id).toBe(lexical);

    const dup = await c.post(`${base}/datastores`, { name: 'faq' });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().errors.name).toMatch(/already has a datastore/);
    const bad = await c.post(`${base}/datastores`, { name: 'My Store' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.name).toMatch(/lower-case letters, digits and underscores/);

    const list = await c.get(`${base}/datastores`);
    expect(list.json().data.map((d: { name: string }) => d.name)).toContain('faq');

    const renamed = await c.put(`${base}/datastores/${ds.id}`, { name: 'faq_v2' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.name).toBe('faq_v2');

    const other = await createDatastore();
    expect((await c.delete(`${base}/datastores/${other.id}`)).statusCode).toBe(204);
    expect((await c.get(`/v1/datastores/${other.id}/docs`)).statusCode).toBe(404);
  });
});

describe('deleting an app', () => {
  it('takes its datastores, documents and vectors with it, and the sweep drops their search index', async () => {
    const other = await makeApp(server.ctx, vendor, { type: 'chatbot', appKey: 'chatbot' });
    const otherBase = `/v1/vendors/${vendor.id}/apps/${other.id}`;
    // Dense vectors: those the database indexes itself where it has pgvector (ADR 0033).
    const fake = await startFakeOpenAI();
    onTestFinished(() => fake.close());
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const created = await c.post(`${otherBase}/datastores`, {
      name: 'leaving',
      embedding_vendor_model_id: await installModel('openai-compatible-embedding', {
        base_url: fake.baseUrl,
        model: 'fake-embed',
        dimensions: 8,
      }),
    });
    expect(created.statusCode, created.body).toBe(201);
    const ds = created.json().data as { id: number };
    const imported = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'qa',
      data: JSON.stringify(QA),
    });
    expect(imported.statusCode, imported.body).toBe(200);
    await synced(ds.id);
    const indexes = async () =>
      rowsOf<{ name: string }>(
        await server.ctx.db.execute(
          sql`select indexname as name from pg_indexes where indexname = ${`datastore_embeddings_hnsw_${ds.id}`}`,
        ),
      ).length;
    // Without pgvector (a PostgreSQL server lacking it) the process indexes them and leaves nothing here.
    const hnsw = server.ctx.database.hasVector ? 1 : 0;
    expect(await indexes()).toBe(hnsw);

    expect((await c.delete(otherBase)).statusCode).toBe(204);
    expect((await c.get(`/v1/datastores/${ds.id}/docs`)).statusCode).toBe(404);
    const left = await server.ctx.db.execute(
      sql`select count(*)::int as n from datastore_embeddings where datastore_id = ${ds.id}`,
    );
    expect(rowsOf<{ n: number }>(left)[0]!.n).toBe(0);

    const swept = await sweep(server.ctx);
    expect(swept.droppedIndexes).toBeGreaterThanOrEqual(hnsw);
    expect(await indexes()).toBe(0);
    // The app's siblings keep theirs.
    expect((await sweep(server.ctx)).droppedIndexes).toBe(0);
  });
});

describe('import', () => {
  it('qa: stores the documents at once, embeds them in the background, and dedups a re-import', async () => {
    const ds = await createDatastore();
    const res = await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: JSON.stringify(QA) });
    expect(res.statusCode, res.body).toBe(200);
    const imported = res.json().data;
    expect(imported).toHaveLength(3);
    expect(imported[0]).toMatchObject({ document: QA[0], requires_sync: true });
    expect(imported[0].hash).toMatch(/^[0-9a-f]{64}$/);

    await synced(ds.id);
    const list = await docs(ds.id);
    expect(list.total_count).toBe(3);
    expect(list.data.every((d: { requires_sync: boolean }) => !d.requires_sync)).toBe(true);

    const again = await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA });
    expect(again.json().data).toHaveLength(0);
    expect((await docs(ds.id)).total_count).toBe(3);
  });

  it('json, csv and text_blob', async () => {
    const ds = await createDatastore();
    const json = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'json',
      data: '[{"title":"Opening hours","body":"Monday to Friday 8-18"},{"title":"Parking","body":"Free"}]',
    });
    expect(json.json().data.map((d: { document: { title: string } }) => d.document.title)).toEqual([
      'Opening hours',
      'Parking',
    ]);
    const single = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'json',
      data: { title: 'One' },
    });
    expect(single.json().data).toHaveLength(1);

    const csv = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'csv',
      data: 'name,city\n"Muster, Anna",Bern\nPeter,Basel\n',
    });
    expect(csv.json().data.map((d: { document: unknown }) => d.document)).toEqual([
      { name: 'Muster, Anna', city: 'Bern' },
      { name: 'Peter', city: 'Basel' },
    ]);

    const paragraph = 'Glaciers move slowly down the valley. '.repeat(40);
    const blob = `${paragraph}\n\n${'Rivers carry the melt water to the lakes. '.repeat(40)}`;
    const text = await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'text_blob', data: blob });
    const passages = text.json().data.map((d: { document: { text: string } }) => d.document.text);
    expect(passages.length).toBeGreaterThanOrEqual(3);
    for (const p of passages) expect(p.length).toBeLessThanOrEqual(1000);
    expect(passages.join(' ')).toContain('Rivers carry');
    await synced(ds.id);
  });

  it.each([
    [
      'qa',
      '[{"Q":"a","A":"b"},{"Q":"only a question"}]',
      /Item 2: expected an object with the text fields "Q" and "A"/,
    ],
    ['qa', '{"Q":"a","A":"b"}', /JSON array/],
    ['json', '[{"a":1}, 7]', /Item 2: expected a JSON object/],
    ['json', '[{"a":1}', /not valid JSON/],
    ['csv', 'a,b\n1,2\n3,4,5\n', /Row 3/],
    ['text_blob', '   ', /empty/],
  ])('%s: malformed input → 400 naming the item, nothing stored', async (mode, data, message) => {
    const ds = await createDatastore();
    const res = await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode, data });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().message).toMatch(message);
    expect((await docs(ds.id)).total_count).toBe(0);
  });

  it('refuses a wrong mode, oversize bodies (413) and oversize documents', async () => {
    const ds = await createDatastore();
    const mode = await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'xml', data: '<a/>' });
    expect(mode.statusCode).toBe(400);
    expect(mode.json().errors.mode).toMatch(/Must be one of: qa, text_blob, json, csv/);

    const huge = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'text_blob',
      data: 'x'.repeat(33 * 1024 * 1024),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().message).toBe('The request body is too large: at most 32 MiB per request.');

    const big = await c.post(`/v1/datastores/${ds.id}/docs/import`, {
      mode: 'json',
      data: [{ ok: 1 }, { text: 'y'.repeat(DOCUMENT_MAX_BYTES) }],
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().message).toMatch(/^Item 2 is \d+ bytes; a document may have at most 65536 bytes/);
    expect((await docs(ds.id)).total_count).toBe(0);
  });
});

describe('documents', () => {
  it('edit (embedded again), duplicate content refused, delete, search in the list, truncate', async () => {
    const ds = await createDatastore();
    const [first, second] = (
      await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA.slice(0, 2) })
    ).json().data;
    await synced(ds.id);

    const edited = await c.put(`/v1/datastores/${ds.id}/docs/${first.id}`, {
      document: { Q: 'How do I change my password?', A: 'Under Profile → Password.' },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().data).toMatchObject({ requires_sync: true });
    expect(edited.json().data.hash).not.toBe(first.hash);
    await synced(ds.id);

    const clash = await c.put(`/v1/datastores/${ds.id}/docs/${first.id}`, { document: second.document });
    expect(clash.statusCode).toBe(409);

    const found = await docs(ds.id, '&search=Profile');
    expect(found).toMatchObject({ total_count: 2, filter_count: 1 });

    expect((await c.delete(`/v1/datastores/${ds.id}/docs/${second.id}`)).statusCode).toBe(204);
    expect((await c.delete(`/v1/datastores/${ds.id}/docs/${second.id}`)).statusCode).toBe(404);

    const truncated = await c.post(`/v1/datastores/${ds.id}/truncate`);
    expect(truncated.json().message).toBe(`DataStore "${ds.name}" truncated: 1 document removed.`);
    expect((await docs(ds.id)).total_count).toBe(0);
  });
});

describe('search', () => {
  it('ranks the passage that answers first (hybrid: vector + full text)', async () => {
    const ds = await createDatastore();
    await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA });
    await synced(ds.id);
    for (const [query, answer] of [
      ['forgot my password', 0],
      ['can I pay by bank transfer', 1],
      ['office in Bern', 2],
    ] as const) {
      const res = await c.post(`/v1/datastores/${ds.id}/search`, { query, k: 3 });
      expect(res.statusCode, res.body).toBe(200);
      const hits = res.json().data;
      expect(hits[0].document, query).toEqual(QA[answer]);
      expect(hits[0].score).toBeGreaterThan(hits.at(-1).score - 1e-9);
    }
    const k = await c.post(`/v1/datastores/${ds.id}/search`, { query: 'x', k: 51 });
    expect(k.statusCode).toBe(400);
  });
});

describe('embedding failures', () => {
  it('a failing provider is reported in the status and retried until it answers', async () => {
    const fake = await startFakeOpenAI();
    try {
      const model = await installModel('openai-compatible-embedding', {
        base_url: fake.baseUrl,
        model: 'fake-embed',
        dimensions: 8,
      });
      const ds = await createDatastore(undefined, { embedding_vendor_model_id: model });
      fake.embeddings({ kind: 'error', status: 503 });
      fake.embeddings({ kind: 'embeddings', dimensions: 8 });
      await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA });

      const failed = await eventually(
        () => status(ds.id),
        (s) => s.failed > 0,
      );
      expect(failed).toMatchObject({ documents: 3, pending: 3, failed: 3 });
      expect(failed.last_error).toMatch(/^The embedding model could not answer/);

      const done = await eventually(
        () => status(ds.id),
        (s) => s.pending === 0,
        30_000,
      );
      expect(done).toMatchObject({ documents: 3, pending: 0, failed: 0, last_error: null });
      expect(fake.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([3, 3]);
      fake.expectNoFailures();
    } finally {
      await fake.close();
    }
  }, 40_000);
});

describe('retrieval in replies', () => {
  it('a chatbot with use_datastores answers with the passages in its context and reports them', async () => {
    const chatApp = await makeApp(server.ctx, vendor, {
      type: 'chatbot',
      appKey: 'chatbot',
      parameters: { system_prompt: 'Be brief.', use_datastores: true, datastores: 'kb', top_k: 2 },
    });
    const ds = (await c.post(`/v1/vendors/${vendor.id}/apps/${chatApp.id}/datastores`, { name: 'kb' })).json()
      .data;
    await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA });
    await synced(ds.id);

    const model = new ScriptedModel([[text('In Bern.'), finish()]]);
    models.use(model);
    const vm = await makeVendorModel(server.ctx, vendor);
    const withModel = { ...chatApp, completionVendorModelId: vm.id };
    const conversation = await makeConversation(server.ctx, withModel);
    await server.ctx.completion.start(server.ctx, {
      app: withModel,
      conversation,
      content: 'Where is your office?',
    });

    const system = model.requests[0]!.messages[0]!;
    expect(system.role).toBe('system');
    expect(system.content).toMatch(/^Be brief\.\n\nPassages from the app's datastores/);
    expect(system.content).toContain('The head office is in Bern');
    const debug = relay
      .of(conversation.token)
      .find((e) => e.type === 'debug' && 'datastore_passages' in (e.data as object));
    expect(debug).toBeDefined();
    const passages = (debug!.data as { datastore_passages: { datastore: string; text: string }[] })
      .datastore_passages;
    expect(passages).toHaveLength(2);
    expect(passages[0]).toMatchObject({ datastore: 'kb' });
    expect(passages[0]!.text).toContain('head office');
  });

  it('silicon Lua: datastore.search(name, query, k) answers the hits', async () => {
    const lua = `function on_message(ctx)
  local hits = datastore.search("lua_kb", ctx.message, 1)
  return #hits .. " " .. hits[1].document.A
end`;
    const siliconApp = await makeApp(server.ctx, vendor, {
      type: 'silicon',
      appKey: 'silicon',
      parameters: { silicon: lua },
    });
    const ds = (
      await c.post(`/v1/vendors/${vendor.id}/apps/${siliconApp.id}/datastores`, { name: 'lua_kb' })
    ).json().data;
    await c.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA });
    await synced(ds.id);
    const conversation = await makeConversation(server.ctx, siliconApp);
    await server.ctx.completion.start(server.ctx, {
      app: siliconApp,
      conversation,
      content: 'payment methods',
    });
    const { listMessages } = await import('../conversations/repo');
    const last = (await listMessages(server.ctx.db, vendor.id, conversation.id)).at(-1);
    expect(last).toMatchObject({ role: 'assistant', message: `1 ${QA[1]!.A}` });
  });

  it("each search's embedding is a provider call of the reply, refused past the reply's cap (ADR 0021)", async () => {
    const lua = `function on_message(ctx)
  for i = 1, 100 do
    local ok, err = pcall(datastore.search, "capped_kb", ctx.message, 1)
    if not ok then return i .. ": " .. err end
  end
  return "never refused"
end`;
    const siliconApp = await makeApp(server.ctx, vendor, {
      type: 'silicon',
      appKey: 'silicon',
      parameters: { silicon: lua },
    });
    const ds = (
      await c.post(`/v1/vendors/${vendor.id}/apps/${siliconApp.id}/datastores`, { name: 'capped_kb' })
    ).json().data;
    expect(ds.embedding_vendor_model_id).not.toBeNull();
    const conversation = await makeConversation(server.ctx, siliconApp);
    const calls = server.ctx.config.REPLY_MAX_PROVIDER_CALLS;
    server.ctx.config.REPLY_MAX_PROVIDER_CALLS = 2;
    try {
      await server.ctx.completion.start(server.ctx, { app: siliconApp, conversation, content: 'payment' });
    } finally {
      server.ctx.config.REPLY_MAX_PROVIDER_CALLS = calls;
    }
    const { listMessages } = await import('../conversations/repo');
    const last = (await listMessages(server.ctx.db, vendor.id, conversation.id)).at(-1);
    expect(last).toMatchObject({
      role: 'assistant',
      message: '3: The reply reached its limit of 2 model calls and was stopped.',
    });
  });
});

describe('queue monitor', () => {
  it('ping is answered by the worker and listed; filters by type and action', async () => {
    const ping = await superuser.post('/v1/admin/queue/ping');
    expect(ping.statusCode).toBe(202);
    const id = ping.json().data.id;
    const job = await eventually(
      async () =>
        (await superuser.get('/v1/admin/queue/jobs?type=ping'))
          .json()
          .data.find((j: { id: string }) => j.id === id),
      (j) => j?.status === 'success',
    );
    expect(job).toMatchObject({ action: PING_JOB, status: 'success', error: null, vendor_id: null });
    expect(job.output.pong).toBe(true);
    expect(job.duration).toBeGreaterThanOrEqual(0);

    const custom = (await superuser.get('/v1/admin/queue/jobs?type=custom&action=datastore-sync')).json();
    expect(custom.data.length).toBeGreaterThan(0);
    expect(
      custom.data.every(
        (j: { action: string; vendor_id: number }) =>
          j.action === 'datastore-sync' && j.vendor_id === vendor.id,
      ),
    ).toBe(true);
    const nothing = (await superuser.get('/v1/admin/queue/jobs?type=custom&action=nothing')).json();
    expect(nothing.data).toEqual([]);
    expect(nothing.filter_count).toBe(0);
    expect(nothing.total_count).toBeGreaterThan(custom.filter_count);

    // Owners are not superusers: the monitor does not exist for them.
    expect((await c.get('/v1/admin/queue/jobs')).statusCode).toBe(404);
    expect((await c.post('/v1/admin/queue/ping')).statusCode).toBe(404);
  });
});

describe.skipIf(!process.env.DATABASE_URL)('server mode: two worker instances on one database', () => {
  it('share the queue: an import through one instance is embedded once, whichever worker takes each batch', async () => {
    const a = await createListeningTestServer({ env: WORKER });
    const b = await createListeningTestServer({ databaseUrl: a.databaseUrl, env: WORKER });
    try {
      // B shares A's database: the vendor and owner it makes are A's too.
      const { vendor: v, client: api } = await signedInVendor(b);
      await api.post(`/v1/vendors/${v.id}/avamodels/builtin-lexical-embedding/install`, { parameters: {} });
      const shared = await makeApp(a.ctx, v, { type: 'chatbot', appKey: 'chatbot' });
      const ds = (
        await api.post(`/v1/vendors/${v.id}/apps/${shared.id}/datastores`, { name: 'shared' })
      ).json().data;
      const many = Array.from({ length: 1500 }, (_, i) => ({
        Q: `Question number ${i}?`,
        A: `Answer ${i} of many.`,
      }));
      const res = await api.post(`/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: many });
      expect(res.json().data).toHaveLength(1500);

      const done = await eventually(
        async () => (await api.get(`/v1/datastores/${ds.id}/status`)).json().data,
        (s) => s.pending === 0,
        60_000,
      );
      expect(done).toMatchObject({ documents: 1500, pending: 0, failed: 0 });
      const rows = await a.ctx.db.execute(
        sql`select count(*)::int as n, count(distinct document_id)::int as d from datastore_embeddings where datastore_id = ${ds.id}`,
      );
      expect((rows as unknown as { rows: { n: number; d: number }[] }).rows[0]).toEqual({ n: 1500, d: 1500 });
      const hits = await api.post(`/v1/datastores/${ds.id}/search`, { query: 'Question number 777', k: 3 });
      expect(hits.json().data[0].document).toEqual(many[777]);
    } finally {
      await b.close();
      await a.close();
    }
  }, 90_000);
});
