/**
 * Azure OpenAI, Amazon Bedrock and Ollama against fakes that speak their wire protocols (ADR 0039):
 * a streamed answer, a tool call round trip, usage, their errors as the provider said them, the outbound guard.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { SecretBox } from '../../../platform/crypto';
import { parseAllowList } from '../../../platform/outbound/addresses';
import { OutboundGuard } from '../../../platform/outbound/guard';
import {
  type FakeAzureOpenAI,
  type FakeBedrock,
  type FakeOllama,
  startFakeAzureOpenAI,
  startFakeBedrock,
  startFakeOllama,
  TITAN_V2,
} from '../../../test/fakes';
import { chatModelFor, embeddingModelFor } from './index';
import { collect, failure, hello, weatherTool } from './test-streams';
import type { ChatRequest } from './types';

// The fakes listen on loopback, which the guard refuses unless allowed (ADR 0020).
const ctx = {
  secretBox: new SecretBox(Buffer.alloc(32, 5)),
  outbound: new OutboundGuard({ allow: parseAllowList('127.0.0.1').rules }),
};
const closedCtx = { ...ctx, outbound: new OutboundGuard({ allow: [] }) };
const sealed = (secrets: Record<string, string>) => ctx.secretBox.seal(JSON.stringify(secrets));

const AZURE_KEY = 'azure-key-0123456789abcdef0123';
const AWS = {
  region: 'eu-central-1',
  accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
  secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};
const BEDROCK_MODEL = 'eu.anthropic.claude-sonnet-4-5-20250929-v1:0';

let azureV1: FakeAzureOpenAI;
let azureDated: FakeAzureOpenAI;
let bedrock: FakeBedrock;
let bedrockSts: FakeBedrock;
let ollama: FakeOllama;
beforeAll(async () => {
  azureV1 = await startFakeAzureOpenAI({ apiKey: AZURE_KEY, deployment: 'gpt-4o-prod', apiVersion: 'v1' });
  azureDated = await startFakeAzureOpenAI({
    apiKey: AZURE_KEY,
    deployment: 'embed-small',
    apiVersion: '2024-10-21',
  });
  bedrock = await startFakeBedrock(AWS, [BEDROCK_MODEL, TITAN_V2]);
  bedrockSts = await startFakeBedrock({ ...AWS, sessionToken: 'FwoGZXIvYXdzEBYaDFAKE//token' }, [
    BEDROCK_MODEL,
  ]);
  ollama = await startFakeOllama();
});
afterAll(async () => {
  for (const fake of [azureV1, azureDated, bedrock, bedrockSts, ollama]) await fake?.close();
});
afterEach(() => {
  for (const fake of [azureV1, azureDated, bedrock, bedrockSts, ollama]) {
    expect(fake.failures).toEqual([]);
    expect(fake.pending()).toBe(0);
    fake.requests.length = 0;
  }
});

const toolRoundTrip: ChatRequest = {
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
};

describe('Azure OpenAI', () => {
  const chatRow = (parameters: Record<string, unknown> = {}, key = AZURE_KEY) => ({
    modelKey: 'azure-openai-chat',
    type: 'chat_completion',
    provider: 'azure',
    parameters: { base_url: azureV1.baseUrl, deployment: 'gpt-4o-prod', api_version: 'v1', ...parameters },
    secretEnc: sealed({ api_key: key }),
  });

  it('v1 API: streams text and usage from /openai/v1/chat/completions, the deployment in the body, the key in api-key', async () => {
    azureV1.chat({ kind: 'reply', text: ['Grüezi', ' mitenand'], usage: { prompt: 11, completion: 3 } });
    const events = await collect(chatModelFor(ctx, chatRow()).stream(hello));
    expect(events).toEqual([
      { type: 'text', text: 'Grüezi' },
      { type: 'text', text: ' mitenand' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 11, completionTokens: 3 } },
    ]);
    const [req] = azureV1.requests;
    expect(req!.path).toBe('/openai/v1/chat/completions');
    expect(req!.query).toEqual({});
    expect(req!.headers['api-key']).toBe(AZURE_KEY);
    expect(req!.headers.authorization).toBeUndefined();
    expect(req!.body).toMatchObject({
      model: 'gpt-4o-prod',
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('a tool call, then its result sent back in the OpenAI format', async () => {
    azureV1.chat({
      kind: 'reply',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Bern' } }],
      usage: { prompt: 20, completion: 7 },
    });
    const first = await collect(chatModelFor(ctx, chatRow()).stream({ ...hello, tools: [weatherTool] }));
    expect(first).toEqual([
      { type: 'tool_call', call: { id: 'call_1', name: 'get_weather', arguments: { city: 'Bern' } } },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 20, completionTokens: 7 } },
    ]);
    azureV1.chat({ kind: 'reply', text: ['21 degrees.'] });
    await collect(chatModelFor(ctx, chatRow()).stream(toolRoundTrip));
    expect((azureV1.requests[1]!.body as { messages: unknown[] }).messages.slice(1)).toEqual([
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

  it('a wrong key: Azure’s 401 message, the key not in it', async () => {
    azureV1.chat({ kind: 'reply', text: ['never sent'] });
    const err = await failure(chatModelFor(ctx, chatRow({}, 'wrong-key-000000000000')).stream(hello));
    expect(err).toMatchObject({ kind: 'auth', status: 401 });
    expect(err.message).toMatch(
      /^Azure OpenAI rejected the API key \(HTTP 401\): Access denied due to invalid subscription key/,
    );
    expect(err.message).not.toContain('wrong-key');
  });

  it('429: rate_limit with Azure’s words', async () => {
    azureV1.chat({ kind: 'error', status: 429 });
    const err = await failure(chatModelFor(ctx, chatRow()).stream(hello));
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429 });
    expect(err.message).toContain('have exceeded token rate limit of your current OpenAI S0 pricing tier');
  });

  it('dated API version: embeddings from /openai/deployments/{name}/embeddings?api-version=…', async () => {
    azureDated.embeddings({ kind: 'embeddings', dimensions: 4, usage: 5 });
    const model = embeddingModelFor(ctx, {
      modelKey: 'azure-openai-embedding',
      type: 'embedding',
      provider: 'azure',
      parameters: {
        base_url: azureDated.baseUrl,
        deployment: 'embed-small',
        api_version: '2024-10-21',
        dimensions: 4,
      },
      secretEnc: sealed({ api_key: AZURE_KEY }),
    });
    const result = await model.embed(['one text', 'another']);
    expect(result.vectors).toHaveLength(2);
    expect(result.usage).toEqual({ tokens: 5 });
    const [req] = azureDated.requests;
    expect(req!.path).toBe('/openai/deployments/embed-small/embeddings');
    expect(req!.query).toEqual({ 'api-version': '2024-10-21' });
    expect(req!.headers['api-key']).toBe(AZURE_KEY);
  });

  it('the outbound guard refuses a private base URL before any connection', async () => {
    const err = await failure(chatModelFor(closedCtx, chatRow()).stream(hello));
    expect(err.kind).toBe('bad_request');
    expect(azureV1.requests).toHaveLength(0);
  });
});

describe('Amazon Bedrock', () => {
  const chatRow = (secrets: Record<string, string> = {}, base = bedrock) => ({
    modelKey: 'amazon-bedrock-chat',
    type: 'chat_completion',
    provider: 'amazon-bedrock',
    parameters: {
      region: AWS.region,
      model: BEDROCK_MODEL,
      access_key_id: AWS.accessKeyId,
      base_url: base.baseUrl,
    },
    secretEnc: sealed({ secret_access_key: AWS.secretAccessKey, ...secrets }),
  });

  it('ConverseStream: event-stream frames → text and usage; the request is SigV4-signed for the region', async () => {
    bedrock.converse(BEDROCK_MODEL, {
      kind: 'reply',
      text: ['Hallo', ' Welt'],
      usage: { input: 14, output: 4 },
    });
    const events = await collect(chatModelFor(ctx, chatRow()).stream(hello));
    expect(events).toEqual([
      { type: 'text', text: 'Hallo' },
      { type: 'text', text: ' Welt' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 14, completionTokens: 4 } },
    ]);
    const [req] = bedrock.requests;
    expect(req!.path).toBe(`/model/${encodeURIComponent(BEDROCK_MODEL)}/converse-stream`);
    expect(req!.body).toMatchObject({
      system: [{ text: 'Be brief.' }],
      messages: [{ role: 'user', content: [{ text: 'Hello there' }] }],
    });
    expect(bedrock.signatures[0]).toMatchObject({
      algorithm: 'AWS4-HMAC-SHA256',
      credential: {
        accessKeyId: AWS.accessKeyId,
        region: 'eu-central-1',
        service: 'bedrock',
        terminator: 'aws4_request',
      },
      signedHeaders: expect.arrayContaining(['host', 'x-amz-date']),
    });
    bedrock.signatures.length = 0;
  });

  it('a tool call streamed as toolUse fragments, then the result sent back as a toolResult block', async () => {
    bedrock.converse(BEDROCK_MODEL, {
      kind: 'reply',
      text: ['Checking.'],
      toolCalls: [{ id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', arguments: { city: 'Bern' } }],
      usage: { input: 30, output: 12 },
    });
    const first = await collect(chatModelFor(ctx, chatRow()).stream({ ...hello, tools: [weatherTool] }));
    expect(first).toEqual([
      { type: 'text', text: 'Checking.' },
      {
        type: 'tool_call',
        call: { id: 'tooluse_kZJMlvQmRJ6eAyJE5GIl7Q', name: 'get_weather', arguments: { city: 'Bern' } },
      },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 30, completionTokens: 12 } },
    ]);
    expect((bedrock.requests[0]!.body as { toolConfig: unknown }).toolConfig).toMatchObject({
      tools: [{ toolSpec: { name: 'get_weather', description: 'Current weather of a city' } }],
    });
    bedrock.converse(BEDROCK_MODEL, { kind: 'reply', text: ['21 degrees.'] });
    await collect(chatModelFor(ctx, chatRow()).stream(toolRoundTrip));
    expect((bedrock.requests[1]!.body as { messages: unknown[] }).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [{ toolUse: { toolUseId: 'call_1', name: 'get_weather', input: { city: 'Bern' } } }],
      },
      {
        role: 'user',
        content: [{ toolResult: { toolUseId: 'call_1', content: [{ text: '{"temp":21}' }] } }],
      },
    ]);
    bedrock.signatures.length = 0;
  });

  it('temporary credentials: the session token is sent and signed', async () => {
    bedrockSts.converse(BEDROCK_MODEL, { kind: 'reply', text: ['ok'] });
    const row = chatRow({ session_token: 'FwoGZXIvYXdzEBYaDFAKE//token' }, bedrockSts);
    const events = await collect(chatModelFor(ctx, row).stream(hello));
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
    expect(bedrockSts.signatures[0]!.signedHeaders).toContain('x-amz-security-token');
    bedrockSts.signatures.length = 0;
  });

  it('a wrong secret key: AWS’s 403 InvalidSignatureException words, the secret not in them', async () => {
    bedrock.converse(BEDROCK_MODEL, { kind: 'reply', text: ['never sent'] });
    const row = { ...chatRow(), secretEnc: sealed({ secret_access_key: 'not-the-secret-key-0000000000' }) };
    const err = await failure(chatModelFor(ctx, row).stream(hello));
    expect(err).toMatchObject({ kind: 'auth', status: 403 });
    expect(err.message).toMatch(
      /^Amazon Bedrock rejected the API key \(HTTP 403\): The request signature we calculated does not match/,
    );
    expect(err.message).not.toContain('not-the-secret-key');
    bedrock.signatures.length = 0;
  });

  it('429 ThrottlingException: rate_limit with AWS’s words', async () => {
    bedrock.converse(BEDROCK_MODEL, { kind: 'error', status: 429, type: 'ThrottlingException' });
    const err = await failure(chatModelFor(ctx, chatRow()).stream(hello));
    expect(err).toMatchObject({ kind: 'rate_limit', status: 429 });
    expect(err.message).toBe(
      'Amazon Bedrock is rate-limiting requests: Too many requests, please wait before trying again.',
    );
    bedrock.signatures.length = 0;
  });

  it('an exception frame in the middle of the stream: unavailable, in AWS’s words', async () => {
    bedrock.converse(BEDROCK_MODEL, {
      kind: 'exception',
      type: 'throttlingException',
      message: 'Too many tokens, please wait before trying again.',
      text: ['Half an'],
    });
    const seen: string[] = [];
    const err = await failure(
      (async function* () {
        for await (const e of chatModelFor(ctx, chatRow()).stream(hello)) {
          if (e.type === 'text') seen.push(e.text);
          yield e;
        }
      })(),
    );
    expect(seen).toEqual(['Half an']);
    expect(err).toMatchObject({
      kind: 'unavailable',
      message: 'Amazon Bedrock stopped the answer: Too many tokens, please wait before trying again.',
    });
    bedrock.signatures.length = 0;
  });

  it('Titan Text Embeddings V2: one signed invoke per text, vectors and token counts', async () => {
    bedrock.embed({ kind: 'embeddings', usage: 2 }).embed({ kind: 'embeddings', usage: 3 });
    const model = embeddingModelFor(ctx, {
      modelKey: 'amazon-bedrock-titan-embed-text-v2',
      type: 'embedding',
      provider: 'amazon-bedrock',
      parameters: { region: AWS.region, access_key_id: AWS.accessKeyId, base_url: bedrock.baseUrl },
      secretEnc: sealed({ secret_access_key: AWS.secretAccessKey }),
    });
    const result = await model.embed(['first text', 'second text']);
    expect(result.vectors.map((v) => v.length)).toEqual([1024, 1024]);
    expect(result.usage).toEqual({ tokens: 5 });
    expect(bedrock.requests.map((r) => (r.body as { inputText: string }).inputText).sort()).toEqual([
      'first text',
      'second text',
    ]);
    bedrock.signatures.length = 0;
  });

  it('the outbound guard refuses a private endpoint URL before any connection', async () => {
    const err = await failure(chatModelFor(closedCtx, chatRow()).stream(hello));
    expect(err.kind).toBe('bad_request');
    expect(bedrock.requests).toHaveLength(0);
  });
});

describe('Ollama (native API)', () => {
  const chatRow = (apiKey?: string) => ({
    modelKey: 'ollama-chat',
    type: 'chat_completion',
    provider: 'ollama',
    parameters: { base_url: ollama.baseUrl, model: 'llama3.1:8b' },
    secretEnc: apiKey ? sealed({ api_key: apiKey }) : null,
  });

  it('streams NDJSON text; usage from prompt_eval_count / eval_count; temperature and limit in options', async () => {
    ollama.chat({ kind: 'reply', text: ['Hi', ' there', '!'], usage: { prompt: 26, completion: 3 } });
    const events = await collect(
      chatModelFor(ctx, chatRow()).stream({ ...hello, temperature: 0.3, maxTokens: 64 }),
    );
    expect(events).toEqual([
      { type: 'text', text: 'Hi' },
      { type: 'text', text: ' there' },
      { type: 'text', text: '!' },
      { type: 'finish', reason: 'stop', usage: { promptTokens: 26, completionTokens: 3 } },
    ]);
    const [req] = ollama.requests;
    expect(req!.path).toBe('/api/chat');
    expect(req!.body).toMatchObject({
      model: 'llama3.1:8b',
      stream: true,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hello there' },
      ],
      options: { temperature: 0.3, num_predict: 64 },
    });
  });

  it('a tool call (whole in one line), then the result sent back as a tool message', async () => {
    ollama.chat({
      kind: 'reply',
      toolCalls: [{ name: 'get_weather', arguments: { city: 'Bern' } }],
      usage: { prompt: 40, completion: 9 },
    });
    const first = await collect(chatModelFor(ctx, chatRow()).stream({ ...hello, tools: [weatherTool] }));
    expect(first).toEqual([
      {
        type: 'tool_call',
        call: { id: expect.any(String), name: 'get_weather', arguments: { city: 'Bern' } },
      },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 40, completionTokens: 9 } },
    ]);
    expect((ollama.requests[0]!.body as { tools: unknown }).tools).toEqual([
      {
        type: 'function',
        function: {
          name: 'get_weather',
          description: 'Current weather of a city',
          parameters: expect.objectContaining({ properties: { city: { type: 'string' } } }),
        },
      },
    ]);
    ollama.chat({ kind: 'reply', text: ['21 degrees.'] });
    await collect(chatModelFor(ctx, chatRow()).stream(toolRoundTrip));
    expect((ollama.requests[1]!.body as { messages: unknown[] }).messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: '',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: { city: 'Bern' } } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: '{"temp":21}' },
    ]);
  });

  it('an error as Ollama said it ({"error": "…"})', async () => {
    ollama.chat({ kind: 'error', status: 404 });
    const err = await failure(chatModelFor(ctx, chatRow()).stream(hello));
    expect(err).toMatchObject({ kind: 'bad_request', status: 404 });
    expect(err.message).toBe(
      `the Ollama server at ${ollama.baseUrl} refused the request (HTTP 404): model "llama3.1:8b" not found, try pulling it first`,
    );
  });

  it('401 and 429 (a key-protected server): auth and rate_limit with its words; the key as a bearer token', async () => {
    const guarded = await startFakeOllama({ apiKey: 'ollama-key-0123456789' });
    try {
      const row = {
        ...chatRow('wrong-key-0123456789'),
        parameters: { base_url: guarded.baseUrl, model: 'qwen3:8b' },
      };
      guarded.chat({ kind: 'reply', text: ['never sent'] });
      const denied = await failure(chatModelFor(ctx, row).stream(hello));
      expect(denied).toMatchObject({ kind: 'auth', status: 401 });
      expect(denied.message).toMatch(/rejected the API key \(HTTP 401\): unauthorized$/);
      expect(guarded.requests[0]!.headers.authorization).toBe('Bearer wrong-key-0123456789');

      guarded.chat({ kind: 'error', status: 429 });
      const limited = await failure(
        chatModelFor(ctx, { ...row, secretEnc: sealed({ api_key: 'ollama-key-0123456789' }) }).stream(hello),
      );
      expect(limited).toMatchObject({ kind: 'rate_limit', status: 429 });
      expect(limited.message).toContain('you have reached your hourly usage limit');
      expect(guarded.failures).toEqual([]);
    } finally {
      await guarded.close();
    }
  });

  it('a stream cut before its done line, or with a line that is not JSON, is bad_response', async () => {
    const line = (o: object) =>
      `${JSON.stringify({ model: 'llama3.1:8b', created_at: '2026-11-25T01:00:00Z', ...o })}\n`;
    const text = line({ message: { role: 'assistant', content: 'Half' }, done: false });
    ollama.chat({ kind: 'raw', body: text });
    const cut = await failure(chatModelFor(ctx, chatRow()).stream(hello));
    expect(cut.kind).toBe('bad_response');
    ollama.chat({ kind: 'raw', body: `${text}{"message": oops\n` });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      expect((await failure(chatModelFor(ctx, chatRow()).stream(hello))).kind).toBe('bad_response');
    } finally {
      warn.mockRestore();
    }
  });

  it('embeddings from /api/embed, usage from prompt_eval_count', async () => {
    ollama.embed({ kind: 'embeddings', vectors: [[0.1, 0.2, 0.3]], usage: 4 });
    const model = embeddingModelFor(ctx, {
      modelKey: 'ollama-embedding',
      type: 'embedding',
      provider: 'ollama',
      parameters: { base_url: ollama.baseUrl, model: 'nomic-embed-text', dimensions: 3 },
      secretEnc: null,
    });
    expect(await model.embed(['why is the sky blue'])).toEqual({
      vectors: [[0.1, 0.2, 0.3]],
      usage: { tokens: 4 },
    });
    expect(ollama.requests[0]).toMatchObject({
      path: '/api/embed',
      body: { model: 'nomic-embed-text', input: ['why is the sky blue'] },
    });
  });

  it('the outbound guard refuses the local server unless OUTBOUND_ALLOW opens it', async () => {
    const err = await failure(chatModelFor(closedCtx, chatRow()).stream(hello));
    expect(err.kind).toBe('bad_request');
    expect(ollama.requests).toHaveLength(0);
  });
});
