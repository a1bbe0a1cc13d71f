/**
 * The OpenAI-compatible endpoint driven by the official `openai` npm client against a listening server:
 * the offline demo model, and the fake OpenAI provider (tool calls, usage) behind the app.
 */

import { createOpenAI } from '@ai-sdk/openai';
import { MESSAGE_MAX_CHARS } from '@llmor/contracts';
import { generateText, streamText } from 'ai';
import { eq } from 'drizzle-orm';
import OpenAI, { type APIError } from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { type FakeOpenAI, startFakeOpenAI } from '../../test/fakes';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeUser,
  signedInVendor,
  uniq,
} from '../../test/harness';
import { closeSiliconPools } from '../functions/sandbox';
import type { VendorRow } from '../vendors/repo';

let server: ListeningTestServer;
let fake: FakeOpenAI;
let owner: Client;
let vendor: VendorRow;
let api: (path: string) => string;
let fakeModelId: number;

/** A listening server with a vendor, its owner signed in, and the demo and fake-provider models installed. */
async function vendorServer(env?: Record<string, string>) {
  const server = await createListeningTestServer({ env });
  const { vendor, client: owner } = await signedInVendor(server, 'member');
  const api = (path: string) => `/v1/vendors/${vendor.id}${path}`;
  const demoModelId: number = (
    await owner.post(api('/avamodels/builtin-offline-demo/install'), { parameters: {} })
  ).json().data.id;
  const fakeModelId: number = (
    await owner.post(api('/avamodels/openai-compatible-chat/install'), {
      parameters: {
        base_url: fake.baseUrl,
        model: 'provider-model',
        api_key: 'sk-provider-key',
        cost_per_1k: 0,
      },
    })
  ).json().data.id;
  return { server, vendor, owner, api, demoModelId, fakeModelId };
}
type VendorServer = Awaited<ReturnType<typeof vendorServer>>;
let suite: VendorServer;

beforeAll(async () => {
  fake = await startFakeOpenAI({ apiKey: 'sk-provider-key' });
  suite = await vendorServer();
  ({ server, vendor, owner, api, fakeModelId } = suite);
});
afterAll(async () => {
  await server?.close();
  await fake?.close();
  await closeSiliconPools();
});
beforeEach(() => {
  fake.expectNoFailures();
});

/** An app of `appKey` answering with `modelId`, extra parameters and functions, and an API client of it. */
async function appWithClient(
  opts: {
    appKey?: string;
    modelId?: number;
    parameters?: Record<string, unknown>;
    functions?: { id: number }[];
    client?: Record<string, unknown>;
    /** Another server than the suite's. */
    on?: VendorServer;
  } = {},
) {
  const { server, owner, api, demoModelId } = opts.on ?? suite;
  const created = await owner.post(api('/apps'), { app_key: opts.appKey ?? 'chatbot' });
  expect(created.statusCode, created.body).toBe(201);
  const app = created.json().data;
  const put = await owner.put(api(`/apps/${app.id}`), {
    name: app.name,
    completion_vendor_model_id: opts.modelId ?? demoModelId,
    ...(opts.parameters ? { parameters: { ...app.parameters, ...opts.parameters } } : {}),
    ...(opts.functions ? { functions: opts.functions } : {}),
  });
  expect(put.statusCode, put.body).toBe(200);
  const client = await owner.post(api(`/apps/${app.id}/clients`), { name: 'SDK', ...opts.client });
  expect(client.statusCode, client.body).toBe(201);
  const token: string = client.json().data.full_token;
  const sdk = new OpenAI({ apiKey: token, baseURL: `${server.url}/v1/openai`, maxRetries: 0 });
  return { app: app as { id: number; name: string }, clientId: client.json().data.id as number, token, sdk };
}

/** The messages of the provider's latest chat request, as [role, content]. */
function sentToProvider(): [string, unknown][] {
  const last = fake.requestsTo('POST /v1/chat/completions').at(-1) as {
    body: { messages: { role: string; content: unknown }[] };
  };
  return last.body.messages.map((m) => [m.role, m.content]);
}

async function storedConversation(token: string) {
  const [row] = await server.ctx.db
    .select()
    .from(schema.conversations)
    .where(eq(schema.conversations.token, token));
  const messages = await server.ctx.db
    .select()
    .from(schema.messages)
    .where(eq(schema.messages.conversationId, row!.id))
    .orderBy(schema.messages.id);
  return { row: row!, messages: messages.map((m) => [m.role, m.message]) };
}

describe('POST /v1/openai/chat/completions with the offline demo model', () => {
  it('answers a chat completion, echoes the model, reports usage, stores an api conversation of the client', async () => {
    const { sdk, clientId, app } = await appWithClient();
    const { data, response } = await sdk.chat.completions
      .create({ model: 'my-model', messages: [{ role: 'user', content: 'Hello there' }] })
      .withResponse();
    expect(data.object).toBe('chat.completion');
    expect(data.id).toMatch(/^chatcmpl-/);
    expect(data.model).toBe('my-model');
    expect(data.choices).toHaveLength(1);
    expect(data.choices[0]!.finish_reason).toBe('stop');
    expect(data.choices[0]!.message.role).toBe('assistant');
    expect(data.choices[0]!.message.content).toMatch(/^You said: Hello there\n/);
    expect(data.usage!.prompt_tokens).toBeGreaterThan(0);
    expect(data.usage!.completion_tokens).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBe(data.usage!.prompt_tokens + data.usage!.completion_tokens);

    const token = response.headers.get('x-conversation')!;
    const stored = await storedConversation(token);
    expect(stored.row).toMatchObject({ channel: 'api', clientId, appId: app.id });
    // No greeting: the caller brought the history.
    expect(stored.messages).toEqual([
      ['user', 'Hello there'],
      ['assistant', data.choices[0]!.message.content],
    ]);
    const usage = await server.ctx.db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, stored.row.id));
    expect(usage.map((u) => u.tokensPrompt + u.tokensCompletion)).toEqual([data.usage!.total_tokens]);
  });

  it('streams: a role chunk, text chunks that join to the answer, a stop chunk, the usage chunk, [DONE]', async () => {
    const { sdk } = await appWithClient();
    const whole = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Stream me please' }],
    });
    const stream = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Stream me please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks[0]!.choices[0]!.delta).toEqual({ role: 'assistant', content: '' });
    const texts = chunks.flatMap((c) => (c.choices[0]?.delta.content ? [c.choices[0].delta.content] : []));
    expect(texts.length).toBeGreaterThan(3);
    expect(texts.join('')).toBe(whole.choices[0]!.message.content);
    const stop = chunks.at(-2)!;
    expect(stop.choices[0]).toMatchObject({ delta: {}, finish_reason: 'stop' });
    const usage = chunks.at(-1)!;
    expect(usage.choices).toEqual([]);
    expect(usage.usage).toEqual(whole.usage);
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.every((c) => c.model === 'm' && c.object === 'chat.completion.chunk')).toBe(true);
  });

  it('streams without a usage chunk unless asked, as raw SSE lines ending in data: [DONE]', async () => {
    const { token } = await appWithClient();
    const res = await fetch(`${server.url}/v1/openai/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, messages: [{ role: 'user', content: 'Hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(res.headers.get('x-conversation')).toMatch(/^[A-Za-z0-9_-]{32}$/);
    const body = await res.text();
    const events = body.split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    const parsed = events.slice(0, -1).map((e) => JSON.parse(e.slice(6)));
    expect(parsed.some((c) => 'usage' in c)).toBe(false);
    expect(parsed.at(-1).choices[0].finish_reason).toBe('stop');
  });

  it('stores a whole history and answers the last user message', async () => {
    const { sdk } = await appWithClient();
    const { data, response } = await sdk.chat.completions
      .create({
        model: 'm',
        messages: [
          { role: 'user', content: 'First question' },
          { role: 'assistant', content: 'First answer' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'Second ' },
              { type: 'text', text: 'question' },
            ],
          },
        ],
      })
      .withResponse();
    expect(data.choices[0]!.message.content).toMatch(/^You said: Second question/);
    const stored = await storedConversation(response.headers.get('x-conversation')!);
    expect(stored.messages).toEqual([
      ['user', 'First question'],
      ['assistant', 'First answer'],
      ['user', 'Second question'],
      ['assistant', data.choices[0]!.message.content],
    ]);
  });

  it('continues a stored conversation of this client with X-Conversation; another client gets 404', async () => {
    const { sdk, token: key, app } = await appWithClient();
    const first = await sdk.chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'One' }] })
      .withResponse();
    const conversation = first.response.headers.get('x-conversation')!;
    const second = await sdk.chat.completions
      .create(
        { model: 'm', messages: [{ role: 'user', content: 'Two' }] },
        { headers: { 'X-Conversation': conversation } },
      )
      .withResponse();
    expect(second.response.headers.get('x-conversation')).toBe(conversation);
    expect((await storedConversation(conversation)).messages.map((m) => m[1])).toEqual([
      'One',
      first.data.choices[0]!.message.content,
      'Two',
      second.data.choices[0]!.message.content,
    ]);

    const otherClient = await owner.post(api(`/apps/${app.id}/clients`), { name: 'Other' });
    const otherSdk = new OpenAI({
      apiKey: otherClient.json().data.full_token,
      baseURL: `${server.url}/v1/openai`,
      maxRetries: 0,
    });
    const before = (await storedConversation(conversation)).messages.length;
    const refused = await otherSdk.chat.completions
      .create(
        { model: 'm', messages: [{ role: 'user', content: 'Mine now' }] },
        { headers: { 'X-Conversation': conversation } },
      )
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OpenAI.NotFoundError);
    expect((refused as APIError).error).toMatchObject({
      message: 'Conversation not found',
      type: 'invalid_request_error',
      code: 'not_found',
    });
    expect((await storedConversation(conversation)).messages.length).toBe(before);
    expect(key).not.toBe(otherClient.json().data.full_token);
  });

  it('answers oneshot apps', async () => {
    const { sdk } = await appWithClient({ appKey: 'translator' });
    const res = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'Guten Tag' }],
    });
    expect(res.choices[0]!.message.content).toMatch(/Guten Tag/);
  });

  it('answers silicon apps with what their script returns, streamed too', async () => {
    const { sdk } = await appWithClient({
      appKey: 'silicon',
      parameters: { silicon: 'function on_message(ctx) return "Lua says: " .. ctx.message end' },
    });
    const res = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'ping' }],
    });
    expect(res.choices[0]!.message.content).toBe('Lua says: ping');
    const stream = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'pong' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Lua says: pong');
  });

  it("reports the reply's own usage, not what a script writes to the debug channel", async () => {
    const { sdk } = await appWithClient({
      appKey: 'silicon',
      parameters: {
        silicon:
          'function on_message(ctx) debug("tokens_prompt", 900) debug("tokens_completion", 100) return "ok" end',
      },
    });
    const res = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(res.choices[0]!.message.content).toBe('ok');
    expect(res.usage).toEqual({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 });
  });

  it('runs the app tools: the demo model calls a function, the answer carries its result', async () => {
    const fn = await owner.post(api('/functions'), {
      name: 'Weather',
      function_key: uniq('weather_'),
      code: 'function run(args) return { city = args.city, temp = 21 } end',
    });
    expect(fn.statusCode, fn.body).toBe(201);
    const { sdk } = await appWithClient({ functions: [{ id: fn.json().data.id }] });
    const res = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: `/call ${fn.json().data.function_key} {"city": "Bern"}` }],
    });
    expect(res.choices[0]!.message.content).toContain(`Tool ${fn.json().data.function_key} returned:`);
    expect(res.choices[0]!.message.content).toContain('"temp":21');
  });
});

describe('POST /v1/openai/chat/completions with the OpenAI provider behind the app', () => {
  it('streams the provider text through tool rounds and sums the usage of every model request', async () => {
    const fn = await owner.post(api('/functions'), {
      name: 'Lookup',
      function_key: uniq('lookup_'),
      code: 'function run(args) return { found = args.q } end',
    });
    const key = fn.json().data.function_key as string;
    const { sdk } = await appWithClient({
      modelId: fakeModelId,
      parameters: { system_prompt: 'You are the app.' },
      functions: [{ id: fn.json().data.id }],
    });
    fake.chat({
      kind: 'reply',
      toolCalls: [{ id: 'call_1', name: key, arguments: { q: 'llmor' } }],
      usage: { prompt: 11, completion: 3 },
    });
    fake.chat({ kind: 'reply', text: ['Found ', 'it.'], usage: { prompt: 20, completion: 4 } });
    const stream = await sdk.chat.completions.create({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'Look it up' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const chunks: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('Found it.');
    expect(chunks.at(-1)!.usage).toEqual({ prompt_tokens: 31, completion_tokens: 7, total_tokens: 38 });
    expect(chunks[0]!.model).toBe('gpt-4o');

    const [round1, round2] = fake.requestsTo('POST /v1/chat/completions').slice(-2) as {
      body: { messages: { role: string; content: unknown }[]; tools?: { function: { name: string } }[] };
    }[];
    // The app's prompt and tools.
    expect(round1!.body.messages[0]).toMatchObject({ role: 'system', content: 'You are the app.' });
    expect(round1!.body.tools!.map((t) => t.function.name)).toEqual([key]);
    expect(round2!.body.messages.at(-1)).toMatchObject({ role: 'tool', content: '{"found":"llmor"}' });
    fake.expectNoFailures();
  });

  it("reads callers' system and developer messages after the app's prompt, for that reply only, and stores neither", async () => {
    const { sdk } = await appWithClient({
      modelId: fakeModelId,
      parameters: { system_prompt: 'You are the app.' },
    });
    fake.chat({ kind: 'reply', text: ['Bonjour.'] });
    const { response } = await sdk.chat.completions
      .create({
        model: 'm',
        messages: [
          { role: 'system', content: 'Answer in French.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
          { role: 'developer', content: [{ type: 'text', text: 'Be brief.' }] },
          { role: 'user', content: 'Now answer' },
        ],
      })
      .withResponse();
    expect(sentToProvider()).toEqual([
      ['system', 'You are the app.'],
      ['system', 'Answer in French.\n\nBe brief.'],
      ['user', 'Hi'],
      ['assistant', 'Hello'],
      ['user', 'Now answer'],
    ]);
    const conversation = response.headers.get('x-conversation')!;
    expect((await storedConversation(conversation)).messages).toEqual([
      ['user', 'Hi'],
      ['assistant', 'Hello'],
      ['user', 'Now answer'],
      ['assistant', 'Bonjour.'],
    ]);

    // The next call without them: the app's prompt alone.
    fake.chat({ kind: 'reply', text: ['Ok.'] });
    await sdk.chat.completions.create(
      { model: 'm', messages: [{ role: 'user', content: 'Again' }] },
      { headers: { 'X-Conversation': conversation } },
    );
    expect(sentToProvider().filter(([role]) => role === 'system')).toEqual([['system', 'You are the app.']]);
    fake.expectNoFailures();
  });

  it("puts callers' instructions after a oneshot app's template and a silicon script's own system prompt", async () => {
    const oneshot = await appWithClient({
      appKey: 'translator',
      modelId: fakeModelId,
      parameters: { prompt_template: 'Translate: {{input}}' },
    });
    const silicon = await appWithClient({
      appKey: 'silicon',
      modelId: fakeModelId,
      parameters: {
        silicon:
          'function on_message(ctx) return llm.complete{system = "Lua app.", prompt = ctx.message} end',
      },
    });
    const instructed = (text: string) => [
      { role: 'developer' as const, content: 'Keep it short.' },
      { role: 'user' as const, content: text },
    ];
    fake.chat({ kind: 'reply', text: ['Hallo'] });
    await oneshot.sdk.chat.completions.create({ model: 'm', messages: instructed('Hello') });
    expect(sentToProvider()).toEqual([
      ['system', 'Keep it short.'],
      ['user', 'Translate: Hello'],
    ]);
    fake.chat({ kind: 'reply', text: ['Pong'] });
    const res = await silicon.sdk.chat.completions.create({ model: 'm', messages: instructed('Ping') });
    expect(res.choices[0]!.message.content).toBe('Pong');
    expect(sentToProvider()).toEqual([
      ['system', 'Lua app.'],
      ['system', 'Keep it short.'],
      ['user', 'Ping'],
    ]);
    fake.expectNoFailures();
  });

  it('answers non-streaming with the usage of the whole reply', async () => {
    const { sdk } = await appWithClient({ modelId: fakeModelId });
    fake.chat({
      kind: 'reply',
      text: ['Hello ', 'from ', 'the provider'],
      usage: { prompt: 7, completion: 5 },
    });
    const res = await sdk.chat.completions.create({
      model: 'x',
      messages: [{ role: 'user', content: 'Hi' }],
    });
    expect(res.choices[0]!.message.content).toBe('Hello from the provider');
    expect(res.usage).toEqual({ prompt_tokens: 7, completion_tokens: 5, total_tokens: 12 });
    fake.expectNoFailures();
  });

  it('ends a stream that fails after its first text with an error event, which the SDK raises', async () => {
    const impatient = await vendorServer({ COMPLETION_TIMEOUT_MS: '500' });
    try {
      const { sdk } = await appWithClient({ modelId: impatient.fakeModelId, on: impatient });
      fake.chat({ kind: 'reply', text: ['Hel', 'lo'], stall: true });
      const stream = await sdk.chat.completions.create({
        model: 'x',
        messages: [{ role: 'user', content: 'Hi' }],
        stream: true,
      });
      let text = '';
      const err = await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
      })().catch((e: unknown) => e);
      expect(text).toBe('Hello');
      expect(err).toBeInstanceOf(OpenAI.APIError);
      expect((err as APIError).error).toMatchObject({
        type: 'server_error',
        message: expect.stringMatching(/did not finish its answer within 0.5 seconds/),
      });
    } finally {
      await impatient.server.close();
    }
    fake.expectNoFailures();
  });

  it('answers a failed reply as a server error in OpenAI shape (the error is stored in the conversation)', async () => {
    const { sdk } = await appWithClient({ modelId: fakeModelId });
    fake.chat({ kind: 'error', status: 401 });
    const err = await sdk.chat.completions
      .create({ model: 'x', messages: [{ role: 'user', content: 'Hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.InternalServerError);
    expect((err as APIError).error).toMatchObject({ type: 'server_error' });
    fake.expectNoFailures();
  });
});

describe('errors in OpenAI shape', () => {
  it('401 for an unknown, malformed or inactive key', async () => {
    const { app, clientId } = await appWithClient();
    await owner.put(api(`/apps/${app.id}/clients/${clientId}`), { name: 'Off', active: false });
    const inactive = (
      await server.ctx.db.select().from(schema.clients).where(eq(schema.clients.id, clientId))
    )[0]!;
    expect(inactive.active).toBe(false);
    for (const apiKey of [`llmor_${'x'.repeat(43)}`, 'sk-not-ours']) {
      const sdk = new OpenAI({ apiKey, baseURL: `${server.url}/v1/openai`, maxRetries: 0 });
      const err = await sdk.chat.completions
        .create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((err as APIError).error).toEqual({
        message: 'Invalid API client token.',
        type: 'invalid_request_error',
        param: null,
        code: 'invalid_api_key',
      });
    }
    const missing = await fetch(`${server.url}/v1/openai/models`);
    expect(missing.status).toBe(401);
    expect(await missing.json()).toMatchObject({ error: { code: 'invalid_api_key', message: /Bearer/ } });
  });

  it('401 for an inactive client', async () => {
    const { app, clientId, sdk } = await appWithClient();
    await owner.put(api(`/apps/${app.id}/clients/${clientId}`), { name: 'Off', active: false });
    const err = await sdk.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as APIError).message).toMatch(/inactive/);
  });

  it('400 for a last message that is not the user, no messages, bad types or malformed JSON; nothing stored', async () => {
    const { sdk, token } = await appWithClient();
    const before = (await server.ctx.db.select().from(schema.conversations)).length;
    const notUser = await sdk.chat.completions
      .create({
        model: 'm',
        messages: [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: 'A' },
        ],
      })
      .catch((e: unknown) => e);
    expect(notUser).toBeInstanceOf(OpenAI.BadRequestError);
    expect((notUser as APIError).error).toMatchObject({
      type: 'invalid_request_error',
      param: 'messages.1',
      message: expect.stringMatching(/last message must be a user message/),
    });
    const empty = await sdk.chat.completions.create({ model: 'm', messages: [] }).catch((e: unknown) => e);
    expect(empty).toBeInstanceOf(OpenAI.BadRequestError);
    expect((empty as APIError).error).toMatchObject({ param: 'messages' });
    for (const body of ['{"messages":', JSON.stringify({ messages: [{ role: 'wizard', content: 'x' }] })]) {
      const res = await fetch(`${server.url}/v1/openai/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body,
      });
      expect(res.status, body).toBe(400);
      expect(await res.json()).toMatchObject({
        error: { type: 'invalid_request_error', message: expect.any(String) },
      });
    }
    const badHeader = await sdk.chat.completions
      .create(
        { model: 'm', messages: [{ role: 'user', content: 'Q' }] },
        { headers: { 'X-Conversation': '../x' } },
      )
      .catch((e: unknown) => e);
    expect(badHeader).toBeInstanceOf(OpenAI.BadRequestError);
    expect((await server.ctx.db.select().from(schema.conversations)).length).toBe(before);
  });

  it('429 with Retry-After past the client rate limit; counts accepted calls like X-VendorToken', async () => {
    const { sdk, clientId } = await appWithClient({
      client: { request_rate_limit: 2, request_rate_interval: 60 },
    });
    await sdk.models.list();
    await sdk.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] });
    const err = await sdk.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect((err as APIError).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect(Number((err as APIError).headers?.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const [row] = await server.ctx.db.select().from(schema.clients).where(eq(schema.clients.id, clientId));
    expect(row!.requetsCount).toBe(2);
    expect(row!.lastUsed).not.toBeNull();
  });

  it("402 when the vendor's plan refuses the reply, and no provider call", async () => {
    // A vendor of its own server, on a plan that allows no requests: refused in the reply's first write.
    const refusing = await vendorServer();
    try {
      const { ctx } = refusing.server;
      const su = await makeUser(ctx, { isSu: true });
      const admin = await Client.signedIn(refusing.server.app, su.email, su.password);
      const plan = await admin.post('/v1/admin/plans', {
        name: 'No requests',
        price_minor: 100,
        currency: 'CHF',
        interval: 'month',
        limits: { requests: 0, tokens: null },
      });
      expect(plan.statusCode, plan.body).toBe(201);
      const subscribed = await admin.post(`/v1/admin/vendors/${refusing.vendor.id}/subscriptions`, {
        plan_id: plan.json().data.id,
      });
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const refusal = await ctx.spending.refusedReply(
        refusing.vendor.id,
        await ctx.spending.replyTerms(refusing.vendor.id),
      );
      const { sdk } = await appWithClient({ modelId: refusing.fakeModelId, on: refusing });
      const calls = fake.requests.length;
      for (const stream of [false, true]) {
        const err = await sdk.chat.completions
          .create({ model: 'm', messages: [{ role: 'user', content: 'Hi' }], stream })
          .catch((e: unknown) => e);
        expect(err, String(stream)).toBeInstanceOf(OpenAI.APIError);
        expect((err as APIError).status).toBe(402);
        expect((err as APIError).error).toMatchObject({
          type: 'insufficient_quota',
          code: 'insufficient_quota',
          message: refusal.message,
        });
      }
      expect(fake.requests.length).toBe(calls);
    } finally {
      await refusing.server.close();
    }
  });
});

describe('GET /v1/openai/models', () => {
  it("lists the client's app as its one model", async () => {
    const { sdk, app } = await appWithClient();
    const page = await sdk.models.list();
    expect(page.data).toEqual([
      { id: app.name, object: 'model', created: expect.any(Number), owned_by: vendor.key },
    ]);
  });

  it('may not be reached with a console session or X-VendorToken headers', async () => {
    const { token } = await appWithClient();
    expect((await owner.get('/v1/openai/models')).statusCode).toBe(401);
    const res = await server.app.inject({
      method: 'GET',
      url: '/v1/openai/models',
      headers: { 'x-vendortoken': token, 'x-vendor': vendor.key },
    });
    expect(res.statusCode).toBe(401);
  });
});

describe('GET /v1/openai/models/{model} and paths no route takes', () => {
  it("retrieves the client's app by its model id; any other id is 404 in OpenAI's shape", async () => {
    const { sdk, app } = await appWithClient();
    expect(await sdk.models.retrieve(app.name)).toEqual({
      id: app.name,
      object: 'model',
      created: expect.any(Number),
      owned_by: vendor.key,
    });
    for (const id of [`${app.name} (another)`, 'gpt-4o']) {
      const err = await sdk.models.retrieve(id).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as APIError).error).toEqual({
        message: `The model '${id}' does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: null,
        code: 'not_found',
      });
    }
  });

  it("answers an unknown path 404 and a wrong method 405 (with Allow) in OpenAI's shape", async () => {
    const { sdk } = await appWithClient();
    const unknown = await sdk.get('/no/such/thing').catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(OpenAI.NotFoundError);
    expect((unknown as APIError).error).toEqual({
      message: 'Unknown request URL: GET /v1/openai/no/such/thing.',
      type: 'invalid_request_error',
      param: null,
      code: 'not_found',
    });
    const wrong = await sdk.post('/models').catch((e: unknown) => e);
    expect((wrong as APIError).status).toBe(405);
    expect((wrong as APIError).headers?.get('allow')).toBe('GET, HEAD');
    expect((wrong as APIError).error).toEqual({
      message: 'POST is not allowed on /v1/openai/models; use GET or HEAD.',
      type: 'invalid_request_error',
      param: null,
      code: 'method_not_allowed',
    });
    const raw = await fetch(`${server.url}/v1/openai/chat/completions`, { method: 'GET' });
    expect(raw.status).toBe(405);
    expect(raw.headers.get('allow')).toBe('POST');
    expect(await raw.json()).toMatchObject({ error: { code: 'method_not_allowed' } });
    // Outside /v1/openai the ordinary shape stays.
    const elsewhere = await fetch(`${server.url}/v1/no-such-route`);
    expect(await elsewhere.json()).toMatchObject({ name: 'NotFound' });
  });
});

describe('what the endpoint stores: the conversation API’s caps, no caller prompts (ADR 0024)', () => {
  it('refuses any message longer than MESSAGE_MAX_CHARS, the last or one of the history, and stores nothing', async () => {
    const { sdk } = await appWithClient();
    const before = (await server.ctx.db.select().from(schema.conversations)).length;
    const long = 'x'.repeat(MESSAGE_MAX_CHARS + 1);
    const cases: [OpenAI.Chat.ChatCompletionMessageParam[], string][] = [
      [[{ role: 'user', content: 'y'.repeat(250_000) }], 'messages.0.content'],
      [
        [
          { role: 'user', content: 'Q' },
          { role: 'assistant', content: long },
          { role: 'user', content: 'Again' },
        ],
        'messages.1.content',
      ],
      [
        [
          {
            role: 'user',
            content: [
              { type: 'text', text: long.slice(1) },
              { type: 'text', text: 'xx' },
            ],
          },
        ],
        'messages.0.content',
      ],
    ];
    for (const [messages, param] of cases) {
      const err = await sdk.chat.completions.create({ model: 'm', messages }).catch((e: unknown) => e);
      expect(err, param).toBeInstanceOf(OpenAI.BadRequestError);
      expect((err as APIError).error).toMatchObject({
        type: 'invalid_request_error',
        param,
        message: expect.stringContaining('At most 100,000 characters'),
      });
    }
    expect((await server.ctx.db.select().from(schema.conversations)).length).toBe(before);
    // Exactly the cap is accepted.
    const atCap = await sdk.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'z'.repeat(MESSAGE_MAX_CHARS) }],
    });
    expect(atCap.choices[0]!.message.role).toBe('assistant');
  });
});

describe('POST /v1/openai/responses (the Responses API)', () => {
  it('answers text input; previous_response_id continues the same conversation; message arrays', async () => {
    const { sdk, clientId } = await appWithClient();
    const { data: first, response } = await sdk.responses
      .create({ model: 'my-model', input: 'Hello there' })
      .withResponse();
    expect(first).toMatchObject({ object: 'response', status: 'completed', model: 'my-model' });
    expect(first.id).toMatch(/^resp_/);
    expect(first.output_text).toMatch(/^You said: Hello there\n/);
    expect(first.usage!.input_tokens).toBeGreaterThan(0);
    expect(first.usage!.total_tokens).toBe(first.usage!.input_tokens + first.usage!.output_tokens);
    const token = response.headers.get('x-conversation')!;

    const second = await sdk.responses.create({
      model: 'my-model',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'And again' }] }],
      previous_response_id: first.id,
    });
    expect(second.previous_response_id).toBe(first.id);
    expect(second.output_text).toMatch(/^You said: And again\n/);
    const stored = await storedConversation(token);
    expect(stored.row).toMatchObject({ channel: 'api', clientId });
    expect(stored.messages).toEqual([
      ['user', 'Hello there'],
      ['assistant', first.output_text],
      ['user', 'And again'],
      ['assistant', second.output_text],
    ]);

    const history = await sdk.responses
      .create({
        model: 'm',
        input: [
          { role: 'user', content: 'Q1' },
          { role: 'assistant', content: 'A1' },
          { role: 'user', content: 'Q2' },
        ],
      })
      .withResponse();
    const again = await storedConversation(history.response.headers.get('x-conversation')!);
    expect(again.messages.slice(0, 3)).toEqual([
      ['user', 'Q1'],
      ['assistant', 'A1'],
      ['user', 'Q2'],
    ]);
  });

  it('streams response.created, output_text deltas that join to the answer, response.completed with usage', async () => {
    const { sdk } = await appWithClient();
    const whole = await sdk.responses.create({ model: 'm', input: 'Stream me please' });
    const stream = await sdk.responses.create({ model: 'm', input: 'Stream me please', stream: true });
    const events: { type: string; sequence_number: number }[] = [];
    let text = '';
    for await (const event of stream) {
      events.push(event);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    const types = events.map((e) => e.type);
    const deltas = types.filter((t) => t === 'response.output_text.delta');
    expect(deltas.length).toBeGreaterThan(1);
    expect(types).toEqual([
      'response.created',
      'response.output_item.added',
      'response.content_part.added',
      ...deltas,
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(text).toBe(whole.output_text);
    const completed = events.at(-1) as OpenAI.Responses.ResponseCompletedEvent;
    expect(completed.response.status).toBe('completed');
    expect(completed.response.usage!.total_tokens).toBeGreaterThan(0);
    expect(completed.response.output).toMatchObject([
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    ]);
    // The SDK's stream helper builds the response from the item and part events.
    const final = await sdk.responses.stream({ model: 'm', input: 'Stream me please' }).finalResponse();
    expect(final.output_text).toBe(whole.output_text);
  });

  it("answers the AI SDK's default openai('…') provider (the Responses API), streamed too", async () => {
    const { token } = await appWithClient();
    const openai = createOpenAI({ apiKey: token, baseURL: `${server.url}/v1/openai` });
    const { text } = await generateText({ model: openai('my-app'), prompt: 'Hello there', maxRetries: 0 });
    expect(text).toMatch(/^You said: Hello there\n/);
    const streamed = streamText({ model: openai('my-app'), prompt: 'Hello there', maxRetries: 0 });
    expect(await streamed.text).toBe(text);
  });

  it("applies instructions after the app's prompt, for that response only, and echoes them", async () => {
    const { sdk } = await appWithClient({
      modelId: fakeModelId,
      parameters: { system_prompt: 'You are the app.' },
    });
    fake.chat({ kind: 'reply', text: ['Salut.'] });
    const first = await sdk.responses.create({
      model: 'm',
      input: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
      instructions: 'Answer in French.',
    });
    expect(first).toMatchObject({ instructions: 'Answer in French.', output_text: 'Salut.' });
    expect(sentToProvider()).toEqual([
      ['system', 'You are the app.'],
      ['system', 'Answer in French.\n\nBe brief.'],
      ['user', 'Hi'],
    ]);
    // As at OpenAI, a continued response does not carry the previous one's instructions.
    fake.chat({ kind: 'reply', text: ['Ok.'] });
    const next = await sdk.responses.create({ model: 'm', input: 'More', previous_response_id: first.id });
    expect(next.instructions).toBeNull();
    expect(sentToProvider()).toEqual([
      ['system', 'You are the app.'],
      ['user', 'Hi'],
      ['assistant', 'Salut.'],
      ['user', 'More'],
    ]);
    fake.expectNoFailures();
  });

  it("errors in OpenAI's shape: input over the cap, an unknown or another client's previous response 404", async () => {
    const { sdk } = await appWithClient();
    const before = (await server.ctx.db.select().from(schema.conversations)).length;
    const longInstructions = await sdk.responses
      .create({ model: 'm', input: 'Hi', instructions: 'x'.repeat(MESSAGE_MAX_CHARS + 1) })
      .catch((e: unknown) => e);
    expect(longInstructions).toBeInstanceOf(OpenAI.BadRequestError);
    expect((longInstructions as APIError).error).toMatchObject({ param: 'instructions' });
    const tooLong = await sdk.responses
      .create({ model: 'm', input: 'x'.repeat(MESSAGE_MAX_CHARS + 1) })
      .catch((e: unknown) => e);
    expect((tooLong as APIError).error).toMatchObject({ param: 'input' });
    expect((await server.ctx.db.select().from(schema.conversations)).length).toBe(before);

    const { sdk: other } = await appWithClient();
    const theirs = await other.responses.create({ model: 'm', input: 'Mine' });
    for (const id of [theirs.id, 'resp_nonsense']) {
      const err = await sdk.responses
        .create({ model: 'm', input: 'Continue', previous_response_id: id })
        .catch((e: unknown) => e);
      expect(err, id).toBeInstanceOf(OpenAI.NotFoundError);
      expect((err as APIError).error).toMatchObject({
        message: `Previous response with id '${id}' not found.`,
        code: 'not_found',
      });
    }
  });
});
