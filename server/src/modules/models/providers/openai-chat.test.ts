import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../platform/crypto';
import { parseAllowList } from '../../../platform/outbound/addresses';
import { OutboundGuard } from '../../../platform/outbound/guard';
import { type FakeOpenAI, startFakeOpenAI } from '../../../test/fakes';
import { chatModelFor } from './index';
import { OpenAiChatModel } from './openai-chat';
import { collect, failure, hello, weatherTool } from './test-streams';
import type { ChatStreamEvent } from './types';

// The OpenAI protocol read without the AI SDK (docs/adr/0052): what the SDK's package did, kept.
const ctx = {
  secretBox: new SecretBox(Buffer.alloc(32, 5)),
  outbound: new OutboundGuard({ allow: parseAllowList('127.0.0.1').rules }),
};
const KEY = 'sk-compatible-0123456789abcd';

let server: FakeOpenAI;
beforeAll(async () => {
  server = await startFakeOpenAI({ apiKey: KEY });
});
afterAll(() => server?.close());
afterEach(() => {
  expect(server.failures).toEqual([]);
  expect(server.pending()).toBe(0);
  server.requests.length = 0;
});

const row = (parameters: Record<string, unknown> = {}) => ({
  modelKey: 'openai-compatible-chat',
  type: 'chat_completion',
  provider: 'openai-compatible',
  parameters: { base_url: server.baseUrl, model: 'local-model', ...parameters },
  secretEnc: ctx.secretBox.seal(JSON.stringify({ api_key: KEY })),
});
const label = () => `the server at ${server.baseUrl}`;

/** A model whose `fetch` answers `pieces` as the body, one read each (any split a socket can make). */
function answering(pieces: (string | Uint8Array)[]) {
  const seen: { url: string; init: RequestInit }[] = [];
  const fetch = (async (url: string, init: RequestInit) => {
    seen.push({ url, init });
    const queue = pieces.map((p) => (typeof p === 'string' ? new TextEncoder().encode(p) : p));
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = queue.shift();
        if (next) controller.enqueue(next);
        else controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  }) as typeof globalThis.fetch;
  const model = new OpenAiChatModel({
    baseURL: 'http://models.test/v1/',
    model: 'm',
    fetch,
    label: 'the server',
  });
  return { model, seen };
}

const ANSWER = [
  ': keep-alive comment\r\n\r\n',
  'data: {"choices":[{"delta":{"role":"assistant","content":"Grüezi "}}]}\r\n\r\n',
  'data: {"choices":[{"delta":{"content":"from Zürich"}}]}\n\n',
  'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\\"ci"}}]}}]}\n\n',
  'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ty\\":\\"Bern\\"}"}}]}}]}\n\n',
  'data: {"choices":[{"delta":{},"finish_reason":"tool_calls"}]}\n\n',
  'data: {"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":5}}\n\n',
  'data: [DONE]',
];
const EXPECTED: ChatStreamEvent[] = [
  { type: 'text', text: 'Grüezi ' },
  { type: 'text', text: 'from Zürich' },
  { type: 'tool_call', call: { id: 'call_1', name: 'get_weather', arguments: { city: 'Bern' } } },
  { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 7, completionTokens: 5 } },
];

describe('the OpenAI protocol read directly', () => {
  it('reads the same events however the body is split: whole, by event, byte by byte (through a ü)', async () => {
    const whole = ANSWER.join('');
    const bytes = [...new TextEncoder().encode(whole)].map((b) => Uint8Array.of(b));
    for (const pieces of [[whole], ANSWER, bytes]) {
      const { model, seen } = answering(pieces);
      expect(await collect(model.stream({ ...hello, tools: [weatherTool] }))).toEqual(EXPECTED);
      expect(seen[0]!.url).toBe('http://models.test/v1/chat/completions');
    }
  });

  it('asks as the OpenAI-compatible package did: the key, the model, the tools, include_usage', async () => {
    server.chat({ kind: 'reply', text: ['ok'], usage: { prompt: 3, completion: 1 } });
    const events = await collect(
      chatModelFor(ctx, row()).stream({ ...hello, tools: [weatherTool], temperature: 0.3, maxTokens: 40 }),
    );
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: 3, completionTokens: 1 },
    });
    const [req] = server.requests;
    expect(req!.path).toBe('/v1/chat/completions');
    expect(req!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(req!.body).toEqual({
      model: 'local-model',
      max_tokens: 40,
      temperature: 0.3,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: weatherTool.description,
            parameters: weatherTool.parameters,
          },
        },
      ],
      tool_choice: 'auto',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('sends assistant tool calls and tool results back in the chat completions format', async () => {
    server.chat({ kind: 'reply', text: ['It is sunny.'] });
    await collect(
      chatModelFor(ctx, row()).stream({
        messages: [
          { role: 'user', content: 'Weather in Bern?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'c1', name: 'get_weather', arguments: { city: 'Bern' } }],
          },
          { role: 'tool', toolCallId: 'c1', name: 'get_weather', content: '{"temp":21}' },
          { role: 'assistant', content: 'It is 21 degrees.' },
        ],
      }),
    );
    expect((server.requests[0]!.body as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather in Bern?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: '{"temp":21}' },
      { role: 'assistant', content: 'It is 21 degrees.' },
    ]);
  });

  for (const [status, kind, words] of [
    [401, 'auth', 'rejected the API key (HTTP 401)'],
    [429, 'rate_limit', 'is rate-limiting requests'],
    [503, 'unavailable', 'is unavailable (HTTP 503)'],
    [400, 'bad_request', 'refused the request (HTTP 400)'],
  ] as const) {
    it(`answers HTTP ${status} as '${kind}', naming the server`, async () => {
      server.chat({ kind: 'error', status });
      const err = await failure(chatModelFor(ctx, row()).stream(hello));
      expect(err.kind).toBe(kind);
      expect(err.status).toBe(status);
      expect(err.message).toContain(`${label()} ${words}`);
    });
  }

  it('never repeats the key a server echoes, and never quotes a body that is not its JSON error', async () => {
    server.chat({ kind: 'error', status: 401, body: { error: { message: `Bad key ${KEY} given` } } });
    expect((await failure(chatModelFor(ctx, row()).stream(hello))).message).toBe(
      `${label()} rejected the API key (HTTP 401): Bad key *** given`,
    );
    server.chat({ kind: 'raw', status: 502, contentType: 'text/html', body: `<h1>proxy ${KEY}</h1>` });
    expect((await failure(chatModelFor(ctx, row()).stream(hello))).message).toBe(
      `${label()} is unavailable (HTTP 502). The provider answered HTTP 502 without an error message.`,
    );
  });

  it('reads an error the server sends inside the stream, and refuses what is not a chunk', async () => {
    server.chat({
      kind: 'raw',
      body: 'data: {"choices":[{"delta":{"content":"Hal"}}]}\n\ndata: {"error":{"message":"overloaded"}}\n\n',
    });
    const stopped = await failure(chatModelFor(ctx, row()).stream(hello));
    expect(stopped.kind).toBe('unavailable');
    expect(stopped.message).toBe(`${label()} stopped the answer: overloaded`);
    for (const body of [
      'data: {"choices":[{"delta":{"content":"Hi"\n\n',
      'data: {"choices":{"delta":{}}}\n\n',
      'data: {"choices":[{"delta":{"content":42}}]}\n\n',
      'data: {"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}\n\n',
      'data: 7\n\n',
      'data: {"choices":[{"delta":{},"finish_reason":1}]}\n\n',
      'data: {"choices":[],"usage":{"prompt_tokens":"12","completion_tokens":3}}\n\n',
    ]) {
      server.chat({ kind: 'raw', body });
      const err = await failure(chatModelFor(ctx, row()).stream(hello));
      expect(err.kind).toBe('bad_response');
      expect(err.message).toBe(`${label()} sent a response that could not be read.`);
    }
    // A stream that ends without saying why it stopped, with text or none, or that is no event stream.
    for (const body of [
      ': nothing\n\ndata: [DONE]\n\n',
      'data: {"choices":[{"delta":{"content":"Hi"}}]}\n\n',
      '{"a":1}',
    ]) {
      server.chat({ kind: 'raw', body });
      expect((await failure(chatModelFor(ctx, row()).stream(hello))).message).toBe(
        `${label()} sent a response that could not be read.`,
      );
    }
  });

  it('keeps arguments that are not JSON as the model sent them; a call without arguments gets {}', async () => {
    const { model } = answering([
      'data: {"choices":[{"delta":{"tool_calls":[{"index":1,"id":"b","function":{"name":"get_weather","arguments":"{city: Bern"}},{"index":0,"id":"a","function":{"name":"get_weather"}}]}}]}\n\n',
      'data: {"choices":[{"delta":{},"finish_reason":"stop"}]}\n\n',
    ]);
    expect(await collect(model.stream(hello))).toEqual([
      { type: 'tool_call', call: { id: 'b', name: 'get_weather', arguments: '{city: Bern' } },
      { type: 'tool_call', call: { id: 'a', name: 'get_weather', arguments: {} } },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 0, completionTokens: 0 } },
    ]);
  });

  it('times out a server that stalls, says so for one that is unreachable, and rethrows the caller abort', async () => {
    server.chat({ kind: 'reply', text: ['Half'], stall: true });
    const seen: ChatStreamEvent[] = [];
    const stalled = await failure(
      (async function* () {
        for await (const e of chatModelFor(ctx, row(), { timeoutMs: 250 }).stream(hello)) {
          seen.push(e);
          yield e;
        }
      })(),
    );
    expect(seen).toEqual([{ type: 'text', text: 'Half' }]);
    expect(stalled.kind).toBe('timeout');
    expect(stalled.message).toBe(`${label()} did not answer within 0.25 s.`);

    const gone = await failure(chatModelFor(ctx, row({ base_url: 'http://127.0.0.1:1/v1' })).stream(hello));
    expect(gone.kind).toBe('unavailable');
    expect(gone.message).toBe('Could not reach the server at http://127.0.0.1:1/v1 (ECONNREFUSED).');

    server.requests.length = 0;
    server.chat({ kind: 'hang' });
    const controller = new AbortController();
    const reason = new Error('the user stopped it');
    const stream = chatModelFor(ctx, row(), { timeoutMs: 5000 }).stream({
      ...hello,
      signal: controller.signal,
    });
    const caught = collect(stream).catch((err: unknown) => err);
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort(reason);
    expect(await caught).toBe(reason);
  });

  it('stops the request when its reader stops early', async () => {
    const { model, seen } = answering(ANSWER);
    for await (const event of model.stream(hello)) {
      expect(event).toEqual(EXPECTED[0]);
      break;
    }
    expect((seen[0]!.init.signal as AbortSignal).aborted).toBe(true);
  });

  it('goes through the outbound guard: a base URL it refuses is refused before any request', async () => {
    const guarded = { ...ctx, outbound: new OutboundGuard({ allow: [] }) };
    const err = await failure(chatModelFor(guarded, row()).stream(hello));
    expect(err.kind).toBe('bad_request');
    expect(server.requests).toEqual([]);
  });
});
