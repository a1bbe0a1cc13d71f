import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { AppError } from '../../platform/errors';
import { createTestServer, makeVendor, type TestServer } from '../../test/harness';
import type { ReplySink } from '../conversations/ports';
import { listMessages, type MessageRow } from '../conversations/repo';
import { ProviderError } from '../models/providers/types';
import type { VendorRow } from '../vendors/repo';
import { MAX_TOOL_ROUNDS, NO_MODEL_TEXT, TOO_MANY_ROUNDS_TEXT } from './chat';
import { UNEXPECTED_ERROR_TEXT } from './engine';
import { contextWindow, HISTORY_MAX_MESSAGES } from './input';
import { NO_SCRIPT_TEXT } from './silicon';
import {
  call,
  FakeTools,
  finish,
  ModelChoice,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  RecordingRelay,
  ScriptedModel,
  type Step,
  ToolChoice,
  text,
} from './testing';
import { noTools } from './types';

let server: TestServer;
let vendor: VendorRow;
const relay = new RecordingRelay();
const models = new ModelChoice();
const tools = new ToolChoice(noTools);
/** A test server with this suite's fakes. */
const fakedServer = (env?: Record<string, string>) =>
  createTestServer({ env, relay, engine: { resolveModel: models.resolve, tools } });

beforeAll(async () => {
  server = await fakedServer();
  vendor = await makeVendor(server.ctx);
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  relay.clear();
  tools.use(noTools);
});

function useModel(turns: Step[][]): ScriptedModel {
  const model = new ScriptedModel(turns);
  models.use(model);
  return model;
}

/** `on`: another server than the suite's (its own vendor). */
async function setup(
  opts: {
    type?: string;
    parameters?: Record<string, unknown>;
    cost?: number;
    noModel?: boolean;
    on?: TestServer;
  } = {},
) {
  const on = opts.on ?? server;
  const owner = opts.on ? await makeVendor(on.ctx) : vendor;
  const vm = await makeVendorModel(on.ctx, owner, { costPer1kMinor: opts.cost ?? 0 });
  const app = await makeChatApp(on.ctx, owner, {
    type: opts.type,
    parameters: opts.parameters,
    model: opts.noModel ? null : vm,
  });
  const conversation = await makeConversation(on.ctx, app);
  const send = (content: string, posterSocket?: string) =>
    on.ctx.completion.start(on.ctx, { app, conversation, content, posterSocket });
  const stored = async () =>
    (await listMessages(on.ctx.db, owner.id, conversation.id)).map((m) => ({
      role: m.role,
      creator: m.creator,
      message: m.message,
      function_calls: m.functionCalls,
      function_response: m.functionResponse,
    }));
  const types = () =>
    relay
      .of(conversation.token)
      .map((e) => e.type)
      .filter((t) => t !== 'debug');
  return { vm, app, conversation, send, stored, types };
}

const msg = (role: string, message: string | null, extra: Record<string, unknown> = {}) => ({
  role,
  creator: role === 'user' ? 'user' : 'system',
  message,
  function_calls: [],
  function_response: null,
  ...extra,
});

describe('completion engine', () => {
  it("tells the request's own sinks every typed event of the reply, in order, after the room", async () => {
    useModel([[text('Hel'), text('lo'), finish()]]);
    const { app, conversation } = await setup();
    const heard: string[] = [];
    let roomHeard = 0;
    const sink: ReplySink = {
      event: (event) => {
        // The room (the relay sink) heard each event first.
        const room = relay.of(conversation.token).length;
        expect(room, event.kind).toBeGreaterThan(roomHeard);
        roomHeard = room;
        if (event.kind !== 'debug') heard.push(event.kind === 'text' ? `text ${event.chunk}` : event.kind);
      },
    };
    await server.ctx.completion.start(server.ctx, { app, conversation, content: 'Hi', sinks: [sink] });
    expect(heard).toEqual(['started', 'user_input', 'text Hel', 'text lo', 'finished', 'ended']);
  });

  it('streams text in order, stores user and assistant messages and builds the chat input', async () => {
    const model = useModel([[text('Hel'), text('lo'), text(''), text('!'), finish()]]);
    const { conversation, send, stored } = await setup({
      parameters: {
        system_prompt: 'You are terse.',
        sample_conversation: [
          { role: 'user', message: 'Ping?' },
          { role: 'assistant', message: 'Pong.' },
          { role: 'system', message: 'ignored' },
        ],
        temperature: 0.3,
      },
    });
    await send('Hi there', 'sockA');

    const events = relay.of(conversation.token).filter((e) => e.type !== 'debug');
    expect(events.map((e) => [e.type, e.data, e.opts])).toEqual([
      ['completion.started', { input_async: true }, { except: 'sockA' }],
      ['completion.started', { input_async: false }, { only: 'sockA' }],
      [
        'user_input',
        { message: expect.objectContaining({ role: 'user', message: 'Hi there' }) },
        { except: 'sockA' },
      ],
      ['completion_stream', { chunk: 'Hel' }, {}],
      ['completion_stream', { chunk: 'lo' }, {}],
      ['completion_stream', { chunk: '!' }, {}],
      ['completion.finished', { input_async: true }, { except: 'sockA' }],
      ['completion.finished', { input_async: false }, { only: 'sockA' }],
      ['completion.ended', {}, {}],
    ]);
    const debug = Object.assign(
      {},
      ...relay
        .of(conversation.token)
        .filter((e) => e.type === 'debug')
        .map((e) => e.data),
    );
    expect(debug).toMatchObject({ app_type: 'chatbot', tokens_prompt: 10, tokens_completion: 5 });
    expect(typeof debug.took_ms).toBe('number');

    expect(await stored()).toEqual([msg('user', 'Hi there'), msg('assistant', 'Hello!')]);
    expect(model.requests).toEqual([
      {
        messages: [
          { role: 'system', content: 'You are terse.' },
          { role: 'user', content: 'Ping?' },
          { role: 'assistant', content: 'Pong.' },
          { role: 'user', content: 'Hi there' },
        ],
        temperature: 0.3,
      },
    ]);
  });

  it('gives the model only the newest history that fits the context window, however long the conversation', async () => {
    const model = useModel([[text('ok'), finish()]]);
    const { conversation, send } = await setup();
    const stored = HISTORY_MAX_MESSAGES + 100;
    await server.ctx.db.insert(schema.messages).values(
      Array.from({ length: stored }, (_, i) => ({
        vendorId: vendor.id,
        conversationId: conversation.id,
        role: i % 2 ? 'assistant' : 'user',
        creator: i % 2 ? 'system' : 'user',
        message: `old message ${i}`,
      })),
    );
    await send('The newest question');
    const sent = model.requests[0]!.messages;
    expect(sent.length).toBeLessThanOrEqual(HISTORY_MAX_MESSAGES);
    expect(sent.at(-1)).toEqual({ role: 'user', content: 'The newest question' });
    // The newest stored messages, in order, without a gap; the oldest are left out.
    const texts = sent.map((m) => m.content);
    expect(texts.at(-2)).toBe(`old message ${stored - 1}`);
    expect(texts).not.toContain('old message 0');
    const firstKept = Number(/\d+$/.exec(texts[0]!)![0]);
    expect(texts.slice(0, -1)).toEqual(
      Array.from({ length: stored - firstKept }, (_, i) => `old message ${firstKept + i}`),
    );
  });

  it('cuts the history at the token budget, always keeping the newest message', () => {
    const row = (id: number, chars: number) =>
      ({ id, role: 'user', message: 'x'.repeat(chars), functionCalls: [] }) as unknown as MessageRow;
    const history = [row(1, 400), row(2, 400), row(3, 400)]; // ~104 estimated tokens each
    expect(contextWindow(history, 250).map((m) => m.id)).toEqual([2, 3]);
    expect(contextWindow(history, 1000).map((m) => m.id)).toEqual([1, 2, 3]);
    expect(contextWindow([row(9, 100_000)], 250).map((m) => m.id)).toEqual([9]);
    expect(contextWindow([], 250)).toEqual([]);
  });

  it('sends input_async true to everyone when no poster socket is known', async () => {
    useModel([[text('ok'), finish()]]);
    const { conversation, send } = await setup();
    await send('hello');
    const flags = relay
      .of(conversation.token)
      .filter((e) => e.type === 'completion.started' || e.type === 'completion.finished')
      .map((e) => [e.type, e.data, e.opts]);
    expect(flags).toEqual([
      ['completion.started', { input_async: true }, { except: undefined }],
      ['completion.finished', { input_async: true }, { except: undefined }],
    ]);
  });

  it('runs tool calls in rounds: begin/end per call, iteration per round, tool messages stored', async () => {
    const model = useModel([
      [text('Let me check.'), call('c1', 'weather', { city: 'Bern' }), finish(undefined, 'tool_calls')],
      [call('c2', 'weather', { city: 'Zurich' }), call('c3', 'clock'), finish(undefined, 'tool_calls')],
      [text('Sunny everywhere.'), finish()],
      [text('Still sunny.'), finish()],
    ]);
    const weather = new FakeTools(
      [{ name: 'weather', description: 'Weather', parameters: { type: 'object' } }],
      (c) =>
        c.name === 'clock'
          ? { result: { error: 'broken' }, status: -1 }
          : { result: { city: (c.arguments as { city: string }).city, temp: 21 }, status: 1 },
    );
    tools.use(weather);
    const { conversation, send, stored } = await setup();
    await send('Weather?');

    const events = relay.of(conversation.token).filter((e) => e.type !== 'debug' && e.type !== 'user_input');
    expect(events.map((e) => [e.type, e.data])).toEqual([
      ['completion.started', { input_async: true }],
      ['completion_stream', { chunk: 'Let me check.' }],
      ['function_call.begin', { id: 'c1', name: 'weather', arguments: { city: 'Bern' } }],
      ['function_call.end', { id: 'c1', name: 'weather', result: { city: 'Bern', temp: 21 }, status: 1 }],
      ['function_call_iteration', { iteration: 1 }],
      ['function_call.begin', { id: 'c2', name: 'weather', arguments: { city: 'Zurich' } }],
      ['function_call.end', { id: 'c2', name: 'weather', result: { city: 'Zurich', temp: 21 }, status: 1 }],
      ['function_call.begin', { id: 'c3', name: 'clock', arguments: {} }],
      ['function_call.end', { id: 'c3', name: 'clock', result: { error: 'broken' }, status: -1 }],
      ['function_call_iteration', { iteration: 2 }],
      ['completion_stream', { chunk: 'Sunny everywhere.' }],
      ['completion.finished', { input_async: true }],
      ['completion.ended', {}],
    ]);
    expect(weather.calls.map((c) => [c.call.id, c.conversationId])).toEqual([
      ['c1', conversation.id],
      ['c2', conversation.id],
      ['c3', conversation.id],
    ]);
    expect(await stored()).toEqual([
      msg('user', 'Weather?'),
      msg('assistant', 'Let me check.', {
        function_calls: [{ id: 'c1', name: 'weather', arguments: { city: 'Bern' } }],
      }),
      msg('tool', '{"city":"Bern","temp":21}', { function_response: 'c1' }),
      msg('assistant', '', {
        function_calls: [
          { id: 'c2', name: 'weather', arguments: { city: 'Zurich' } },
          { id: 'c3', name: 'clock', arguments: {} },
        ],
      }),
      msg('tool', '{"city":"Zurich","temp":21}', { function_response: 'c2' }),
      msg('tool', '{"error":"broken"}', { function_response: 'c3' }),
      msg('assistant', 'Sunny everywhere.'),
    ]);
    // The second model turn sees the first round's call and result; tools are offered every turn.
    expect(model.requests[1]!.messages.slice(-3)).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Bern' } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'weather', content: '{"city":"Bern","temp":21}' },
    ]);
    expect(model.requests.map((r) => r.tools?.map((t) => t.name))).toEqual([
      ['weather'],
      ['weather'],
      ['weather'],
    ]);
    const usage = await server.ctx.db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, conversation.id));
    expect(usage).toHaveLength(3);

    // The next reply reads the rounds back from the database, each call with its answer, in order.
    await send('And now?');
    expect(model.requests[3]!.messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Let me check.',
        toolCalls: [{ id: 'c1', name: 'weather', arguments: { city: 'Bern' } }],
      },
      { role: 'tool', toolCallId: 'c1', name: 'weather', content: '{"city":"Bern","temp":21}' },
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          { id: 'c2', name: 'weather', arguments: { city: 'Zurich' } },
          { id: 'c3', name: 'clock', arguments: {} },
        ],
      },
      { role: 'tool', toolCallId: 'c2', name: 'weather', content: '{"city":"Zurich","temp":21}' },
      { role: 'tool', toolCallId: 'c3', name: 'clock', content: '{"error":"broken"}' },
      { role: 'assistant', content: 'Sunny everywhere.' },
      { role: 'user', content: 'And now?' },
    ]);
  });

  it('keeps the partial text and stores an error message when the provider fails mid-stream', async () => {
    const model = useModel([
      [
        text('Partial '),
        text('answer'),
        { type: 'throw', error: new ProviderError('rate_limit', 'OpenAI is rate limiting requests.') },
      ],
      [text('Second try'), finish()],
    ]);
    const { conversation, send, stored, types } = await setup();
    await send('Question');
    expect(types()).toEqual([
      'completion.started',
      'user_input',
      'completion_stream',
      'completion_stream',
      'completion.finished',
      'completion.ended',
    ]);
    expect(await stored()).toEqual([
      msg('user', 'Question'),
      msg('assistant', 'Partial answer'),
      msg('error', 'The model could not answer: OpenAI is rate limiting requests.'),
    ]);
    // The error message is not shown to the model next time; the partial answer is.
    await send('Again');
    expect(model.requests[1]!.messages).toEqual([
      { role: 'user', content: 'Question' },
      { role: 'assistant', content: 'Partial answer' },
      { role: 'user', content: 'Again' },
    ]);
    const usage = await server.ctx.db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, conversation.id));
    expect(usage).toHaveLength(1);
  });

  it('answers an unexpected error with a generic error message and no partial text when none streamed', async () => {
    useModel([[{ type: 'throw', error: new Error('socket hang up at 10.0.0.1') }]]);
    const { send, stored, types } = await setup();
    await send('Q');
    expect(await stored()).toEqual([msg('user', 'Q'), msg('error', UNEXPECTED_ERROR_TEXT)]);
    expect(types().slice(-2)).toEqual(['completion.finished', 'completion.ended']);
  });

  it('stops after the round bound with an error message', async () => {
    const turns: Step[][] = Array.from({ length: MAX_TOOL_ROUNDS + 1 }, (_, i) => [
      call(`c${i}`, 'loop'),
      finish(undefined, 'tool_calls'),
    ]);
    const model = useModel(turns);
    const loop = new FakeTools([{ name: 'loop', description: '', parameters: {} }], () => ({
      result: 1,
      status: 1,
    }));
    tools.use(loop);
    const { conversation, send, stored } = await setup();
    await send('Loop');
    expect(model.requests).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(loop.calls).toHaveLength(MAX_TOOL_ROUNDS);
    const iterations = relay
      .of(conversation.token)
      .filter((e) => e.type === 'function_call_iteration')
      .map((e) => e.data);
    expect(iterations).toEqual([1, 2, 3, 4, 5].map((iteration) => ({ iteration })));
    const rows = await stored();
    expect(rows.at(-1)).toEqual(msg('error', TOO_MANY_ROUNDS_TEXT));
    expect(rows.filter((r) => r.role === 'tool')).toHaveLength(MAX_TOOL_ROUNDS);
    expect(rows.filter((r) => r.role === 'assistant')).toHaveLength(MAX_TOOL_ROUNDS);
  });

  it('lets running replies finish within the drain when stopping, then stops the rest, which store their error', async () => {
    const quick = await setup();
    const slow = await setup();
    const byModel = new Map([
      [quick.vm.id, new ScriptedModel([[{ type: 'delay', ms: 50 }, text('Done'), finish()]])],
      [slow.vm.id, new ScriptedModel([[text('Thinking'), { type: 'hang' }]])],
    ]);
    models.use((_ctx, row) => byModel.get(row.id)!);
    const sent = [quick.send('Quick?'), slow.send('Slow?')];
    await server.ctx.completion.close(server.ctx.log, 2_000);
    await Promise.all(sent);
    expect(await quick.stored()).toEqual([msg('user', 'Quick?'), msg('assistant', 'Done')]);
    expect(await slow.stored()).toEqual([
      msg('user', 'Slow?'),
      msg('assistant', 'Thinking'),
      msg('error', 'The server is shutting down; the reply was stopped.'),
    ]);
    expect(server.ctx.completion.isRunning(slow.conversation.id)).toBe(false);
  });

  it('gives up on a model that hangs and ignores the abort signal', async () => {
    useModel([[text('Thinking'), { type: 'hang' }]]);
    const impatient = await fakedServer({ COMPLETION_TIMEOUT_MS: '300' });
    try {
      const { send, stored, types } = await setup({ on: impatient });
      const started = Date.now();
      await send('Q');
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(await stored()).toEqual([
        msg('user', 'Q'),
        msg('assistant', 'Thinking'),
        msg('error', 'The model did not finish its answer within 0.3 seconds.'),
      ]);
      expect(types().slice(-2)).toEqual(['completion.finished', 'completion.ended']);
    } finally {
      await impatient.close();
    }
  });

  it('answers without a model request when the app has no completion model, or is a silicon app without a script', async () => {
    const model = useModel([]);
    const a = await setup({ noModel: true });
    await a.send('Q');
    expect(await a.stored()).toEqual([msg('user', 'Q'), msg('error', NO_MODEL_TEXT)]);
    expect(a.types()).toEqual([
      'completion.started',
      'user_input',
      'completion.finished',
      'completion.ended',
    ]);
    const s = await setup({ type: 'silicon' });
    await s.send('Q');
    expect(await s.stored()).toEqual([msg('user', 'Q'), msg('error', NO_SCRIPT_TEXT)]);
    expect(model.requests).toHaveLength(0);
  });

  it('builds a oneshot prompt from the template, with no history', async () => {
    const model = useModel([
      [text('Hallo'), finish()],
      [text('Welt'), finish()],
    ]);
    const { send } = await setup({
      type: 'oneshot',
      parameters: {
        prompt_template: 'Translate into {{target_language}}: {{ input }} ($& stays)',
        target_language: 'German',
        temperature: 0,
      },
    });
    await send('Hello');
    await send('World {{target_language}}');
    expect(model.requests).toEqual([
      { messages: [{ role: 'user', content: 'Translate into German: Hello ($& stays)' }], temperature: 0 },
      {
        messages: [{ role: 'user', content: 'Translate into German: World {{target_language}} ($& stays)' }],
        temperature: 0,
      },
    ]);
  });

  it('records usage per model request with cost = tokens / 1000 × cost per 1k, rounded', async () => {
    useModel([[text('x'), finish({ promptTokens: 1000, completionTokens: 234 })]]);
    const { app, vm, conversation, send } = await setup({ cost: 250 });
    await send('Q');
    const rows = await server.ctx.db
      .select()
      .from(schema.usageRecords)
      .where(eq(schema.usageRecords.conversationId, conversation.id));
    expect(rows.map((r) => ({ ...r, id: 0, createdAt: null }))).toEqual([
      {
        id: 0,
        createdAt: null,
        vendorId: vendor.id,
        appId: app.id,
        vendorModelId: vm.id,
        conversationId: conversation.id,
        tokensPrompt: 1000,
        tokensCompletion: 234,
        requests: 1,
        costMinor: 309, // 1.234 × 250 = 308.5 → 309
      },
    ]);
  });

  it('refuses a second send while a reply runs in the same conversation (409)', async () => {
    useModel([
      [{ type: 'delay', ms: 150 }, text('slow'), finish()],
      [text('next'), finish()],
    ]);
    const { send, stored } = await setup();
    const first = send('one');
    let error: unknown;
    try {
      await send('two');
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).name).toBe('Conflict');
    await first;
    await send('three');
    expect((await stored()).map((m) => m.message)).toEqual(['one', 'slow', 'three', 'next']);
  });
});
