import { AwsV4Signer } from 'aws4fetch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeAnthropic,
  type FakeOpenAI,
  startFakeAnthropic,
  startFakeAzureOpenAI,
  startFakeBedrock,
  startFakeOpenAI,
} from './index';

let openai: FakeOpenAI;
let anthropic: FakeAnthropic;
beforeAll(async () => {
  openai = await startFakeOpenAI({ apiKey: 'sk-1' });
  anthropic = await startFakeAnthropic();
});
afterAll(async () => {
  await openai?.close();
  await anthropic?.close();
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('fake servers', () => {
  it('answer 500 and record a failure for unexpected routes and unscripted calls', async () => {
    const a = await post(`${openai.http.url}/v1/responses`, {});
    expect(a.status).toBe(500);
    const b = await post(
      `${openai.baseUrl}/chat/completions`,
      { stream: true },
      { authorization: 'Bearer sk-1' },
    );
    expect(b.status).toBe(500);
    const c = await fetch(`${anthropic.baseUrl}/messages`, { method: 'POST', body: '{oops' });
    expect(c.status).toBe(500);
    expect(openai.failures).toEqual([
      'unexpected request POST /v1/responses',
      'no scripted response left for POST /v1/chat/completions',
    ]);
    expect(anthropic.failures).toEqual(['POST /v1/messages: body is not JSON: {oops']);
    expect(() => openai.expectNoFailures()).toThrow('unexpected request POST /v1/responses');
    openai.failures.length = 0;
    anthropic.failures.length = 0;
  });

  it('speaks OpenAI SSE: content deltas, tool call fragments, usage only when asked, [DONE]', async () => {
    openai.chat({
      kind: 'reply',
      text: ['A', 'B'],
      toolCalls: [{ id: 'c1', name: 't', arguments: { x: 1 } }],
      usage: { prompt: 4, completion: 2 },
    });
    const res = await post(
      `${openai.baseUrl}/chat/completions`,
      { model: 'm', stream: true, stream_options: { include_usage: true } },
      { authorization: 'Bearer sk-1' },
    );
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const events = (await res.text()).split('\n\n').filter(Boolean);
    expect(events.at(-1)).toBe('data: [DONE]');
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice('data: '.length)));
    const content = chunks.map((c) => c.choices[0]?.delta?.content).filter((x) => x);
    expect(content).toEqual(['A', 'B']);
    const args = chunks
      .flatMap((c) => c.choices[0]?.delta?.tool_calls ?? [])
      .map((t: { function: { arguments: string } }) => t.function.arguments)
      .join('');
    expect(args).toBe('{"x":1}');
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({
      choices: [],
      usage: { prompt_tokens: 4, completion_tokens: 2, total_tokens: 6 },
    });

    openai.chat({ kind: 'reply', text: ['x'] });
    const noUsage = await post(
      `${openai.baseUrl}/chat/completions`,
      { stream: true },
      { authorization: 'Bearer sk-1' },
    );
    expect(await noUsage.text()).not.toContain('usage');
    openai.expectNoFailures();
  });

  it('refuses a wrong OpenAI key with a real 401 body, consuming the scripted answer', async () => {
    openai.chat({ kind: 'reply', text: ['x'] });
    const res = await post(
      `${openai.baseUrl}/chat/completions`,
      { stream: true },
      { authorization: 'Bearer nope' },
    );
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
    expect(openai.pending()).toBe(0);
  });

  it('speaks Anthropic SSE event names in order', async () => {
    anthropic.messages({
      kind: 'reply',
      text: ['Hi'],
      toolCalls: [{ id: 'tu', name: 't', arguments: { a: 'b' } }],
    });
    const res = await post(`${anthropic.baseUrl}/messages`, { model: 'c', stream: true });
    const names = (await res.text())
      .split('\n\n')
      .filter(Boolean)
      .map((e) => e.split('\n')[0]);
    expect(names).toEqual([
      'event: message_start',
      'event: content_block_start',
      'event: ping',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: content_block_start',
      'event: content_block_delta',
      'event: content_block_delta',
      'event: content_block_delta',
      'event: content_block_stop',
      'event: message_delta',
      'event: message_stop',
    ]);
    anthropic.expectNoFailures();
  });
});

describe('the provider fakes’ model lists', () => {
  it('Bedrock: a list request with a query its operation does not take, or unsigned, is a failure', async () => {
    const aws = { region: 'eu-central-1', accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 's3cr3t' };
    const bedrock = await startFakeBedrock(aws, []);
    try {
      bedrock.foundationModels([{ modelId: 'amazon.nova-pro-v1:0' }]).inferenceProfiles([]);
      const signed = async (url: string) => {
        const { headers } = await new AwsV4Signer({ url, service: 'bedrock', ...aws }).sign();
        return fetch(url, { headers });
      };
      const filtered = await signed(`${bedrock.baseUrl}/foundation-models?byOutputModality=IMAGE`);
      expect(await filtered.json()).toEqual({ modelSummaries: [] });
      expect((await fetch(`${bedrock.baseUrl}/inference-profiles`)).status).toBe(400);
      bedrock.inferenceProfiles([]);
      expect((await signed(`${bedrock.baseUrl}/inference-profiles?typeEquals=SYSTEM_DEFINED`)).status).toBe(
        400,
      );
      expect(bedrock.failures).toEqual([
        '/inference-profiles: not a SigV4 Authorization header: undefined',
        '/inference-profiles: unexpected query typeEquals',
      ]);
    } finally {
      await bedrock.close();
    }
  });

  it('Azure: the list at another api-version is its 404 and a failure', async () => {
    const azure = await startFakeAzureOpenAI({ apiKey: 'k', deployment: 'd', apiVersion: '2024-10-21' });
    try {
      azure.models(['gpt-4o']);
      const res = await fetch(`${azure.baseUrl}/models?api-version=2024-06-01`, {
        headers: { 'api-key': 'k' },
      });
      expect(res.status).toBe(404);
      expect(azure.failures).toHaveLength(1);
    } finally {
      await azure.close();
    }
  });
});
