import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../platform/crypto';
import { parseAllowList } from '../../../platform/outbound/addresses';
import { OutboundGuard } from '../../../platform/outbound/guard';
import {
  type FakeAnthropic,
  type FakeOpenAI,
  startFakeAnthropic,
  startFakeOpenAI,
} from '../../../test/fakes';
import { chatModelFor, embeddingModelFor, type ProviderOptions } from './index';
import { collect, failure, hello, weatherTool } from './test-streams';
import type { ChatStreamEvent } from './types';
import { ProviderError } from './types';

// The fakes listen on loopback, which the guard refuses unless allowed (ADR 0020).
const ctx = {
  secretBox: new SecretBox(Buffer.alloc(32, 3)),
  outbound: new OutboundGuard({ allow: parseAllowList('127.0.0.1').rules }),
};
const OPENAI_KEY = 'sk-test-openai-0123456789abcd';
const ANTHROPIC_KEY = 'sk-ant-test-0123456789wxyz';

let openai: FakeOpenAI;
/** An OpenAI-compatible server without keys (like a local Ollama). */
let local: FakeOpenAI;
let anthropic: FakeAnthropic;
beforeAll(async () => {
  openai = await startFakeOpenAI({ apiKey: OPENAI_KEY });
  local = await startFakeOpenAI();
  anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
});
afterAll(async () => {
  await openai?.close();
  await local?.close();
  await anthropic?.close();
});
afterEach(() => {
  // Every scripted answer was used and nothing unexpected reached a fake.
  for (const fake of [openai, local, anthropic]) {
    expect(fake.failures).toEqual([]);
    expect(fake.pending()).toBe(0);
    fake.requests.length = 0;
  }
});

const sealed = (secrets: Record<string, string>) => ctx.secretBox.seal(JSON.stringify(secrets));

function openAiRow(key = OPENAI_KEY) {
  return {
    modelKey: 'openai-gpt-4o-mini',
    type: 'chat_completion',
    provider: 'openai',
    parameters: { base_url: openai.baseUrl },
    secretEnc: sealed({ api_key: key }),
  };
}
function anthropicRow(key = ANTHROPIC_KEY) {
  return {
    modelKey: 'anthropic-claude-haiku-4-5',
    type: 'chat_completion',
    provider: 'anthropic',
    parameters: { base_url: anthropic.baseUrl },
    secretEnc: sealed({ api_key: key }),
  };
}
function compatibleRow(apiKey?: string) {
  return {
    modelKey: 'openai-compatible-chat',
    type: 'chat_completion',
    provider: 'openai-compatible',
    parameters: { base_url: (apiKey ? openai : local).baseUrl, model: 'llama3.1:8b' },
    secretEnc: apiKey ? sealed({ api_key: apiKey }) : null,
  };
}

describe('OpenAI (chat completions over SSE)', () => {
  it('streams text in order, then one finish with usage; sends the key, model and include_usage', async () => {
    openai.chat({ kind: 'reply', text: ['Hel', 'lo, ', 'world', '!'], usage: { prompt: 12, completion: 4 } });
    const events = await collect(chatModelFor(ctx, openAiRow()).stream(hello));
    expect(events).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo, ' },
      { type: 'text', text: 'world' },
      { type: 'text', text: '!' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 12, completionTokens: 4 } },
    ]);
    const [req] = openai.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(req!.body).toMatchObject({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
      ],
    });
    expect((req!.body as { tools?: unknown }).tools).toBeUndefined();
  });

  it('declares tools and delivers streamed tool calls with parsed arguments', async () => {
    openai.chat({
      kind: 'reply',
      text: ['Let me check.'],
      toolCalls: [
        { id: 'call_a', name: 'get_weather', arguments: { city: 'Bern' } },
        { id: 'call_b', name: 'get_weather', arguments: { city: 'Zürich' } },
      ],
      usage: { prompt: 30, completion: 9 },
    });
    const events = await collect(
      chatModelFor(ctx, openAiRow()).stream({
        ...hello,
        tools: [weatherTool],
        temperature: 0.2,
        maxTokens: 50,
      }),
    );
    expect(events).toEqual([
      { type: 'text', text: 'Let me check.' },
      { type: 'tool_call', call: { id: 'call_a', name: 'get_weather', arguments: { city: 'Bern' } } },
      { type: 'tool_call', call: { id: 'call_b', name: 'get_weather', arguments: { city: 'Zürich' } } },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 30, completionTokens: 9 } },
    ]);
    const body = openai.requests[0]!.body as Record<string, unknown>;
    expect(body.tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: expect.objectContaining({
            type: 'object',
            properties: { city: { type: 'string' } },
            required: ['city'],
          }),
        },
      },
    ]);
    expect(body.temperature).toBe(0.2);
    expect(body.max_tokens).toBe(50);
  });

  it('sends assistant tool calls and tool results back in the OpenAI format', async () => {
    openai.chat({ kind: 'reply', text: ['It is sunny.'] });
    await collect(
      chatModelFor(ctx, openAiRow()).stream({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather in Bern?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Bern' } }],
          },
          { role: 'tool', toolCallId: 'call_1', name: 'get_weather', content: '{"temp":21}' },
        ],
      }),
    );
    expect((openai.requests[0]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather in Bern?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
    ]);
  });

  const cases: [number, string, RegExp][] = [
    [401, 'auth', /OpenAI rejected the API key \(HTTP 401\)/],
    [403, 'auth', /HTTP 403/],
    [429, 'rate_limit', /OpenAI is rate-limiting requests/],
    [500, 'unavailable', /OpenAI is unavailable \(HTTP 500\)/],
    [503, 'unavailable', /HTTP 503/],
    [400, 'bad_request', /OpenAI refused the request \(HTTP 400\)/],
  ];
  for (const [status, kind, message] of cases) {
    it(`maps HTTP ${status} to '${kind}'`, async () => {
      openai.chat({ kind: 'error', status });
      const err = await failure(chatModelFor(ctx, openAiRow()).stream(hello));
      expect(err.kind).toBe(kind);
      expect(err.status).toBe(status);
      expect(err.message).toMatch(message);
    });
  }

  it('a wrong key is refused by the server and reported as auth, without the key in the message', async () => {
    const wrong = 'sk-wrong-key-9876543210';
    openai.chat({ kind: 'reply', text: ['never sent'] });
    const err = await failure(chatModelFor(ctx, openAiRow(wrong)).stream(hello));
    expect(err.kind).toBe('auth');
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).not.toContain(wrong);
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${wrong}`);
  });

  it('redacts the key if the provider echoes it', async () => {
    openai.chat({
      kind: 'error',
      status: 401,
      body: { error: { message: `Incorrect API key provided: ${OPENAI_KEY}`, type: 'x', code: null } },
    });
    const err = await failure(chatModelFor(ctx, openAiRow()).stream(hello));
    expect(err.message).toBe('OpenAI rejected the API key (HTTP 401): Incorrect API key provided: ***');
  });

  it("maps a malformed stream to 'bad_response'", async () => {
    openai.chat({
      kind: 'raw',
      body: 'data: {"id":"x","choices":[{"delta":{"content":"Hi"\n\ndata: [DONE]\n\n',
    });
    const err = await failure(chatModelFor(ctx, openAiRow()).stream(hello));
    expect(err.kind).toBe('bad_response');
  });

  it("maps a server that never answers to 'timeout' after the configured time", async () => {
    openai.chat({ kind: 'hang' });
    const started = Date.now();
    const err = await failure(chatModelFor(ctx, openAiRow(), { timeoutMs: 300 }).stream(hello));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('OpenAI did not answer within 0.3 s.');
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("maps a stream that stalls after some text to 'timeout'", async () => {
    openai.chat({ kind: 'reply', text: ['Half an'], stall: true });
    const seen: ChatStreamEvent[] = [];
    const stream = chatModelFor(ctx, openAiRow(), { timeoutMs: 300 }).stream(hello);
    const err = await (async () => {
      try {
        for await (const e of stream) seen.push(e);
      } catch (e) {
        return e as ProviderError;
      }
      throw new Error('expected a failure');
    })();
    expect(seen).toEqual([{ type: 'text', text: 'Half an' }]);
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.kind).toBe('timeout');
  });

  it("maps an unreachable server to 'unavailable'", async () => {
    const row = { ...openAiRow(), parameters: { base_url: 'http://127.0.0.1:1/v1' } };
    const err = await failure(chatModelFor(ctx, row).stream(hello));
    expect(err.kind).toBe('unavailable');
  });

  it("rethrows the caller's abort reason, not a ProviderError", async () => {
    openai.chat({ kind: 'hang' });
    const controller = new AbortController();
    const stream = chatModelFor(ctx, openAiRow(), { timeoutMs: 5000 }).stream({
      ...hello,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user stopped')), 100);
    await expect(collect(stream)).rejects.toThrow('user stopped');
  });
});

describe('Anthropic (messages over SSE)', () => {
  it('streams text, tool calls and usage; sends x-api-key, system and tools', async () => {
    anthropic.messages({
      kind: 'reply',
      text: ['Checking', ' the weather.'],
      toolCalls: [{ id: 'toolu_1', name: 'get_weather', arguments: { city: 'Basel' } }],
      usage: { input: 41, output: 17 },
    });
    const events = await collect(
      chatModelFor(ctx, anthropicRow()).stream({ ...hello, tools: [weatherTool] }),
    );
    expect(events).toEqual([
      { type: 'text', text: 'Checking' },
      { type: 'text', text: ' the weather.' },
      { type: 'tool_call', call: { id: 'toolu_1', name: 'get_weather', arguments: { city: 'Basel' } } },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 41, completionTokens: 17 } },
    ]);
    const req = anthropic.requests[0]!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(req.headers['anthropic-version']).toBeTruthy();
    const body = req.body as Record<string, unknown>;
    expect(body).toMatchObject({
      model: 'claude-haiku-4-5',
      stream: true,
      system: [{ type: 'text', text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hello there' }] }],
    });
    expect(body.tools).toEqual([
      expect.objectContaining({
        name: 'get_weather',
        description: 'Current weather of a city',
        input_schema: expect.objectContaining({ properties: { city: { type: 'string' } } }),
      }),
    ]);
  });

  it('streams a plain answer with finish stop', async () => {
    anthropic.messages({ kind: 'reply', text: ['A', 'B', 'C'], usage: { input: 5, output: 3 } });
    expect(await collect(chatModelFor(ctx, anthropicRow()).stream(hello))).toEqual([
      { type: 'text', text: 'A' },
      { type: 'text', text: 'B' },
      { type: 'text', text: 'C' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 5, completionTokens: 3 } },
    ]);
  });

  it('sends tool results as tool_result blocks', async () => {
    anthropic.messages({ kind: 'reply', text: ['Sunny.'] });
    await collect(
      chatModelFor(ctx, anthropicRow()).stream({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather?' },
          {
            role: 'assistant',
            content: 'Checking.',
            toolCalls: [{ id: 'toolu_9', name: 'get_weather', arguments: { city: 'Bern' } }],
          },
          { role: 'tool', toolCallId: 'toolu_9', name: 'get_weather', content: 'sunny' },
        ],
      }),
    );
    const messages = (anthropic.requests[0]!.body as { messages: unknown[] }).messages;
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_9', name: 'get_weather', input: { city: 'Bern' } },
        ],
      },
      { role: 'user', content: [expect.objectContaining({ type: 'tool_result', tool_use_id: 'toolu_9' })] },
    ]);
  });

  const cases: [number, string][] = [
    [401, 'auth'],
    [429, 'rate_limit'],
    [500, 'unavailable'],
    [529, 'unavailable'],
  ];
  for (const [status, kind] of cases) {
    it(`maps HTTP ${status} to '${kind}'`, async () => {
      anthropic.messages({ kind: 'error', status });
      const err = await failure(chatModelFor(ctx, anthropicRow()).stream(hello));
      expect(err.kind).toBe(kind);
      expect(err.status).toBe(status);
      expect(err.message).toContain('Anthropic');
    });
  }

  it("maps a malformed stream to 'bad_response'", async () => {
    anthropic.messages({ kind: 'raw', body: 'event: message_start\ndata: {not json\n\n' });
    const err = await failure(chatModelFor(ctx, anthropicRow()).stream(hello));
    expect(err.kind).toBe('bad_response');
  });

  it('times out a server that never answers', async () => {
    anthropic.messages({ kind: 'hang' });
    const err = await failure(chatModelFor(ctx, anthropicRow(), { timeoutMs: 250 }).stream(hello));
    expect(err.kind).toBe('timeout');
    expect(err.message).toBe('Anthropic did not answer within 0.25 s.');
  });
});

describe('OpenAI-compatible server', () => {
  it('streams text, tool calls and usage (asks include_usage), with the configured model name', async () => {
    local.chat({
      kind: 'reply',
      text: ['Local ', 'answer'],
      toolCalls: [{ id: 'call_x', name: 'get_weather', arguments: { city: 'Chur' } }],
      usage: { prompt: 8, completion: 6 },
    });
    const events = await collect(
      chatModelFor(ctx, compatibleRow()).stream({ ...hello, tools: [weatherTool] }),
    );
    expect(events).toEqual([
      { type: 'text', text: 'Local ' },
      { type: 'text', text: 'answer' },
      { type: 'tool_call', call: { id: 'call_x', name: 'get_weather', arguments: { city: 'Chur' } } },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 8, completionTokens: 6 } },
    ]);
    const req = local.requests[0]!;
    expect(req.body).toMatchObject({
      model: 'llama3.1:8b',
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(req.headers.authorization).toBeUndefined();
  });

  it('sends the optional key as a bearer token', async () => {
    openai.chat({ kind: 'reply', text: ['ok'], usage: { prompt: 1, completion: 1 } });
    const events = await collect(chatModelFor(ctx, compatibleRow(OPENAI_KEY)).stream(hello));
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: 1, completionTokens: 1 },
    });
    expect(openai.requests[0]!.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
  });

  it("maps a malformed stream to 'bad_response'", async () => {
    local.chat({ kind: 'raw', body: 'data: not-json\n\n' });
    const err = await failure(chatModelFor(ctx, compatibleRow()).stream(hello));
    expect(err.kind).toBe('bad_response');
  });

  it("maps 500 to 'unavailable' naming the server", async () => {
    openai.chat({ kind: 'error', status: 500 });
    const err = await failure(chatModelFor(ctx, compatibleRow(OPENAI_KEY)).stream(hello));
    expect(err.kind).toBe('unavailable');
    expect(err.message).toContain(`the server at ${openai.baseUrl}`);
  });

  it('times out a server that never answers', async () => {
    openai.chat({ kind: 'hang' });
    const err = await failure(chatModelFor(ctx, compatibleRow(OPENAI_KEY), { timeoutMs: 250 }).stream(hello));
    expect(err.kind).toBe('timeout');
  });
});

describe('embeddings', () => {
  const opts: ProviderOptions = {};
  it('OpenAI: sends the inputs and key, returns the vectors and usage', async () => {
    const vectors = Array.from({ length: 2 }, (_, i) =>
      Array.from({ length: 1536 }, (_, j) => (i + j) / 10000),
    );
    openai.embeddings({ kind: 'embeddings', vectors, usage: 7 });
    const model = embeddingModelFor(
      ctx,
      {
        modelKey: 'openai-text-embedding-3-small',
        type: 'embedding',
        provider: 'openai',
        parameters: { base_url: openai.baseUrl },
        secretEnc: sealed({ api_key: OPENAI_KEY }),
      },
      opts,
    );
    expect(model.dimensions).toBe(1536);
    const result = await model.embed(['first text', 'second text']);
    expect(result).toEqual({ vectors, usage: { tokens: 7 } });
    const req = openai.requests[0]!;
    expect(req.path).toBe('/v1/embeddings');
    expect(req.headers.authorization).toBe(`Bearer ${OPENAI_KEY}`);
    expect(req.body).toMatchObject({ model: 'text-embedding-3-small', input: ['first text', 'second text'] });
  });

  const compatibleEmbedding = {
    modelKey: 'openai-compatible-embedding',
    type: 'embedding',
    provider: 'openai-compatible',
    parameters: { base_url: '', model: 'nomic-embed-text', dimensions: 4 },
    secretEnc: null as string | null,
  };

  it('OpenAI-compatible: uses the model name and checks the dimension', async () => {
    const row = {
      ...compatibleEmbedding,
      parameters: { ...compatibleEmbedding.parameters, base_url: openai.baseUrl },
      secretEnc: sealed({ api_key: OPENAI_KEY }),
    };
    openai.embeddings({ kind: 'embeddings', vectors: [[1, 0, 0, 0]], usage: 2 });
    expect(await embeddingModelFor(ctx, row).embed(['hello world'])).toEqual({
      vectors: [[1, 0, 0, 0]],
      usage: { tokens: 2 },
    });
    expect(openai.requests[0]!.body).toMatchObject({ model: 'nomic-embed-text', input: ['hello world'] });

    openai.embeddings({ kind: 'embeddings', vectors: [[1, 0, 0]] });
    await expect(embeddingModelFor(ctx, row).embed(['x'])).rejects.toMatchObject({
      kind: 'bad_response',
      message:
        'the server at ' +
        openai.baseUrl +
        ' returned vectors of 3 dimensions; the model is configured for 4.',
    });
  });

  it('maps 429 and timeouts', async () => {
    const row = {
      ...compatibleEmbedding,
      parameters: { ...compatibleEmbedding.parameters, base_url: openai.baseUrl },
      secretEnc: sealed({ api_key: OPENAI_KEY }),
    };
    openai.embeddings({ kind: 'error', status: 429 });
    await expect(embeddingModelFor(ctx, row).embed(['x'])).rejects.toMatchObject({
      kind: 'rate_limit',
      status: 429,
    });
    openai.embeddings({ kind: 'hang' });
    await expect(embeddingModelFor(ctx, row, { timeoutMs: 200 }).embed(['x'])).rejects.toMatchObject({
      kind: 'timeout',
    });
  });
});

describe('chatModelFor / embeddingModelFor', () => {
  it('refuses a row of the wrong type or an unknown catalogue key', () => {
    expect(() => chatModelFor(ctx, { ...openAiRow(), modelKey: 'openai-text-embedding-3-small' })).toThrow(
      'is not a chat_completion model',
    );
    expect(() => embeddingModelFor(ctx, { ...openAiRow(), modelKey: 'nope' })).toThrow(
      'The model "nope" is no longer in the catalogue.',
    );
  });

  it('reports a secret that cannot be decrypted as auth', () => {
    const other = new SecretBox(Buffer.alloc(32, 9));
    const row = { ...openAiRow(), secretEnc: other.seal('{"api_key":"x"}') };
    try {
      chatModelFor(ctx, row);
      throw new Error('expected a failure');
    } catch (err) {
      expect(err).toBeInstanceOf(ProviderError);
      expect((err as ProviderError).kind).toBe('auth');
    }
  });
});
