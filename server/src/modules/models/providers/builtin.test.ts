import { describe, expect, it } from 'vitest';
import { SecretBox } from '../../../platform/crypto';
import { OutboundGuard } from '../../../platform/outbound/guard';
import { DEMO_HINT, LexicalEmbeddingModel, lexicalVector, OfflineDemoChatModel } from './builtin';
import { chatModelFor, embeddingModelFor } from './index';
import type { ChatRequest, ChatStreamEvent, ToolSpec } from './types';

async function collect(stream: AsyncIterable<ChatStreamEvent>): Promise<ChatStreamEvent[]> {
  const out: ChatStreamEvent[] = [];
  for await (const e of stream) out.push(e);
  return out;
}

const tools: ToolSpec[] = [
  { name: 'get_weather', description: 'Weather', parameters: { type: 'object', properties: {} } },
  { name: 'lookup', description: 'Lookup', parameters: { type: 'object', properties: {} } },
];
const demo = new OfflineDemoChatModel();

describe('offline demo chat model (not AI)', () => {
  it('echoes the last user message in several chunks, then finishes with word-count usage', async () => {
    const events = await collect(
      demo.stream({
        messages: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: 'Hello little model' },
        ],
      }),
    );
    const text = events.filter((e) => e.type === 'text').map((e) => (e as { text: string }).text);
    expect(text.join('')).toBe(`You said: Hello little model\n${DEMO_HINT}`);
    expect(text.slice(0, 4)).toEqual(['You ', 'said: ', 'Hello ', 'little ']);
    expect(text.length).toBe(5 + DEMO_HINT.split(' ').length);
    expect(events.at(-1)).toEqual({
      type: 'finish',
      reason: 'stop',
      usage: { promptTokens: 6, completionTokens: 5 + DEMO_HINT.split(' ').length },
    });
  });

  it('is deterministic', async () => {
    const req: ChatRequest = { messages: [{ role: 'user', content: 'Same input' }] };
    expect(await collect(demo.stream(req))).toEqual(await collect(demo.stream(req)));
  });

  it('calls an offered tool on "/call <tool> {json}" and answers with the result afterwards', async () => {
    const first: ChatRequest = {
      tools,
      messages: [
        { role: 'system', content: 'sys' },
        { role: 'user', content: '/call get_weather {"city": "Bern", "days": 2}' },
      ],
    };
    expect(await collect(demo.stream(first))).toEqual([
      {
        type: 'tool_call',
        call: { id: 'demo_call_2', name: 'get_weather', arguments: { city: 'Bern', days: 2 } },
      },
      { type: 'finish', reason: 'tool_calls', usage: { promptTokens: 7, completionTokens: 2 } },
    ]);

    const second: ChatRequest = {
      tools,
      messages: [
        ...first.messages,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'demo_call_2', name: 'get_weather', arguments: { city: 'Bern', days: 2 } }],
        },
        { role: 'tool', toolCallId: 'demo_call_2', name: 'get_weather', content: '{"temp":21}' },
      ],
    };
    const events = await collect(demo.stream(second));
    const text = events
      .filter((e) => e.type === 'text')
      .map((e) => (e as { text: string }).text)
      .join('');
    expect(text).toBe('Tool get_weather returned: {"temp":21}');
    expect(events.at(-1)).toMatchObject({ type: 'finish', reason: 'stop' });
    expect(events.some((e) => e.type === 'tool_call')).toBe(false);
  });

  it('calls a tool with no arguments as {}', async () => {
    const events = await collect(
      demo.stream({ tools, messages: [{ role: 'user', content: '/call lookup' }] }),
    );
    expect(events[0]).toEqual({
      type: 'tool_call',
      call: { id: 'demo_call_1', name: 'lookup', arguments: {} },
    });
  });

  it('refuses a tool that is not offered, or arguments that are not a JSON object, in text', async () => {
    const text = async (content: string, offered = tools) =>
      (await collect(demo.stream({ tools: offered, messages: [{ role: 'user', content }] })))
        .filter((e) => e.type === 'text')
        .map((e) => (e as { text: string }).text)
        .join('');
    expect(await text('/call launch_rockets {}')).toBe(
      'I cannot call "launch_rockets": it is not offered. Available tools: get_weather, lookup.',
    );
    expect(await text('/call get_weather {}', [])).toBe(
      'I cannot call "get_weather": it is not offered. Available tools: none.',
    );
    expect(await text('/call get_weather {oops')).toBe(
      'I cannot call "get_weather": the arguments must be a JSON object.',
    );
    expect(await text('/call get_weather [1]')).toBe(
      'I cannot call "get_weather": the arguments must be a JSON object.',
    );
  });

  it('cuts the reply at maxTokens words with finish length', async () => {
    const events = await collect(
      demo.stream({ maxTokens: 3, messages: [{ role: 'user', content: 'one two three four' }] }),
    );
    expect(events).toEqual([
      { type: 'text', text: 'You ' },
      { type: 'text', text: 'said: ' },
      { type: 'text', text: 'one ' },
      { type: 'finish', reason: 'length', usage: { promptTokens: 4, completionTokens: 3 } },
    ]);
  });

  it('stops with the caller’s abort reason', async () => {
    const controller = new AbortController();
    const stream = demo.stream({
      signal: controller.signal,
      messages: [{ role: 'user', content: 'a b c d e f' }],
    });
    const seen: ChatStreamEvent[] = [];
    await expect(
      (async () => {
        for await (const e of stream) {
          seen.push(e);
          controller.abort(new Error('stop now'));
        }
      })(),
    ).rejects.toThrow('stop now');
    expect(seen).toEqual([{ type: 'text', text: 'You ' }]);
  });

  it('is what chatModelFor builds for the builtin catalogue entry (no key, no network)', async () => {
    const model = chatModelFor(
      { secretBox: new SecretBox(Buffer.alloc(32, 1)), outbound: new OutboundGuard({ allow: [] }) },
      {
        modelKey: 'builtin-offline-demo',
        type: 'chat_completion',
        provider: 'builtin',
        parameters: {},
        secretEnc: null,
      },
    );
    expect(model).toBeInstanceOf(OfflineDemoChatModel);
  });
});

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

describe('lexical embedding model', () => {
  const model = new LexicalEmbeddingModel();

  it('returns 384-dimensional, L2-normalised, deterministic vectors and counts words as tokens', async () => {
    const { vectors, usage } = await model.embed(['The quick brown fox', 'jumps over the lazy dog']);
    expect(model.dimensions).toBe(384);
    expect(vectors.map((v) => v.length)).toEqual([384, 384]);
    for (const v of vectors) expect(Math.sqrt(cosine(v, v))).toBeCloseTo(1, 10);
    expect(usage).toEqual({ tokens: 9 });
    expect((await model.embed(['The quick brown fox'])).vectors[0]).toEqual(vectors[0]);
  });

  it('puts similar texts closer than unrelated ones', () => {
    const a = lexicalVector('How do I reset my password?');
    const b = lexicalVector('Reset the password of my account');
    const c = lexicalVector('Opening hours of the bakery on Sunday');
    expect(cosine(a, b)).toBeGreaterThan(0.3);
    expect(cosine(a, b)).toBeGreaterThan(cosine(a, c) + 0.2);
  });

  it('ignores case, punctuation and accents; an empty text is the zero vector', () => {
    expect(lexicalVector('Zürich, CAFÉ!')).toEqual(lexicalVector('zurich cafe'));
    expect(lexicalVector('  ...  ').every((x) => x === 0)).toBe(true);
  });

  it('is what embeddingModelFor builds for the builtin catalogue entry', () => {
    const m = embeddingModelFor(
      { secretBox: new SecretBox(Buffer.alloc(32, 1)), outbound: new OutboundGuard({ allow: [] }) },
      {
        modelKey: 'builtin-lexical-embedding',
        type: 'embedding',
        provider: 'builtin',
        parameters: {},
        secretEnc: null,
      },
    );
    expect(m).toBeInstanceOf(LexicalEmbeddingModel);
    expect(m.dimensions).toBe(384);
  });
});
