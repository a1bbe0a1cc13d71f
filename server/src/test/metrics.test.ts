/**
 * `GET /metrics` as an operator's Prometheus meets it (docs/adr/0035-metrics.md): off without
 * METRICS_TOKEN, refused without its bearer, and in the text format; a reply through the fake provider
 * moves the reply, provider and HTTP series under their labels, and no vendor, token or raw path shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConversation } from '../modules/completion/testing';
import { closeSiliconPools } from '../modules/functions/sandbox';
import type { VendorRow } from '../modules/vendors/repo';
import { type FakeOpenAI, startFakeOpenAI } from './fakes';
import {
  Client,
  createListeningTestServer,
  createTestServer,
  type ListeningTestServer,
  makeApp,
  makeFunction,
  makeUser,
  signedInVendor,
} from './harness';
import { RelayClient } from './relay-client';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';
const PROVIDER_KEY = 'sk-provider-key-for-metrics';

type Samples = Map<string, number>;

/**
 * A strict reading of Prometheus' text format (0.0.4): every line a HELP, a TYPE or a sample of a family
 * whose TYPE came first, with well-formed names, labels and values. Samples keyed `name{a="x",b="y"}`.
 * Values as Prometheus reads them (Go's float parsing: `NaN` in any case, which prom-client writes `Nan`).
 */
function parseExposition(text: string): Samples {
  const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
  const sample = new RegExp(
    `^(${NAME})(\\{(?:${LABEL})(?:,${LABEL})*\\})? (-?(?:\\d+(?:\\.\\d+)?(?:e[+-]?\\d+)?|[Nn]a[Nn]|\\+Inf|-Inf))$`,
  );
  const typed = new Map<string, string>();
  const samples: Samples = new Map();
  expect(text.endsWith('\n')).toBe(true);
  for (const line of text.slice(0, -1).split('\n')) {
    if (line.startsWith('# HELP ')) {
      expect(line).toMatch(new RegExp(`^# HELP ${NAME} .+$`));
      continue;
    }
    const type = line.match(new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`));
    if (type) {
      expect(typed.has(type[1]!), `${type[1]} typed twice`).toBe(false);
      typed.set(type[1]!, type[2]!);
      continue;
    }
    if (line === '') continue;
    const m = line.match(sample);
    expect(m, `not a sample line: ${line}`).not.toBeNull();
    const [, name, labels = '', value] = m!;
    const family = typed.has(name!) ? name! : name!.replace(/_(bucket|sum|count|total|created)$/, '');
    expect(typed.has(family), `${name} has no TYPE`).toBe(true);
    samples.set(`${name}${labels}`, Number(value));
  }
  return samples;
}

let server: ListeningTestServer;
let fake: FakeOpenAI;
let owner: Client;
let vendor: VendorRow;

const scrape = (authorization?: string) =>
  server.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: authorization === undefined ? {} : { authorization },
  });

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: PROVIDER_KEY });
  // The worker role: this process also works the queue's jobs.
  server = await createListeningTestServer({ env: { METRICS_TOKEN, ROLES: 'api,relay,worker' } });
  ({ vendor, client: owner } = await signedInVendor(server));
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await closeSiliconPools();
});

describe('GET /metrics', () => {
  it('is off (404) without METRICS_TOKEN', async () => {
    const off = await createTestServer();
    try {
      const res = await off.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().name).toBe('NotFound');
    } finally {
      await off.close();
    }
  });

  it('answers 401 to a missing, wrong or differently written bearer', async () => {
    for (const authorization of [
      undefined,
      '',
      'Bearer wrong-token',
      `Bearer ${METRICS_TOKEN}x`,
      `Bearer ${METRICS_TOKEN.slice(0, -1)}`,
      `bearer  ${METRICS_TOKEN}`,
      `Basic ${Buffer.from(`:${METRICS_TOKEN}`).toString('base64')}`,
      METRICS_TOKEN,
    ]) {
      const res = await scrape(authorization);
      expect(res.statusCode, String(authorization)).toBe(401);
      expect(res.json().name).toBe('Unauthorized');
      expect(res.body).not.toContain(METRICS_TOKEN);
    }
  });

  it('serves the text format with the process metrics', async () => {
    const res = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const samples = parseExposition(res.body);
    expect(samples.get('process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(samples.has('llmor_replies_running')).toBe(true);
    expect(samples.has('llmor_relay_sockets')).toBe(true);
  });

  /** An app answering with the fake provider's model, and its API client's token (made once). */
  let apiToken: Promise<string> | undefined;
  const providerApp = () => {
    apiToken ??= (async () => {
      const base = `/v1/vendors/${vendor.id}`;
      const model = await owner.post(`${base}/avamodels/openai-compatible-chat/install`, {
        parameters: {
          base_url: fake.baseUrl,
          model: 'provider-model',
          api_key: PROVIDER_KEY,
          cost_per_1k: 0,
        },
      });
      expect(model.statusCode, model.body).toBe(201);
      const app = (await owner.post(`${base}/apps`, { app_key: 'chatbot' })).json().data;
      const put = await owner.put(`${base}/apps/${app.id}`, {
        name: app.name,
        completion_vendor_model_id: model.json().data.id,
      });
      expect(put.statusCode, put.body).toBe(200);
      const client = await owner.post(`${base}/apps/${app.id}/clients`, { name: 'SDK' });
      return client.json().data.full_token as string;
    })();
    return apiToken;
  };
  /** One message through the OpenAI-compatible endpoint (a conversation of channel `api`). */
  const ask = async (clientToken: string) =>
    server.app.inject({
      method: 'POST',
      url: '/v1/openai/chat/completions',
      headers: { authorization: `Bearer ${clientToken}` },
      payload: { model: 'any', messages: [{ role: 'user', content: 'Hi' }] },
    });

  it('counts a reply through the provider by channel, provider and route, naming no vendor or token', async () => {
    const clientToken = await providerApp();
    const before = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
    fake.chat({ kind: 'reply', text: ['Hello', ' there'], usage: { prompt: 11, completion: 7 } });
    const answer = await ask(clientToken);
    expect(answer.statusCode, answer.body).toBe(200);
    fake.expectNoFailures();

    const res = await scrape(`Bearer ${METRICS_TOKEN}`);
    const after = parseExposition(res.body);
    const moved = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(moved('llmor_replies_total{channel="api",outcome="ok"}')).toBe(1);
    expect(moved('llmor_reply_duration_seconds_count{channel="api",outcome="ok"}')).toBe(1);
    expect(moved('llmor_reply_first_token_seconds_count{channel="api"}')).toBe(1);
    expect(moved('llmor_provider_calls_total{provider="openai-compatible",outcome="ok"}')).toBe(1);
    expect(moved('llmor_provider_call_duration_seconds_count{provider="openai-compatible"}')).toBe(1);
    expect(moved('llmor_provider_tokens_total{provider="openai-compatible",kind="prompt"}')).toBe(11);
    expect(moved('llmor_provider_tokens_total{provider="openai-compatible",kind="completion"}')).toBe(7);
    expect(
      moved('llmor_http_requests_total{method="POST",route="/v1/openai/chat/completions",status="200"}'),
    ).toBe(1);
    expect(
      moved('llmor_http_request_duration_seconds_count{method="POST",route="/v1/openai/chat/completions"}'),
    ).toBe(1);
    // The console's calls above by their pattern, never the URL with the vendor's id.
    expect(
      after.get('llmor_http_requests_total{method="POST",route="/v1/vendors/:vendorId/apps",status="201"}'),
    ).toBeGreaterThanOrEqual(1);

    for (const secret of [METRICS_TOKEN, PROVIDER_KEY, clientToken, vendor.key, owner.token, fake.baseUrl]) {
      expect(res.body).not.toContain(secret);
    }
    expect(res.body).not.toMatch(new RegExp(`/v1/vendors/${vendor.id}\\b`));
    expect(res.body).not.toMatch(/[{,](vendor|app|conversation|client|user|token)\w*="/i);
  });

  it("counts a provider's refusal under the reply's and the call's outcome", async () => {
    const clientToken = await providerApp();
    const before = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
    fake.chat({ kind: 'error', status: 429 });
    const answer = await ask(clientToken);
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    fake.expectNoFailures();
    const after = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
    const moved = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
    expect(moved('llmor_replies_total{channel="api",outcome="provider_error"}')).toBe(1);
    expect(moved('llmor_replies_total{channel="api",outcome="ok"}')).toBe(0);
    expect(moved('llmor_provider_calls_total{provider="openai-compatible",outcome="rate_limit"}')).toBe(1);
    expect(moved('llmor_reply_first_token_seconds_count{channel="api"}')).toBe(0);
  });

  it('counts the jobs a worker ran by name and outcome, and shows the queue and the database pool', async () => {
    const su = await makeUser(server.ctx, { isSu: true });
    const superuser = await Client.signedIn(server.app, su.email, su.password);
    const samples = async () => parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
    const pings = 'llmor_jobs_total{job="ping",outcome="success"}';
    const before = (await samples()).get(pings) ?? 0;
    expect((await superuser.post('/v1/admin/queue/ping', {})).statusCode).toBe(202);
    await expect.poll(async () => (await samples()).get(pings), { timeout: 20_000 }).toBe(before + 1);
    const after = await samples();
    expect(after.get('llmor_job_duration_seconds_count{job="ping"}')).toBeGreaterThanOrEqual(1);
    const text = (await scrape(`Bearer ${METRICS_TOKEN}`)).body;
    expect(text).toContain('# TYPE llmor_queue_jobs gauge');
    // Server mode only: the embedded database has no pool.
    const pooled = server.ctx.database.kind === 'postgres';
    expect(after.has('llmor_db_pool_connections{state="busy"}')).toBe(pooled);
  });

  it("times the database's statements by kind, naming no statement", async () => {
    const before = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
    expect((await owner.get(`/v1/vendors/${vendor.id}/apps`)).statusCode).toBe(200);
    const after = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
    const count = (samples: Samples, kind: string) =>
      samples.get(`llmor_db_statement_duration_seconds_count{kind="${kind}",outcome="ok"}`) ?? 0;
    expect(count(after, 'select') - count(before, 'select')).toBeGreaterThanOrEqual(1);
    expect(count(after, 'insert')).toBeGreaterThanOrEqual(1);
    const labels = [...after.keys()]
      .filter((key) => key.startsWith('llmor_db_statement_duration_seconds_count'))
      .map((key) => key.slice(key.indexOf('{')));
    for (const label of labels) {
      expect(label).toMatch(/^\{kind="(select|insert|update|delete|other)",outcome="(ok|error)"\}$/);
    }
  });

  it("shows the Lua pool's workers once a run started it, and its queue", async () => {
    const lua = async () => {
      const samples = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
      const [busy, idle, starting] = ['busy', 'idle', 'starting'].map((state) =>
        samples.get(`llmor_lua_workers{pool="main",state="${state}"}`),
      );
      const queued = samples.get('llmor_lua_queued_runs{pool="main"}');
      return { busy, ready: (idle ?? 0) + (starting ?? 0), queued };
    };
    // Not started yet, and reading the figures starts no worker.
    expect(await lua()).toEqual({ busy: undefined, ready: 0, queued: undefined });
    const fn = await makeFunction(server.ctx, vendor);
    const build = await owner.post(`/v1/vendors/${vendor.id}/functions/${fn.id}/build`, {
      code: 'function run() return 1 end',
    });
    expect(build.statusCode, build.body).toBe(200);
    // The run has finished: the pool's workers (and its spare) wait for the next one, nothing is queued.
    const after = await lua();
    expect(after).toMatchObject({ busy: 0, queued: 0 });
    expect(after.ready).toBeGreaterThanOrEqual(2);
  });

  it("shows this instance's relay sockets and the conversation rooms they joined", async () => {
    const conversation = await makeConversation(server.ctx, await makeApp(server.ctx, vendor));
    const relay = async () => {
      const samples = parseExposition((await scrape(`Bearer ${METRICS_TOKEN}`)).body);
      return [samples.get('llmor_relay_sockets'), samples.get('llmor_relay_rooms')];
    };
    expect(await relay()).toEqual([0, 0]);
    const sockets = [
      await RelayClient.connect(server.url, owner.relayAuth()),
      await RelayClient.connect(server.url, owner.relayAuth()),
    ];
    try {
      expect(await relay()).toEqual([2, 0]);
      for (const socket of sockets)
        expect(await socket.ask('join', conversation.token)).toEqual({ ok: true });
      expect(await relay()).toEqual([2, 1]);
    } finally {
      for (const socket of sockets) socket.socket.disconnect();
    }
    await expect.poll(relay).toEqual([0, 0]);
  });
});
