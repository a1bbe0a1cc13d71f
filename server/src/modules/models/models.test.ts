import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { type FakeOpenAI, startFakeOpenAI } from '../../test/fakes';
import { Client, createTestServer, makeUser, makeVendor, type TestServer, uniq } from '../../test/harness';
import { insertVendor, type VendorRow } from '../vendors/repo';
import { CATALOGUE } from './catalogue';
import { chatModelFor } from './providers';

let server: TestServer;
let fake: FakeOpenAI;
beforeAll(async () => {
  server = await createTestServer();
  fake = await startFakeOpenAI({ apiKey: 'sk-local-secret-key-wxyz' });
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
});

async function signedInVendor(): Promise<{ c: Client; vendor: VendorRow; base: string }> {
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor] });
  const c = await Client.signedIn(server.app, user.email, user.password);
  return { c, vendor, base: `/v1/vendors/${vendor.id}` };
}

const allRows = () => server.ctx.db.select().from(schema.vendorModels).orderBy(schema.vendorModels.id);

async function install(c: Client, base: string, modelId: string, parameters: Record<string, unknown> = {}) {
  const res = await c.post(`${base}/avamodels/${modelId}/install`, { parameters });
  if (res.statusCode !== 201) throw new Error(`install ${modelId}: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: number; name: string };
}

describe('available models (catalogue)', () => {
  it('lists the whole catalogue with schemas and costs in the vendor currency', async () => {
    const { c, base } = await signedInVendor();
    const res = await c.get(`${base}/avamodels/available?limit=100`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total_count).toBe(CATALOGUE.length);
    expect(body.filter_count).toBe(CATALOGUE.length);
    expect(body.data.map((m: { id: string }) => m.id)).toEqual(CATALOGUE.map((e) => e.id));
    const mini = body.data.find((m: { id: string }) => m.id === 'openai-gpt-4o-mini');
    expect(mini).toEqual({
      id: 'openai-gpt-4o-mini',
      name: 'GPT-4o mini',
      description: expect.any(String),
      image: 'icon:brand-openai',
      type: 'chat_completion',
      provider: 'openai',
      cost_per_1k: 1,
      cost_per_1k_formatted: 'CHF 0.01',
      schema: {
        type: 'object',
        properties: {
          api_key: expect.objectContaining({ type: 'string', title: 'API key', 'x-secret': true }),
          base_url: expect.objectContaining({
            type: 'string',
            format: 'uri',
            default: 'https://api.openai.com/v1',
          }),
        },
        required: ['api_key'],
        additionalProperties: false,
      },
    });
    expect(mini.schema.properties.api_key.description).toMatch(/password/);
    const demo = body.data.find((m: { id: string }) => m.id === 'builtin-offline-demo');
    expect(demo).toMatchObject({
      name: 'Offline demo (not AI)',
      provider: 'builtin',
      cost_per_1k_formatted: 'CHF 0.00',
      schema: { type: 'object', properties: {}, required: [] },
    });
    expect(demo.description).toContain('/call <tool_name> {json arguments}');
  });

  it('filters by search and type and honours the limit', async () => {
    const { c, base } = await signedInVendor();
    const ids = async (q: string) => {
      const res = await c.get(`${base}/avamodels/available?${q}`);
      expect(res.statusCode, q).toBe(200);
      const b = res.json();
      return { ids: b.data.map((m: { id: string }) => m.id), total: b.total_count, filtered: b.filter_count };
    };
    expect(await ids('search=ANTHROPIC')).toEqual({
      ids: ['anthropic-claude-sonnet-4-5', 'anthropic-claude-haiku-4-5'],
      total: CATALOGUE.length,
      filtered: 2,
    });
    expect((await ids('type=embedding')).ids).toEqual([
      'openai-text-embedding-3-small',
      'openai-text-embedding-3-large',
      'google-gemini-embedding-001',
      'mistral-embed',
      'openai-compatible-embedding',
      'builtin-lexical-embedding',
      'azure-openai-embedding',
      'amazon-bedrock-titan-embed-text-v2',
      'ollama-embedding',
    ]);
    expect((await ids('type=embedding&search=offline')).ids).toEqual(['builtin-lexical-embedding']);
    expect(await ids('limit=2&type=chat_completion')).toEqual({
      ids: ['openai-gpt-4o-mini', 'openai-gpt-4o'],
      total: CATALOGUE.length,
      filtered: CATALOGUE.filter((m) => m.type === 'chat_completion').length,
    });
    expect((await ids('type=&search=')).ids.length).toBe(CATALOGUE.length);
    for (const q of ['limit=101', 'limit=0', 'type=image']) {
      expect((await c.get(`${base}/avamodels/available?${q}`)).statusCode, q).toBe(400);
    }
  });

  it('formats costs in the vendor currency', async () => {
    const vendor = await insertVendor(server.ctx.db, {
      key: uniq('eur'),
      name: 'Euro vendor',
      currency: 'EUR',
    });
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    const c = await Client.signedIn(server.app, user.email, user.password);
    const res = await c.get(`/v1/vendors/${vendor.id}/avamodels/available?search=gpt-4o`);
    expect(res.json().data[1]).toMatchObject({
      id: 'openai-gpt-4o',
      cost_per_1k: 2,
      cost_per_1k_formatted: 'EUR 0.02',
    });
  });
});

describe('install', () => {
  it('refuses missing required parameters with code 52 and the schema to re-render; stores nothing', async () => {
    const { c, base } = await signedInVendor();
    const before = await allRows();
    const res = await c.post(`${base}/avamodels/openai-gpt-4o-mini/install`, {
      parameters: { base_url: 'https://proxy.example.com/v1' },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body).toEqual({
      name: 'ValidationError',
      message: 'The model parameters are invalid.',
      code: 52,
      errors: {
        parameters: {
          type: 'object',
          properties: {
            api_key: expect.objectContaining({ 'x-secret': true, 'x-error': 'This field is required.' }),
            base_url: expect.objectContaining({ default: 'https://proxy.example.com/v1' }),
          },
          required: ['api_key'],
          additionalProperties: false,
          'x-errors': { api_key: 'This field is required.' },
        },
      },
    });
    expect(body.errors.parameters.properties.api_key.default).toBeUndefined();
    expect(body.errors.parameters.properties.base_url['x-error']).toBeUndefined();
    expect(await allRows()).toEqual(before);
  });

  it('reports wrong types, bad URLs and unknown parameters per field, carrying values but never secrets', async () => {
    const { c, base } = await signedInVendor();
    const before = await allRows();
    const secret = 'sk-do-not-echo-1234567890';
    const res = await c.post(`${base}/avamodels/openai-compatible-chat/install`, {
      parameters: {
        base_url: 'ftp://files.example.com',
        model: 5,
        api_key: secret,
        cost_per_1k: 'cheap',
        extra: true,
      },
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain(secret);
    const p = res.json().errors.parameters;
    expect(res.json().code).toBe(52);
    expect(p['x-errors']).toEqual({
      base_url: 'Must be a valid http:// or https:// URL.',
      model: 'Must be a string.',
      cost_per_1k: 'Must be a whole number.',
      extra: 'Unknown parameter.',
    });
    expect(p.properties.base_url).toMatchObject({
      default: 'ftp://files.example.com',
      'x-error': p['x-errors'].base_url,
    });
    expect(p.properties.model).toMatchObject({ default: 5, 'x-error': 'Must be a string.' });
    expect(p.properties.cost_per_1k).toMatchObject({
      default: 'cheap',
      'x-error': 'Must be a whole number.',
    });
    expect(p.properties.api_key.default).toBeUndefined();
    expect(p.properties.api_key['x-error']).toBeUndefined();
    expect(p.properties.extra).toBeUndefined();
    expect(await allRows()).toEqual(before);
  });

  it('treats empty optional fields as not given but an empty required field as an error', async () => {
    const { c, base } = await signedInVendor();
    const res = await c.post(`${base}/avamodels/openai-compatible-chat/install`, {
      parameters: { base_url: 'http://localhost:11434/v1', model: '', api_key: '', cost_per_1k: null },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors.parameters['x-errors']).toEqual({ model: 'Must not be empty.' });
  });

  it('answers 404 for an unknown or malformed model id, 400 for a body that is not an object', async () => {
    const { c, base } = await signedInVendor();
    const before = await allRows();
    for (const id of ['no-such-model', 'UPPER', '%20']) {
      const res = await c.post(`${base}/avamodels/${id}/install`, { parameters: {} });
      expect(res.statusCode, id).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'Model not found' });
    }
    const res = await c.post(`${base}/avamodels/builtin-offline-demo/install`, { parameters: ['x'] });
    expect(res.statusCode).toBe(400);
    expect(res.json().name).toBe('ValidationError');
    expect(await allRows()).toEqual(before);
  });

  it('installs the built-in demo model without configuration', async () => {
    const { c, base, vendor } = await signedInVendor();
    const res = await c.post(`${base}/avamodels/builtin-offline-demo/install`);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toEqual({
      id: expect.any(Number),
      name: 'Offline demo (not AI)',
      image: 'icon:robot-off',
      type: 'chat_completion',
      provider: 'builtin',
      model_key: 'builtin-offline-demo',
      cost_per_1k: 0,
      cost_per_1k_formatted: 'CHF 0.00',
      prepaid: false,
      available_tokens: null,
      available_tokens_formatted: 'Unlimited',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      description: expect.stringContaining('NOT AI'),
      parameters: {},
      secret_hints: {},
    });
    const [row] = await server.ctx.db
      .select()
      .from(schema.vendorModels)
      .where(eq(schema.vendorModels.id, data.id));
    expect(row).toMatchObject({
      vendorId: vendor.id,
      modelKey: 'builtin-offline-demo',
      secretEnc: null,
      parameters: {},
    });
  });

  it('installs an OpenAI-compatible server: key encrypted at rest, never returned, and the stored model works', async () => {
    const { c, base, vendor } = await signedInVendor();
    const key = 'sk-local-secret-key-wxyz';
    const res = await c.post(`${base}/avamodels/openai-compatible-chat/install`, {
      parameters: { base_url: fake.baseUrl, model: 'llama3.1:8b', api_key: key, cost_per_1k: 15 },
    });
    expect(res.statusCode).toBe(201);
    expect(res.body).not.toContain(key);
    const data = res.json().data;
    expect(data).toMatchObject({
      name: 'llama3.1:8b (OpenAI-compatible server)',
      image: 'icon:server',
      provider: 'openai-compatible',
      cost_per_1k: 15,
      cost_per_1k_formatted: 'CHF 0.15',
      parameters: { base_url: fake.baseUrl, model: 'llama3.1:8b', cost_per_1k: 15 },
      secret_hints: { api_key: '…wxyz' },
    });

    const [row] = await server.ctx.db
      .select()
      .from(schema.vendorModels)
      .where(eq(schema.vendorModels.id, data.id));
    expect(row!.vendorId).toBe(vendor.id);
    expect(row!.parameters).toEqual({ base_url: fake.baseUrl, model: 'llama3.1:8b', cost_per_1k: 15 });
    expect(row!.costPer1kMinor).toBe(15);
    expect(row!.secretEnc).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toContain(key);
    expect(JSON.stringify(row)).not.toContain('wxyz');
    expect(JSON.parse(server.ctx.secretBox.open(row!.secretEnc!))).toEqual({ api_key: key });

    for (const url of [`${base}/models/${data.id}`, `${base}/models`, `${base}/models/search`]) {
      const r = await c.get(url);
      expect(r.statusCode, url).toBe(200);
      expect(r.body, url).not.toContain(key);
    }

    // The stored row drives a real streamed call against the local server, with the decrypted key.
    fake.chat({ kind: 'reply', text: ['Hi ', 'there'], usage: { prompt: 3, completion: 2 } });
    const events = [];
    for await (const e of chatModelFor(server.ctx, row!).stream({
      messages: [{ role: 'user', content: 'Hi' }],
    })) {
      events.push(e);
    }
    expect(events).toEqual([
      { type: 'text', text: 'Hi ' },
      { type: 'text', text: 'there' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 3, completionTokens: 2 } },
    ]);
    expect(fake.requests.at(-1)!.headers.authorization).toBe(`Bearer ${key}`);
    fake.expectNoFailures();
  });

  it('installs OpenAI with the catalogue cost', async () => {
    const { c, base } = await signedInVendor();
    const res = await c.post(`${base}/avamodels/openai-gpt-4o/install`, {
      parameters: { api_key: 'sk-proj-abcdefghijklmnop1234', base_url: 'https://api.openai.com/v1' },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({
      name: 'GPT-4o',
      cost_per_1k: 2,
      cost_per_1k_formatted: 'CHF 0.02',
      parameters: { base_url: 'https://api.openai.com/v1' },
      secret_hints: { api_key: '…1234' },
    });
  });
});

describe('installed models', () => {
  it('lists in insertion order by default, sorts by name and type, pages and counts', async () => {
    const { c, base } = await signedInVendor();
    const a = await install(c, base, 'openai-gpt-4o-mini', { api_key: 'sk-aaaaaaaaaaaaaaaa' }); // GPT-4o mini
    const b = await install(c, base, 'builtin-lexical-embedding'); // Lexical embeddings (offline)
    const d = await install(c, base, 'builtin-offline-demo'); // Offline demo (not AI)
    const e = await install(c, base, 'anthropic-claude-haiku-4-5', { api_key: 'sk-ant-bbbbbbbbbbbb' }); // Claude Haiku 4.5
    const ids = async (q: string) => {
      const res = await c.get(`${base}/models${q}`);
      expect(res.statusCode, q).toBe(200);
      const body = res.json();
      return [body.data.map((m: { id: number }) => m.id), body.total_count, body.filter_count];
    };
    expect(await ids('')).toEqual([[a.id, b.id, d.id, e.id], 4, 4]);
    expect(await ids('?order=name')).toEqual([[e.id, a.id, b.id, d.id], 4, 4]);
    expect(await ids('?order=name&order_dir=desc')).toEqual([[d.id, b.id, a.id, e.id], 4, 4]);
    expect(await ids('?order=type')).toEqual([[e.id, a.id, d.id, b.id], 4, 4]);
    expect(await ids('?order=type&order_dir=desc')).toEqual([[b.id, e.id, a.id, d.id], 4, 4]);
    expect(await ids('?page=1&page_size=3')).toEqual([[e.id], 4, 4]);
    expect(await ids('?page=0&page_size=2&order=name&count=1')).toEqual([[e.id, a.id], 4, 4]);
    expect(await ids('?type=embedding')).toEqual([[b.id], 4, 1]);
    expect(await ids('?search=claude')).toEqual([[e.id], 4, 1]);
    expect(await ids('?search=builtin&type=chat_completion')).toEqual([[d.id], 4, 1]);
    expect(await ids('?search=%25')).toEqual([[], 4, 0]);
    for (const q of ['?order=created_at', '?page_size=101', '?page=-1', '?order_dir=up', '?type=x']) {
      expect((await c.get(`${base}/models${q}`)).statusCode, q).toBe(400);
    }
    const list = (await c.get(`${base}/models`)).json().data;
    expect(list[0]).toEqual({
      id: a.id,
      name: 'GPT-4o mini',
      image: 'icon:brand-openai',
      type: 'chat_completion',
      provider: 'openai',
      model_key: 'openai-gpt-4o-mini',
      cost_per_1k: 1,
      cost_per_1k_formatted: 'CHF 0.01',
      prepaid: false,
      available_tokens: null,
      available_tokens_formatted: 'Unlimited',
      created_at: expect.any(String),
    });
  });

  it('shows prepaid token balances', async () => {
    const { c, base } = await signedInVendor();
    const m = await install(c, base, 'builtin-offline-demo');
    await server.ctx.db
      .update(schema.vendorModels)
      .set({ prepaid: true, availableTokens: 1_250_000 })
      .where(eq(schema.vendorModels.id, m.id));
    expect((await c.get(`${base}/models/${m.id}`)).json().data).toMatchObject({
      prepaid: true,
      available_tokens: 1_250_000,
      available_tokens_formatted: '1,250,000',
    });
  });

  it('gets and deletes one model', async () => {
    const { c, base } = await signedInVendor();
    const keep = await install(c, base, 'builtin-offline-demo');
    const gone = await install(c, base, 'builtin-lexical-embedding');
    const res = await c.get(`${base}/models/${gone.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      id: gone.id,
      name: 'Lexical embeddings (offline)',
      type: 'embedding',
    });
    const del = await c.delete(`${base}/models/${gone.id}`);
    expect(del.statusCode).toBe(204);
    expect(del.body).toBe('');
    expect((await c.get(`${base}/models/${gone.id}`)).statusCode).toBe(404);
    expect((await c.delete(`${base}/models/${gone.id}`)).statusCode).toBe(404);
    const list = (await c.get(`${base}/models`)).json();
    expect([list.data.map((m: { id: number }) => m.id), list.total_count]).toEqual([[keep.id], 1]);
  });

  it('picker: searches by name and type, at most 20, ordered by name', async () => {
    const { c, base } = await signedInVendor();
    const emb = await install(c, base, 'builtin-lexical-embedding');
    const created = [];
    for (let i = 0; i < 21; i++) {
      created.push(
        await install(c, base, 'openai-compatible-chat', {
          base_url: 'http://localhost:11434/v1',
          model: `m${String(i).padStart(2, '0')}`,
        }),
      );
    }
    const res = await c.get(`${base}/models/search?type=chat_completion`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.length).toBe(20);
    expect(data[0]).toEqual({
      id: created[0]!.id,
      name: 'm00 (OpenAI-compatible server)',
      image: 'icon:server',
      cost_per_1k_formatted: 'CHF 0.00',
    });
    expect(data.map((m: { id: number }) => m.id)).toEqual(created.slice(0, 20).map((m) => m.id));
    expect(
      (await c.get(`${base}/models/search?search=M07`)).json().data.map((m: { id: number }) => m.id),
    ).toEqual([created[7]!.id]);
    expect(
      (await c.get(`${base}/models/search?type=embedding`)).json().data.map((m: { id: number }) => m.id),
    ).toEqual([emb.id]);
    expect((await c.get(`${base}/models/search?type=bogus`)).statusCode).toBe(400);
  });

  it("isolates vendors: another vendor's model answers 404 and is not deleted", async () => {
    const mine = await signedInVendor();
    const theirs = await signedInVendor();
    const theirModel = await install(theirs.c, theirs.base, 'builtin-offline-demo');
    const before = await allRows();
    expect((await mine.c.get(`${mine.base}/models/${theirModel.id}`)).statusCode).toBe(404);
    const del = await mine.c.delete(`${mine.base}/models/${theirModel.id}`);
    expect(del.statusCode).toBe(404);
    expect(del.json()).toEqual({ name: 'NotFound', message: 'Model not found' });
    expect((await mine.c.get(`${mine.base}/models`)).json()).toEqual({
      data: [],
      total_count: 0,
      filter_count: 0,
    });
    expect((await mine.c.get(`${mine.base}/models/search`)).json()).toEqual({ data: [] });
    // Their vendor path is not mine: 404 Vendor, nothing installed or deleted.
    for (const res of [
      await mine.c.get(`${theirs.base}/models`),
      await mine.c.get(`${theirs.base}/models/${theirModel.id}`),
      await mine.c.delete(`${theirs.base}/models/${theirModel.id}`),
      await mine.c.get(`${theirs.base}/avamodels/available`),
      await mine.c.post(`${theirs.base}/avamodels/builtin-offline-demo/install`, { parameters: {} }),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'Vendor not found' });
    }
    expect(await allRows()).toEqual(before);
    expect((await theirs.c.get(`${theirs.base}/models/${theirModel.id}`)).statusCode).toBe(200);
  });

  it('answers 404 for non-numeric ids and 401 without a signed-in user', async () => {
    const { c, base, vendor } = await signedInVendor();
    await install(c, base, 'builtin-offline-demo');
    const before = await allRows();
    for (const id of ['abc', '1.5', '-1', '0', '99999999999']) {
      expect((await c.get(`${base}/models/${id}`)).statusCode, id).toBe(404);
      expect((await c.delete(`${base}/models/${id}`)).statusCode, id).toBe(404);
    }
    expect((await c.get(`/v1/vendors/abc/models`)).statusCode).toBe(404);
    expect(await allRows()).toEqual(before);
    const anon = await Client.create(server.app);
    expect((await anon.get(`/v1/vendors/${vendor.id}/models`)).statusCode).toBe(401);
    expect(
      (await anon.post(`/v1/vendors/${vendor.id}/avamodels/builtin-offline-demo/install`)).statusCode,
    ).toBe(401);
  });
});
