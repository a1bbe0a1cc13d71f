/**
 * Gemini, Mistral, Groq and DeepSeek through their AI SDK packages against fakes of their real wire
 * formats (server/src/test/fakes/): a streamed answer with its usage, a tool call round trip, a wrong
 * key and a 429 shown as the provider said them, the outbound guard refusing a local base URL, and
 * the embeddings of the two that have them.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SecretBox } from '../../../platform/crypto';
import { parseAllowList } from '../../../platform/outbound/addresses';
import { OutboundGuard } from '../../../platform/outbound/guard';
import {
  type FakeChatCompletions,
  type FakeGemini,
  type FakeMistral,
  type FakeToolCall,
  type RecordedRequest,
  startFakeDeepSeek,
  startFakeGemini,
  startFakeGroq,
  startFakeMistral,
} from '../../../test/fakes';
import { chatModelFor, embeddingModelFor } from './index';
import {
  type ChatMessage,
  type ChatRequest,
  type ChatStreamEvent,
  ProviderError,
  type ToolSpec,
} from './types';

// The fakes listen on loopback, which the guard refuses unless allowed (ADR 0020).
const ctx = {
  secretBox: new SecretBox(Buffer.alloc(32, 5)),
  outbound: new OutboundGuard({ allow: parseAllowList('127.0.0.1').rules }),
};
/** The default: nothing local allowed. */
const guarded = { ...ctx, outbound: new OutboundGuard({ allow: [] }) };

const KEYS = {
  google: 'AIzaSy-test-gemini-0123456789',
  mistral: 'mistral-test-key-0123456789',
  groq: 'gsk_test_groq_0123456789abcd',
  deepseek: 'sk-test-deepseek-0123456wxyz',
};

let gemini: FakeGemini;
let mistral: FakeMistral;
let groq: FakeChatCompletions;
let deepseek: FakeChatCompletions;
beforeAll(async () => {
  [gemini, mistral, groq, deepseek] = await Promise.all([
    startFakeGemini({ apiKey: KEYS.google }),
    startFakeMistral({ apiKey: KEYS.mistral }),
    startFakeGroq({ apiKey: KEYS.groq }),
    startFakeDeepSeek({ apiKey: KEYS.deepseek }),
  ]);
});
afterAll(async () => {
  await Promise.all([gemini, mistral, groq, deepseek].map((f) => f?.close()));
});
afterEach(() => {
  // Every scripted answer was used and nothing unexpected reached a fake.
  for (const fake of [gemini, mistral, groq, deepseek]) {
    expect(fake.failures).toEqual([]);
    expect(fake.pending()).toBe(0);
    fake.requests.length = 0;
  }
});

const sealed = (secrets: Record<string, string>) => ctx.secretBox.seal(JSON.stringify(secrets));

async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

async function failure(stream: AsyncIterable<ChatStreamEvent>): Promise<ProviderError> {
  try {
    await collect(stream);
  } catch (err) {
    if (err instanceof ProviderError) return err;
    throw err;
  }
  throw new Error('expected the stream to fail');
}

const weatherTool: ToolSpec = {
  name: 'get_weather',
  description: 'Current weather of a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

const hello: ChatRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello there' },
  ],
};

interface Script {
  text?: string[];
  toolCalls?: FakeToolCall[];
  usage?: { prompt: number; completion: number };
}

/** One provider as these tests drive it: its catalogue entry, fake and what it says when it refuses. */
interface Case {
  provider: keyof typeof KEYS;
  modelKey: string;
  fake: () => { requests: RecordedRequest[] };
  /** Scripts the next chat answer. */
  reply(script: Script): void;
  /** Scripts the next chat answer as an HTTP error with the provider's own body. */
  error(status: number): void;
  /** The request path of a chat call. */
  chatPath: string;
  /** The request carries the key like the provider wants it. */
  sentKey(req: RecordedRequest): unknown;
  /** What the user reads for a wrong key and a 429. */
  wrongKey: RegExp;
  rateLimited: RegExp;
  /** A tool call id as the provider makes them. */
  callId: string;
}

const bearer = (req: RecordedRequest) => req.headers.authorization;
const chatScript = (s: Script) => ({ kind: 'reply' as const, ...s });

const CASES: Case[] = [
  {
    provider: 'google',
    modelKey: 'google-gemini-3.8-flash',
    fake: () => gemini,
    reply: ({ usage, ...s }) =>
      gemini.stream({
        kind: 'reply',
        ...s,
        ...(usage ? { usage: { prompt: usage.prompt, candidates: usage.completion } } : {}),
      }),
    error: (status) => gemini.stream({ kind: 'error', status }),
    chatPath: '/v1beta/models/gemini-3.8-flash:streamGenerateContent',
    sentKey: (req) => req.headers['x-goog-api-key'],
    wrongKey:
      /^Google Gemini rejected the API key \(HTTP 400\): API key not valid\. Please pass a valid API key\.$/,
    rateLimited:
      /^Google Gemini is rate-limiting requests: You exceeded your current quota, please check your plan and billing details\./,
    callId: 'fc-weather-1',
  },
  {
    provider: 'mistral',
    modelKey: 'mistral-medium-3.5',
    fake: () => mistral,
    reply: (s) => mistral.chat(chatScript(s)),
    error: (status) => mistral.chat({ kind: 'error', status }),
    chatPath: '/v1/chat/completions',
    sentKey: bearer,
    wrongKey: /^Mistral rejected the API key \(HTTP 401\): Unauthorized$/,
    rateLimited: /^Mistral is rate-limiting requests: Rate limit exceeded$/,
    callId: 'D681PevKs',
  },
  {
    provider: 'groq',
    modelKey: 'groq-gpt-oss-120b',
    fake: () => groq,
    reply: (s) => groq.chat(chatScript(s)),
    error: (status) => groq.chat({ kind: 'error', status }),
    chatPath: '/openai/v1/chat/completions',
    sentKey: bearer,
    wrongKey: /^Groq rejected the API key \(HTTP 401\): Invalid API Key$/,
    rateLimited:
      /^Groq is rate-limiting requests: Rate limit reached for model `openai\/gpt-oss-120b` in organization `org_01fake`/,
    callId: 'call_k3x9',
  },
  {
    provider: 'deepseek',
    modelKey: 'deepseek-flash',
    fake: () => deepseek,
    reply: (s) => deepseek.chat(chatScript(s)),
    error: (status) => deepseek.chat({ kind: 'error', status }),
    chatPath: '/chat/completions',
    sentKey: bearer,
    wrongKey:
      /^DeepSeek rejected the API key \(HTTP 401\): Authentication Fails, Your api key: \*\*\*\*ong1 is invalid$/,
    rateLimited: /^DeepSeek is rate-limiting requests: Rate Limit Reached$/,
    callId: 'call_00_h7Yq',
  },
];

const baseUrlOf = (c: Case) => (c.fake() as unknown as { baseUrl: string }).baseUrl;

function rowOf(c: Case, key = KEYS[c.provider]) {
  return {
    modelKey: c.modelKey,
    type: 'chat_completion',
    provider: c.provider,
    parameters: { base_url: baseUrlOf(c) },
    secretEnc: sealed({ api_key: key }),
  };
}

const expectedKey = (c: Case) => (c.provider === 'google' ? KEYS.google : `Bearer ${KEYS[c.provider]}`);

describe.each(CASES)('$provider', (c) => {
  it('streams the answer in order, then one finish with the usage; sends the key', async () => {
    c.reply({ text: ['Hel', 'lo, ', 'world'], usage: { prompt: 12, completion: 3 } });
    expect(await collect(chatModelFor(ctx, rowOf(c)).stream(hello))).toEqual([
      { type: 'text', text: 'Hel' },
      { type: 'text', text: 'lo, ' },
      { type: 'text', text: 'world' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 12, completionTokens: 3 } },
    ]);
    const [req] = c.fake().requests;
    expect(req!.path).toBe(c.chatPath);
    expect(c.sentKey(req!)).toBe(expectedKey(c));
  });

  it('declares tools, delivers the call with parsed arguments, and takes the result back', async () => {
    c.reply({
      toolCalls: [{ id: c.callId, name: 'get_weather', arguments: { city: 'Bern' } }],
      usage: { prompt: 30, completion: 9 },
    });
    const first = await collect(chatModelFor(ctx, rowOf(c)).stream({ ...hello, tools: [weatherTool] }));
    const call = (
      first.find((e) => e.type === 'tool_call') as Extract<ChatStreamEvent, { type: 'tool_call' }>
    ).call;
    expect(call).toMatchObject({ name: 'get_weather', arguments: { city: 'Bern' } });
    expect(first.at(-1)).toEqual({
      type: 'finish',
      reason: 'tool_calls',
      usage: { promptTokens: 30, completionTokens: 9 },
    });

    c.reply({ text: ['It is 21 °C in Bern.'], usage: { prompt: 45, completion: 8 } });
    const messages: ChatMessage[] = [
      ...hello.messages,
      { role: 'assistant', content: '', toolCalls: [call] },
      { role: 'tool', toolCallId: call.id, name: 'get_weather', content: '{"temp":21}' },
    ];
    const second = await collect(chatModelFor(ctx, rowOf(c)).stream({ messages, tools: [weatherTool] }));
    expect(second).toEqual([
      { type: 'text', text: 'It is 21 °C in Bern.' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 45, completionTokens: 8 } },
    ]);
    // The fake refuses what the provider refuses (Gemini 3's thought signatures, Mistral's tool call
    // ids, DeepSeek's reasoning in thinking mode): the second request went through.
    expect(c.fake().requests).toHaveLength(2);
  });

  it('a wrong key is refused by the provider and shown as it said it, without the key', async () => {
    const wrong = 'wrong-key-for-tests-wrong1';
    c.reply({ text: ['never sent'] });
    const err = await failure(chatModelFor(ctx, rowOf(c, wrong)).stream(hello));
    expect(err.kind).toBe('auth');
    expect(err.message).toMatch(c.wrongKey);
    expect(err.message).not.toContain(wrong);
  });

  it('a 429 is a rate limit, with the provider’s own message', async () => {
    c.error(429);
    const err = await failure(chatModelFor(ctx, rowOf(c)).stream(hello));
    expect(err.kind).toBe('rate_limit');
    expect(err.status).toBe(429);
    expect(err.message).toMatch(c.rateLimited);
  });

  it('a 503 is unavailable', async () => {
    c.error(503);
    const err = await failure(chatModelFor(ctx, rowOf(c)).stream(hello));
    expect(err.kind).toBe('unavailable');
  });

  it('the outbound guard refuses a base URL on this machine before any connection', async () => {
    const err = await failure(chatModelFor(guarded, rowOf(c)).stream(hello));
    expect(err.kind).toBe('bad_request');
    expect(err.message).toMatch(
      /is on a private or local network; the operator can allow it with OUTBOUND_ALLOW\.$/,
    );
    expect(c.fake().requests).toHaveLength(0);
  });
});

describe('Google Gemini', () => {
  it('sends Gemini’s request: system instruction, contents, function declarations, SSE', async () => {
    gemini.stream({ kind: 'reply', text: ['Hi'], usage: { prompt: 5, candidates: 1 } });
    await collect(
      chatModelFor(ctx, rowOf(CASES[0]!)).stream({ ...hello, tools: [weatherTool], maxTokens: 50 }),
    );
    const req = gemini.requests[0]!;
    expect(req.query).toEqual({ alt: 'sse' });
    expect(req.body).toMatchObject({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [{ role: 'user', parts: [{ text: 'Hello there' }] }],
      generationConfig: { maxOutputTokens: 50 },
      tools: [{ functionDeclarations: [expect.objectContaining({ name: 'get_weather' })] }],
    });
  });

  it('counts a thinking model’s reasoning tokens as completion tokens (Gemini bills them as output)', async () => {
    gemini.stream({ kind: 'reply', text: ['42'], usage: { prompt: 7, candidates: 1, thoughts: 30 } });
    const events = await collect(chatModelFor(ctx, rowOf(CASES[0]!)).stream(hello));
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: 7, completionTokens: 31 },
    });
  });

  it('shows a 401 as Google said it, and a missing key as auth', async () => {
    gemini.stream({ kind: 'error', status: 401 });
    const err = await failure(chatModelFor(ctx, rowOf(CASES[0]!)).stream(hello));
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect(err.message).toMatch(
      /^Google Gemini rejected the API key \(HTTP 401\): Request had invalid authentication credentials\./,
    );
  });

  it('embeds one text with embedContent and several with batchEmbedContents', async () => {
    const row = {
      modelKey: 'google-gemini-embedding-001',
      type: 'embedding',
      provider: 'google',
      parameters: { base_url: gemini.baseUrl },
      secretEnc: sealed({ api_key: KEYS.google }),
    };
    const model = embeddingModelFor(ctx, row);
    expect(model.dimensions).toBe(3072);
    gemini.batchEmbed({ kind: 'embeddings' });
    const batch = await model.embed(['first text', 'second text']);
    expect(batch.vectors.map((v) => v.length)).toEqual([3072, 3072]);
    expect(batch.usage).toEqual({ tokens: 0 });
    expect(gemini.requests[0]!.body).toEqual({
      requests: ['first text', 'second text'].map((text) => ({
        model: 'models/gemini-embedding-001',
        content: { role: 'user', parts: [{ text }] },
      })),
    });

    gemini.embed({ kind: 'embeddings' });
    expect((await model.embed(['one'])).vectors).toHaveLength(1);
    expect(gemini.requests[1]).toMatchObject({
      path: '/v1beta/models/gemini-embedding-001:embedContent',
      headers: { 'x-goog-api-key': KEYS.google },
    });

    gemini.batchEmbed({ kind: 'error', status: 429 });
    await expect(model.embed(['a', 'b'])).rejects.toMatchObject({ kind: 'rate_limit', status: 429 });
  });
});

describe('Mistral', () => {
  it('sends the tool round trip in Mistral’s format and rewrites tool call ids of other models', async () => {
    mistral.chat({ kind: 'reply', text: ['Sunny.'] });
    await collect(
      chatModelFor(ctx, rowOf(CASES[1]!)).stream({
        tools: [weatherTool],
        messages: [
          { role: 'user', content: 'Weather in Bern?' },
          {
            role: 'assistant',
            content: '',
            toolCalls: [{ id: 'demo_call_2', name: 'get_weather', arguments: { city: 'Bern' } }],
          },
          { role: 'tool', toolCallId: 'demo_call_2', name: 'get_weather', content: 'sunny' },
        ],
      }),
    );
    const messages = (mistral.requests[0]!.body as { messages: { tool_calls?: { id: string }[] }[] })
      .messages;
    const id = messages[1]!.tool_calls![0]!.id;
    expect(id).toMatch(/^[a-zA-Z0-9]{9}$/);
    expect(messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather in Bern?' }] },
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id, type: 'function', function: { name: 'get_weather', arguments: '{"city":"Bern"}' } },
        ],
      },
      { role: 'tool', name: 'get_weather', tool_call_id: id, content: 'sunny' },
    ]);
  });

  it('embeds with mistral-embed and counts the tokens', async () => {
    const model = embeddingModelFor(ctx, {
      modelKey: 'mistral-embed',
      type: 'embedding',
      provider: 'mistral',
      parameters: { base_url: mistral.baseUrl },
      secretEnc: sealed({ api_key: KEYS.mistral }),
    });
    mistral.embeddings({ kind: 'embeddings', usage: 5 });
    const result = await model.embed(['Bonjour le monde', 'salut']);
    expect(result.vectors.map((v) => v.length)).toEqual([1024, 1024]);
    expect(result.usage).toEqual({ tokens: 5 });
    expect(mistral.requests[0]).toMatchObject({
      path: '/v1/embeddings',
      headers: { authorization: `Bearer ${KEYS.mistral}` },
      body: { model: 'mistral-embed', input: ['Bonjour le monde', 'salut'], encoding_format: 'float' },
    });
  });
});

describe('DeepSeek', () => {
  it('turns thinking mode off: the engine keeps no reasoning to send back with tool calls', async () => {
    deepseek.chat({ kind: 'reply', text: ['ok'] });
    await collect(chatModelFor(ctx, rowOf(CASES[3]!)).stream({ ...hello, temperature: 0.3 }));
    expect(deepseek.requests[0]!.body).toMatchObject({
      model: 'deepseek-flash',
      stream: true,
      thinking: { type: 'disabled' },
      temperature: 0.3,
    });
  });
});
