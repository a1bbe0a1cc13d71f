/**
 * Traces as an operator's collector receives them (docs/adr/0040-traces.md): without the OTEL_* variables
 * no SDK module is loaded; with them one reply is a tree — the HTTP request (continuing the caller's
 * `traceparent`), the reply, the provider call with its GenAI attributes — holding no prompt or
 * answer text unless the operator asks for it, and a failed reply marks its span.
 */
import { createRequire } from 'node:module';
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSiliconPools } from '../modules/functions/sandbox';
import { startTracing, type Tracing, tracesWanted, tracingOn } from '../platform/tracing';
import { type FakeOpenAI, startFakeOpenAI } from './fakes';
import { Client, createTestServer, makeUser, signedInVendor, type TestServer } from './harness';

const PROVIDER_KEY = 'sk-provider-key-for-traces';
const PROMPT = 'Which colour is the sky over Lisbon at noon?';
const ANSWER = ['Blue', ' as a cornflower'];
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';
/** The provider call's span, as the GenAI semantic conventions name it. */
const MODEL_CALL = 'chat provider-model';

/** The OpenTelemetry SDK's and exporters' files among the modules this process loaded. */
const sdkModulesLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).filter((path) =>
    /[\\/]@opentelemetry[\\/](sdk-|exporter-|context-|resources|otlp-)/.test(path),
  );

describe('tracing off', () => {
  it('reads the standard variables: on with an OTLP endpoint, off when disabled or unset', () => {
    expect(tracesWanted({})).toBe(false);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
    expect(tracesWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracesWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
    expect(
      tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }),
    ).toBe(false);
    expect(
      tracesWanted({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBe(false);
    expect(() => tracesWanted({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });

  it('loads no SDK module without the OTEL_* variables, while a server answers', async () => {
    expect(await startTracing({ env: {} })).toBeNull();
    const server = await createTestServer();
    try {
      const { vendor, client: owner } = await signedInVendor(server);
      expect((await owner.get(`/v1/vendors/${vendor.id}/apps`)).statusCode).toBe(200);
    } finally {
      await server.close();
    }
    expect(tracingOn()).toBe(false);
    expect(sdkModulesLoaded()).toEqual([]);
  });
});

describe('tracing on (an in-memory exporter)', () => {
  let Exporter: typeof InMemorySpanExporter;
  let exporter: InMemorySpanExporter;
  let tracing: Tracing;
  let server: TestServer;
  let fake: FakeOpenAI;
  let clientToken: string;
  let owner: Client;
  let base: string;
  let chatbot: { id: number; name: string; modelId: number };

  beforeAll(async () => {
    // Imported here: the test above proves these are not loaded by the server.
    Exporter = (await import('@opentelemetry/sdk-trace-base')).InMemorySpanExporter;
    exporter = new Exporter();
    tracing = (await startTracing({ env: {}, exporter }))!;
    fake = await startFakeOpenAI({ apiKey: PROVIDER_KEY });
    // The worker role: this process also runs the queue's jobs.
    server = await createTestServer({ env: { ROLES: 'api,relay,worker' } });
    const { vendor, client } = await signedInVendor(server);
    owner = client;
    base = `/v1/vendors/${vendor.id}`;
    const model = await owner.post(`${base}/avamodels/openai-compatible-chat/install`, {
      parameters: { base_url: fake.baseUrl, model: 'provider-model', api_key: PROVIDER_KEY, cost_per_1k: 0 },
    });
    expect(model.statusCode, model.body).toBe(201);
    const app = (await owner.post(`${base}/apps`, { app_key: 'chatbot' })).json().data;
    const put = await owner.put(`${base}/apps/${app.id}`, {
      name: app.name,
      completion_vendor_model_id: model.json().data.id,
    });
    expect(put.statusCode, put.body).toBe(200);
    chatbot = { id: app.id, name: app.name, modelId: model.json().data.id };
    clientToken = (await owner.post(`${base}/apps/${app.id}/clients`, { name: 'SDK' })).json().data
      .full_token;
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
    await tracing?.close();
    await closeSiliconPools();
  });

  /** One message through the OpenAI-compatible endpoint, as part of the caller's trace; its spans. */
  const ask = async () => {
    exporter.reset();
    const answer = await server.app.inject({
      method: 'POST',
      url: '/v1/openai/chat/completions',
      headers: {
        authorization: `Bearer ${clientToken}`,
        traceparent: `00-${TRACE_ID}-${CALLER_SPAN_ID}-01`,
      },
      payload: { model: 'any', messages: [{ role: 'user', content: PROMPT }] },
    });
    fake.expectNoFailures();
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const named = (name: string) => {
      const found = spans.filter((s) => s.name === name);
      expect(
        found.map((s) => s.name),
        `${name} in ${spans.map((s) => s.name)}`,
      ).toEqual([name]);
      return found[0]!;
    };
    return { answer, spans, named };
  };
  const childOf = (child: ReadableSpan, parent: ReadableSpan) => {
    expect(child.spanContext().traceId).toBe(parent.spanContext().traceId);
    expect(child.parentSpanContext?.spanId, `${child.name} under ${parent.name}`).toBe(
      parent.spanContext().spanId,
    );
  };
  /** Everything a span carries that a collector stores: its attributes, events and status. */
  const recorded = (spans: ReadableSpan[]) =>
    JSON.stringify(spans.map((s) => [s.name, s.attributes, s.events, s.status]));

  it("makes one reply a tree: the caller's trace → HTTP request → reply → provider call, with token usage", async () => {
    fake.chat({ kind: 'reply', text: ANSWER, usage: { prompt: 11, completion: 7 } });
    const { answer, spans, named } = await ask();
    expect(answer.statusCode, answer.body).toBe(200);
    // The check of the test above sees the SDK once it is loaded.
    expect(sdkModulesLoaded()).toEqual(
      expect.arrayContaining([expect.stringMatching(/@opentelemetry[\\/]sdk-trace-base/)]),
    );

    const http = named('POST /v1/openai/chat/completions');
    expect(http.spanContext().traceId).toBe(TRACE_ID);
    expect(http.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(http.attributes).toMatchObject({
      'http.request.method': 'POST',
      'http.route': '/v1/openai/chat/completions',
      'http.response.status_code': 200,
    });

    const reply = named('reply');
    childOf(reply, http);
    expect(reply.attributes).toMatchObject({
      'llmor.reply.outcome': 'ok',
      'llmor.conversation.channel': 'api',
    });
    expect(reply.status.code).toBe(SpanStatusCode.UNSET);

    const call = named(MODEL_CALL);
    childOf(call, reply);
    expect(call.kind).toBe(SpanKind.CLIENT);
    expect(call.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'provider-model',
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(call.attributes['gen_ai.provider.name']).toEqual(expect.any(String));

    // No prompt, no answer, no key or client token anywhere.
    const text = recorded(spans);
    for (const secret of [PROMPT, ANSWER.join(''), ANSWER[1]!, PROVIDER_KEY, clientToken]) {
      expect(text).not.toContain(secret);
    }
  });

  it("marks a failed reply's span with its outcome, and the provider call's", async () => {
    fake.chat({ kind: 'error', status: 429 });
    const { answer, named } = await ask();
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    const reply = named('reply');
    childOf(reply, named('POST /v1/openai/chat/completions'));
    expect(reply.status.code).toBe(SpanStatusCode.ERROR);
    expect(reply.status.message).toMatch(/rate-limiting/);
    expect(reply.attributes['llmor.reply.outcome']).toBe('provider_error');
    expect(named(MODEL_CALL).status.code).toBe(SpanStatusCode.ERROR);
  });

  it("puts a tool call and its Lua run under the reply, with the run's status and no arguments", async () => {
    const fn = await owner.post(`${base}/functions`, {
      name: 'Adder',
      function_key: 'adder',
      code: 'function run(args) return { echoed = args.note } end',
    });
    expect(fn.statusCode, fn.body).toBe(201);
    const put = await owner.put(`${base}/apps/${chatbot.id}`, {
      name: chatbot.name,
      completion_vendor_model_id: chatbot.modelId,
      functions: [{ id: fn.json().data.id }],
    });
    expect(put.statusCode, put.body).toBe(200);
    fake.chat({
      kind: 'reply',
      toolCalls: [{ id: 'call_7', name: 'adder', arguments: { note: 'sentinel-nine-lives' } }],
    });
    fake.chat({ kind: 'reply', text: ANSWER, usage: { prompt: 20, completion: 3 } });
    const { answer, spans, named } = await ask();
    expect(answer.statusCode, answer.body).toBe(200);
    const reply = named('reply');
    const tool = named('execute_tool adder');
    childOf(tool, reply);
    expect(tool.attributes).toMatchObject({ 'gen_ai.tool.name': 'adder', 'gen_ai.tool.call.id': 'call_7' });
    const run = named('function.run');
    childOf(run, tool);
    expect(run.attributes['llmor.function.status']).toBe(1);
    expect(run.status.code).toBe(SpanStatusCode.UNSET);
    // Two model turns, both under the reply.
    const turns = spans.filter((s) => s.name === MODEL_CALL);
    expect(turns).toHaveLength(2);
    for (const turn of turns) childOf(turn, reply);
    expect(recorded(spans)).not.toContain('sentinel-nine-lives');
  });

  it('installs no context manager: the trace context travels as an argument (ADR 0045)', () => {
    const caller = trace.wrapSpanContext({ traceId: TRACE_ID, spanId: CALLER_SPAN_ID, traceFlags: 1 });
    const marked = trace.setSpan(ROOT_CONTEXT, caller);
    expect(context.with(marked, () => context.active())).toBe(ROOT_CONTEXT);
  });

  it('traces a datastore search under its request, without the query', async () => {
    const created = await owner.post(`${base}/apps/${chatbot.id}/datastores`, { name: 'handbook' });
    expect(created.statusCode, created.body).toBe(201);
    const ds = created.json().data;
    exporter.reset();
    const query = 'where is the glacier museum';
    const found = await owner.post(`/v1/datastores/${ds.id}/search`, { query, k: 3 });
    expect(found.statusCode, found.body).toBe(200);
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const search = spans.find((s) => s.name === 'datastore.search');
    const http = spans.find((s) => s.name === 'POST /v1/datastores/:datastoreId/search');
    expect(search?.attributes).toMatchObject({ 'llmor.datastore.id': ds.id, 'llmor.search.k': 3 });
    childOf(search!, http!);
    expect(recorded(spans)).not.toContain(query);
  });

  it("puts a search's query embedding under its request, without the query", async () => {
    const model = await owner.post(`${base}/avamodels/openai-compatible-embedding/install`, {
      parameters: { base_url: fake.baseUrl, model: 'embed-model', api_key: PROVIDER_KEY, dimensions: 8 },
    });
    expect(model.statusCode, model.body).toBe(201);
    const created = await owner.post(`${base}/apps/${chatbot.id}/datastores`, {
      name: 'embedded',
      embedding_vendor_model_id: model.json().data.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    exporter.reset();
    const query = 'which glacier is the longest';
    const found = await owner.post(`/v1/datastores/${created.json().data.id}/search`, { query, k: 3 });
    expect(found.statusCode, found.body).toBe(200);
    fake.expectNoFailures();
    await tracing.flush();
    const spans = exporter.getFinishedSpans();
    const embedding = spans.find((s) => s.name === 'embeddings embed-model');
    expect(embedding?.kind).toBe(SpanKind.CLIENT);
    expect(embedding?.attributes['gen_ai.operation.name']).toBe('embeddings');
    childOf(embedding!, spans.find((s) => s.name === 'POST /v1/datastores/:datastoreId/search')!);
    expect(recorded(spans)).not.toContain(query);
  });

  it('gives each background job a trace of its own', async () => {
    const su = await makeUser(server.ctx, { isSu: true });
    const superuser = await Client.signedIn(server.app, su.email, su.password);
    exporter.reset();
    expect((await superuser.post('/v1/admin/queue/ping', {})).statusCode).toBe(202);
    const job = async () => {
      await tracing.flush();
      return exporter.getFinishedSpans().find((s) => s.name === 'job ping');
    };
    await expect.poll(job, { timeout: 20_000 }).toBeDefined();
    const span = (await job())!;
    expect(span.parentSpanContext).toBeUndefined();
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.attributes['llmor.job.name']).toBe('ping');
  });

  it('records the prompt and the answer only when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT is true', async () => {
    await tracing.close();
    exporter = new Exporter();
    tracing = (await startTracing({
      env: { OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' },
      exporter,
    }))!;
    fake.chat({ kind: 'reply', text: ANSWER, usage: { prompt: 11, completion: 7 } });
    const { answer, spans } = await ask();
    expect(answer.statusCode, answer.body).toBe(200);
    const text = recorded(spans);
    expect(text).toContain(PROMPT);
    expect(text).toContain(ANSWER.join(''));
  });
});
