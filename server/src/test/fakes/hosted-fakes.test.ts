/**
 * The fakes of Gemini, Mistral, Groq and DeepSeek on the wire, with plain fetch: their framing and the
 * places they differ, and a failure for anything they do not expect.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type FakeChatCompletions,
  type FakeGemini,
  type FakeMistral,
  startFakeDeepSeek,
  startFakeGemini,
  startFakeGroq,
  startFakeMistral,
} from './index';

let gemini: FakeGemini;
let mistral: FakeMistral;
let groq: FakeChatCompletions;
let deepseek: FakeChatCompletions;
beforeAll(async () => {
  [gemini, mistral, groq, deepseek] = await Promise.all([
    startFakeGemini({ apiKey: 'g-key' }),
    startFakeMistral({ apiKey: 'm-key' }),
    startFakeGroq({ apiKey: 'q-key' }),
    startFakeDeepSeek(),
  ]);
});
afterAll(async () => {
  await Promise.all([gemini, mistral, groq, deepseek].map((f) => f?.close()));
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** A response's JSON body, untyped like the wire. */
const json = async (res: Response) => JSON.parse(await res.text());

/** The JSON payloads of an SSE body (comments and `[DONE]` left out). */
const events = (text: string, separator = '\n\n') =>
  text
    .split(separator)
    .filter((e) => e.startsWith('data: ') && e !== 'data: [DONE]')
    .map((e) => JSON.parse(e.slice('data: '.length)));

describe('fake Gemini', () => {
  const url = (method: string, model = 'gemini-3.8-flash') => `${gemini.baseUrl}/models/${model}:${method}`;
  const key = { 'x-goog-api-key': 'g-key' };

  it('streams GenerateContentResponses as SSE with CRLF framing; usage and finish on the last', async () => {
    gemini.stream({ kind: 'reply', text: ['A', 'B'], usage: { prompt: 4, candidates: 2, thoughts: 3 } });
    const res = await post(`${url('streamGenerateContent')}?alt=sse`, { contents: [] }, key);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.endsWith('\r\n\r\n')).toBe(true);
    const [first, last] = events(text, '\r\n\r\n');
    expect(first.candidates[0]).toEqual({ content: { parts: [{ text: 'A' }], role: 'model' }, index: 0 });
    expect(last.candidates[0]).toMatchObject({ content: { parts: [{ text: 'B' }] }, finishReason: 'STOP' });
    expect(last.usageMetadata).toEqual({
      promptTokenCount: 4,
      candidatesTokenCount: 2,
      thoughtsTokenCount: 3,
      totalTokenCount: 9,
    });
    gemini.expectNoFailures();
  });

  it('answers generateContent with one JSON response carrying the function calls', async () => {
    gemini.generate({
      kind: 'reply',
      toolCalls: [{ id: 'fc1', name: 'weather', arguments: { city: 'Bern' } }],
    });
    const body = await json(await post(url('generateContent'), { contents: [] }, key));
    expect(body.candidates[0].content.parts).toEqual([
      {
        functionCall: { id: 'fc1', name: 'weather', args: { city: 'Bern' } },
        thoughtSignature: expect.any(String),
      },
    ]);
    gemini.expectNoFailures();
  });

  it('refuses keys like Google: missing 403, wrong 400 API_KEY_INVALID', async () => {
    gemini.generate({ kind: 'reply', text: ['x'] }).generate({ kind: 'reply', text: ['x'] });
    const missing = await post(url('generateContent'), {});
    expect(missing.status).toBe(403);
    expect((await json(missing)).error.status).toBe('PERMISSION_DENIED');
    const wrong = await post(url('generateContent'), {}, { 'x-goog-api-key': 'nope' });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error.details[0].reason).toBe('API_KEY_INVALID');
    gemini.expectNoFailures();
  });

  it('fails a stream request without alt=sse, another model, and a Gemini 3 call replayed unsigned', async () => {
    gemini.stream({ kind: 'reply', text: ['x'] });
    expect((await post(url('streamGenerateContent'), {}, key)).status).toBe(500);
    expect((await post(url('generateContent', 'gemini-2.0-flash'), {}, key)).status).toBe(500);
    expect(gemini.failures).toEqual([
      'POST /v1beta/models/gemini-3.8-flash:streamGenerateContent: responder threw expected alt=sse, got {}',
      'unexpected request POST /v1beta/models/gemini-2.0-flash:generateContent',
    ]);
    gemini.failures.length = 0;

    gemini.generate({ kind: 'reply', text: ['x'] });
    const unsigned = await post(
      url('generateContent'),
      { contents: [{ role: 'model', parts: [{ functionCall: { name: 'weather', args: {} } }] }] },
      key,
    );
    expect(unsigned.status).toBe(400);
    expect((await json(unsigned)).error.message).toMatch(/^Function call is missing a thought_signature/);
  });
});

describe('fake chat-completions dialects', () => {
  const toolCall = { id: 'Ab3dEf7hI', name: 'weather', arguments: { city: 'Bern' } };

  it('Mistral: a tool call whole in one delta, usage on the finish chunk, no separate usage chunk', async () => {
    mistral.chat({ kind: 'reply', toolCalls: [toolCall], usage: { prompt: 5, completion: 7 } });
    const res = await post(
      `${mistral.baseUrl}/chat/completions`,
      { stream: true },
      { authorization: 'Bearer m-key' },
    );
    const chunks = events(await res.text());
    const calls = chunks.flatMap((c) => c.choices[0].delta.tool_calls ?? []);
    expect(calls).toEqual([
      {
        index: 0,
        id: 'Ab3dEf7hI',
        type: 'function',
        function: { name: 'weather', arguments: '{"city":"Bern"}' },
      },
    ]);
    expect(chunks.at(-1)).toMatchObject({
      choices: [{ finish_reason: 'tool_calls' }],
      usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 },
    });
    mistral.expectNoFailures();
  });

  it('Mistral: a wrong key is its gateway’s 401 {"detail"}, a foreign tool call id its 400', async () => {
    mistral.chat({ kind: 'reply', text: ['x'] }).chat({ kind: 'reply', text: ['x'] });
    const wrong = await post(`${mistral.baseUrl}/chat/completions`, {}, { authorization: 'Bearer other' });
    expect([wrong.status, await json(wrong)]).toEqual([401, { detail: 'Unauthorized' }]);
    const foreign = await post(
      `${mistral.baseUrl}/chat/completions`,
      { messages: [{ role: 'tool', tool_call_id: 'call_123', content: 'x' }] },
      { authorization: 'Bearer m-key' },
    );
    expect(foreign.status).toBe(400);
    expect(await json(foreign)).toMatchObject({ type: 'invalid_function_call', code: '3280' });
    mistral.expectNoFailures();
  });

  it('Groq: usage in x_groq on the finish chunk', async () => {
    groq.chat({ kind: 'reply', text: ['Hi'], usage: { prompt: 3, completion: 1 } });
    const res = await post(
      `${groq.baseUrl}/chat/completions`,
      { stream: true },
      { authorization: 'Bearer q-key' },
    );
    const last = events(await res.text()).at(-1);
    expect(last.x_groq.usage).toEqual({ prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 });
    expect(last.usage).toBeUndefined();
    expect(groq.requests[0]!.path).toBe('/openai/v1/chat/completions');
    groq.expectNoFailures();
  });

  it('DeepSeek: keep-alive comments, arguments in fragments; refuses unreplayed reasoning in thinking mode', async () => {
    deepseek.chat({ kind: 'reply', toolCalls: [toolCall] });
    const text = await (await post(`${deepseek.baseUrl}/chat/completions`, { stream: true })).text();
    expect(text.startsWith(': keep-alive\n\n')).toBe(true);
    const args = events(text).flatMap((c) =>
      (c.choices[0].delta.tool_calls ?? []).map(
        (t: { function: { arguments: string } }) => t.function.arguments,
      ),
    );
    expect(args.length).toBeGreaterThan(1);
    expect(args.join('')).toBe('{"city":"Bern"}');

    const replay = { messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'c1' }] }] };
    deepseek.chat({ kind: 'reply', text: ['x'] }).chat({ kind: 'reply', text: ['ok'] });
    const thinking = await post(`${deepseek.baseUrl}/chat/completions`, replay);
    expect(thinking.status).toBe(400);
    expect((await json(thinking)).error.message).toBe(
      'The reasoning_content in the thinking mode must be passed back to the API.',
    );
    const off = await post(`${deepseek.baseUrl}/chat/completions`, {
      ...replay,
      thinking: { type: 'disabled' },
    });
    expect(off.status).toBe(200);
    deepseek.expectNoFailures();
  });

  it('fail on routes the provider does not have and on unscripted calls', async () => {
    expect((await post(`${groq.http.url}/v1/chat/completions`, {})).status).toBe(500);
    expect((await post(`${deepseek.baseUrl}/chat/completions`, {})).status).toBe(500);
    expect(groq.failures).toEqual(['unexpected request POST /v1/chat/completions']);
    expect(deepseek.failures).toEqual(['no scripted response left for POST /chat/completions']);
    groq.failures.length = 0;
    deepseek.failures.length = 0;
  });
});
