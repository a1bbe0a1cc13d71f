import type { Conversation, ConversationPage, Message } from '@llmor/contracts';
import { RELAY_LOG_CAP } from '@llmor/contracts';
import { describe, expect, it } from 'vitest';
import {
  type ConversationAction,
  type ConversationState,
  conversationReducer,
  initialConversationState,
  showInProgress,
} from './conversation';
import { localMessage } from './messages';

const NOW = '2025-01-01T00:00:00.000Z';

function stored(
  id: number,
  role: Message['role'],
  message: string | null,
  extra: Partial<Message> = {},
): Message {
  return {
    id,
    role,
    creator: role === 'user' ? 'user' : 'system',
    message,
    created_at: NOW,
    has_been_modified: false,
    versions: [],
    function_calls: [],
    function_response: null,
    sources: [],
    ...extra,
  };
}

const relay = (type: string, data: unknown = {}): ConversationAction => ({
  type: 'relay',
  message: { type, data },
  now: NOW,
});

const TOKEN = 'a';

const conversation = (token = TOKEN, state: Record<string, unknown> = {}): Conversation => ({
  id: 1,
  token,
  created_at: NOW,
  vendor_app_id: 7,
  channel: 'management',
  parameters: {},
  relay_url: 'http://relay.test/stream',
  state,
});

const page = (data: Message[], cursor: string | null = null, token = TOKEN): ConversationPage => ({
  conversation: conversation(token),
  data,
  next_cursor: cursor,
});

/** The newest page of the routed conversation arrived. */
const loaded = (data: Message[], cursor: string | null = null): ConversationAction => ({
  type: 'loaded',
  token: TOKEN,
  page: page(data, cursor),
});

/** The screen routed to conversation `a`, whose newest page has not arrived yet. */
const routed = conversationReducer(initialConversationState, { type: 'routed', token: TOKEN });

function run(actions: ConversationAction[], from: ConversationState = routed) {
  return actions.reduce(conversationReducer, from);
}

describe('streaming a reply from another tab (input_async true)', () => {
  it('starts, appends chunks, stops and asks for a reload', () => {
    const shown = run([loaded([stored(1, 'assistant', 'Hello')], null)]);
    let s = run([relay('completion.started', { input_async: true })], shown);
    expect(s.streaming).toBe(true);
    expect(s.inProgress?.text).toBe('');
    expect(showInProgress(s)).toBe(true);
    s = run(
      [relay('completion_stream', { chunk: 'You ' }), relay('completion_stream', { chunk: 'said' })],
      s,
    );
    expect(s.inProgress?.text).toBe('You said');
    const before = s.reloadRequests;
    s = run([relay('completion.finished', { input_async: true })], s);
    expect(s.streaming).toBe(false);
    expect(s.reloadRequests).toBe(before + 1);
    // The reload replaces the list and the in-progress reply.
    s = run([loaded([stored(1, 'assistant', 'Hello'), stored(2, 'user', 'x')], null)], s);
    expect(s.inProgress).toBeNull();
    expect(s.messages.map((m) => m.key)).toEqual(['m1', 'm2']);
  });

  it('keeps a reply that is streaming when the stored messages land mid-stream', () => {
    // The first load of a conversation can resolve after the relay has already started a reply.
    let s = run([
      relay('completion.started', { input_async: true }),
      relay('completion_stream', { chunk: 'Half ' }),
      relay('function_call.begin', { id: 'c1', name: 'get_weather', arguments: {} }),
    ]);
    s = run([loaded([stored(1, 'assistant', 'Hello')], null)], s);
    expect(s.messages.map((m) => m.key)).toEqual(['m1']);
    expect(s.streaming).toBe(true);
    expect(s.inProgress?.text).toBe('Half ');
    expect(s.inProgress?.calls.map((c) => c.status)).toEqual(['executing']);
    s = run([relay('completion_stream', { chunk: 'done' })], s);
    expect(s.inProgress?.text).toBe('Half done');
  });

  it('completion.started resets a leftover in-progress message', () => {
    const s = run([
      relay('completion_stream', { chunk: 'old' }),
      relay('completion.started', { input_async: true }),
    ]);
    expect(s.inProgress?.text).toBe('');
  });

  it('ignores completion.started / finished with input_async false for the state of others', () => {
    const s = run([relay('completion.started', { input_async: false })]);
    expect(s.streaming).toBe(false);
    expect(s.inProgress).toBeNull();
  });

  it('adds a user_input message only when the last message is not a user message', () => {
    const user = stored(5, 'user', 'from tab B');
    let s = run([loaded([stored(1, 'assistant', 'Hi')], null), relay('user_input', { message: user })]);
    expect(s.messages.map((m) => m.role)).toEqual(['assistant', 'user']);
    s = run([relay('user_input', { message: stored(6, 'user', 'again') })], s);
    expect(s.messages).toHaveLength(2);
  });

  it('merges debug events into the debug data', () => {
    const s = run([relay('debug', { app_type: 'chatbot' }), relay('debug', { took_ms: 12, app_type: 'x' })]);
    expect(s.debug).toEqual({ app_type: 'x', took_ms: 12 });
  });
});

describe('function calls while streaming', () => {
  it('adds an executing call, completes it with the result, commits on iteration and starts fresh', () => {
    let s = run([
      relay('completion.started', { input_async: true }),
      relay('function_call.begin', { id: 'c1', name: 'get_weather', arguments: { city: 'Bern' } }),
    ]);
    expect(s.inProgress?.calls).toEqual([
      { id: 'c1', name: 'get_weather', arguments: { city: 'Bern' }, status: 'executing' },
    ]);
    s = run(
      [relay('function_call.end', { id: 'c1', name: 'get_weather', result: { temp: 3 }, status: 1 })],
      s,
    );
    expect(s.inProgress?.calls[0]).toMatchObject({ status: 'completed', result: { temp: 3 } });
    const committedKey = s.inProgress!.key;
    s = run([relay('function_call_iteration', { iteration: 1 })], s);
    expect(s.messages).toHaveLength(1);
    expect(s.messages[0]).toMatchObject({ key: committedKey, role: 'assistant', message: '' });
    expect(s.messages[0]!.function_calls[0]!.status).toBe('completed');
    expect(s.inProgress).toMatchObject({ text: '', calls: [] });
    expect(s.inProgress!.key).not.toBe(committedKey);
    s = run([relay('completion_stream', { chunk: 'Tool get_weather returned' })], s);
    expect(s.inProgress?.text).toBe('Tool get_weather returned');
  });

  it('does not commit an empty in-progress message on iteration', () => {
    const s = run([relay('completion.started', { input_async: true }), relay('function_call_iteration')]);
    expect(s.messages).toHaveLength(0);
  });

  it('completes a call that was already committed', () => {
    let s = run([
      relay('function_call.begin', { id: 'c1', name: 'f', arguments: {} }),
      relay('function_call_iteration'),
    ]);
    s = run([relay('function_call.end', { id: 'c1', name: 'f', result: 'ok', status: 1 })], s);
    expect(s.messages[0]!.function_calls[0]).toMatchObject({ status: 'completed', result: 'ok' });
  });
});

describe('own posts', () => {
  const user = localMessage('user', 'hi');

  it('shows the message at once; the answer replaces the list', () => {
    let s = run([{ type: 'sendStarted', token: TOKEN, message: user }]);
    expect(s.messages).toEqual([user]);
    expect(s.streaming).toBe(true);
    expect(s.posting).toBe(true);
    // The own socket gets input_async false: nothing changes, no reload.
    s = run(
      [
        relay('completion.started', { input_async: false }),
        relay('completion_stream', { chunk: 'You said: hi' }),
        relay('completion.finished', { input_async: false }),
      ],
      s,
    );
    expect(s.inProgress?.text).toBe('You said: hi');
    expect(s.reloadRequests).toBe(0);
    s = run(
      [
        {
          type: 'sendSucceeded',
          token: TOKEN,
          answer: {
            conversation: conversation(),
            data: [stored(1, 'user', 'hi'), stored(2, 'assistant', 'You said: hi')],
          },
        },
      ],
      s,
    );
    expect(s).toMatchObject({ streaming: false, posting: false, inProgress: null });
    expect(s.messages.map((m) => m.message)).toEqual(['hi', 'You said: hi']);
  });

  it('keeps the messages shown before the send and adds what it stored in place of the pending one', () => {
    let s = run([loaded([stored(1, 'assistant', 'Hello')], '1')]);
    s = run([{ type: 'sendStarted', token: TOKEN, message: user }], s);
    s = run(
      [
        {
          type: 'sendSucceeded',
          token: TOKEN,
          answer: {
            conversation: conversation(),
            data: [stored(2, 'user', 'hi'), stored(3, 'assistant', 'Hey')],
          },
        },
      ],
      s,
    );
    expect(s.messages.map((m) => [m.id, m.message])).toEqual([
      [1, 'Hello'],
      [2, 'hi'],
      [3, 'Hey'],
    ]);
    expect(s.olderCursor).toBe('1');
  });

  it('restores the list on failure and adds the error message', () => {
    const before = [localMessage('assistant', 'Hello')];
    const error = localMessage('error', 'Failed to send message. Please try again.');
    let s = run([{ type: 'sendStarted', token: TOKEN, message: user }], { ...routed, messages: before });
    s = run([{ type: 'sendFailed', token: TOKEN, text: 'hi', error, usageLimit: null }], s);
    expect(s.messages).toEqual([...before, error]);
    expect(s.streaming).toBe(false);
  });

  it('empties the composer while sending and puts the text back on failure unless something new was typed', () => {
    const error = localMessage('error', 'No.');
    let s = run([
      { type: 'typed', text: 'hi' },
      { type: 'sendStarted', token: TOKEN, message: user },
    ]);
    expect(s.input).toBe('');
    expect(run([{ type: 'sendFailed', token: TOKEN, text: 'hi', error, usageLimit: null }], s).input).toBe(
      'hi',
    );
    s = run([{ type: 'typed', text: 'next' }], s);
    expect(run([{ type: 'sendFailed', token: TOKEN, text: 'hi', error, usageLimit: null }], s).input).toBe(
      'next',
    );
  });

  it('shows the usage-limit banner on a refusal past the plan and takes it away with the next answer', () => {
    const error = localMessage('error', 'The plan allows no more requests.');
    let s = run([
      { type: 'sendStarted', token: TOKEN, message: user },
      {
        type: 'sendFailed',
        token: TOKEN,
        text: 'hi',
        error,
        usageLimit: 'The plan allows no more requests.',
      },
    ]);
    expect(s.usageLimit).toBe('The plan allows no more requests.');
    // Another failure that is not about the plan leaves the banner as it is.
    s = run(
      [
        { type: 'sendStarted', token: TOKEN, message: user },
        { type: 'sendFailed', token: TOKEN, text: 'hi', error, usageLimit: null },
      ],
      s,
    );
    expect(s.usageLimit).toBe('The plan allows no more requests.');
    expect(run([{ type: 'usageLimitDismissed' }], s).usageLimit).toBeNull();
    s = run(
      [
        { type: 'sendStarted', token: TOKEN, message: user },
        {
          type: 'sendSucceeded',
          token: TOKEN,
          answer: { conversation: conversation(), data: [stored(1, 'user', 'hi')] },
        },
      ],
      s,
    );
    expect(s.usageLimit).toBeNull();
  });

  it("drops a send's answer that comes after the user opened another conversation", () => {
    const sending = run([
      loaded([stored(1, 'assistant', 'Hello')]),
      { type: 'sendStarted', token: TOKEN, message: user },
    ]);
    const elsewhere = run([{ type: 'routed', token: 'b' }], sending);
    const error = localMessage('error', 'No.');
    for (const late of [
      {
        type: 'sendSucceeded',
        token: TOKEN,
        answer: { conversation: conversation(), data: [stored(2, 'user', 'hi')] },
      },
      { type: 'sendTimedOut', token: TOKEN },
      { type: 'sendFailed', token: TOKEN, text: 'hi', error, usageLimit: 'limit' },
    ] satisfies ConversationAction[]) {
      expect(run([late], elsewhere)).toBe(elsewhere);
    }
  });

  it('after a 504 keeps streaming and reloads when the reply finishes', () => {
    let s = run([
      { type: 'sendStarted', token: TOKEN, message: user },
      { type: 'sendTimedOut', token: TOKEN },
    ]);
    expect(s).toMatchObject({ streaming: true, posting: false, reloadRequests: 0 });
    s = run([relay('completion.finished', { input_async: false })], s);
    expect(s).toMatchObject({ streaming: false, reloadRequests: 1 });
  });

  it('reloads at once when the reply finished just before the 504 arrived', () => {
    const s = run([
      { type: 'sendStarted', token: TOKEN, message: user },
      relay('completion.finished', { input_async: false }),
      { type: 'sendTimedOut', token: TOKEN },
    ]);
    expect(s).toMatchObject({ streaming: false, posting: false, reloadRequests: 1 });
  });
});

describe('relay log', () => {
  it('logs other types newest first and leaves out the handled ones', () => {
    const s = run([
      relay('completion.started', { input_async: true }),
      relay('function_call.begin', { id: 'a', name: 'f', arguments: {} }),
      relay('completion_stream', { chunk: 'x' }),
      relay('debug', { a: 1 }),
      relay('user_input', { message: stored(1, 'user', 'u') }),
      relay('function_call.end', { id: 'a', name: 'f', result: 1, status: 1 }),
      relay('function_call_iteration', { iteration: 1 }),
      relay('custom.event', { hello: 'world' }),
      relay('completion.finished', { input_async: true }),
      relay('completion.ended'),
    ]);
    expect(s.relayLog.map((e) => e.type)).toEqual([
      'custom.event',
      'function_call_iteration',
      'function_call.end',
      'function_call.begin',
    ]);
    expect(s.relayLog[0]).toMatchObject({ data: { hello: 'world' }, received_at: NOW });
  });

  it(`keeps the latest ${RELAY_LOG_CAP} entries`, () => {
    const actions = Array.from({ length: RELAY_LOG_CAP + 5 }, (_, i) => relay('custom', { i }));
    const s = run(actions);
    expect(s.relayLog).toHaveLength(RELAY_LOG_CAP);
    expect(s.relayLog[0]!.data).toEqual({ i: RELAY_LOG_CAP + 4 });
    expect(s.relayLog.at(-1)!.data).toEqual({ i: 5 });
  });

  it('another conversation clears messages, debug data and the log', () => {
    const s = run([relay('custom'), relay('debug', { a: 1 }), { type: 'routed', token: 'b' }]);
    expect(s.relayLog).toEqual([]);
    expect(s.debug).toEqual({});
  });
});

describe('rejoining after the connection was lost', () => {
  it('drops the half-streamed reply and asks for the stored messages again', () => {
    const shown = run([loaded([stored(1, 'assistant', 'Hello')], null)]);
    const streaming = run(
      [relay('completion.started', { input_async: true }), relay('completion_stream', { chunk: 'Half a' })],
      shown,
    );
    expect(streaming.inProgress?.text).toBe('Half a');
    const rejoined = run([{ type: 'rejoined' }], streaming);
    expect(rejoined.inProgress).toBeNull();
    expect(rejoined.streaming).toBe(false);
    expect(showInProgress(rejoined)).toBe(false);
    expect(rejoined.reloadRequests).toBe(streaming.reloadRequests + 1);
    expect(rejoined.messages).toEqual(shown.messages);
  });
});

describe('older pages', () => {
  it('puts an older page before the list, once, and keeps its cursor', () => {
    let s = run([loaded([stored(3, 'user', 'c'), stored(4, 'assistant', 'd')], '3')]);
    expect(s.olderCursor).toBe('3');
    const older: ConversationAction = {
      type: 'olderLoaded',
      token: TOKEN,
      page: page([stored(1, 'user', 'a'), stored(2, 'assistant', 'b'), stored(3, 'user', 'c')], null),
    };
    s = run([older], s);
    expect(s.messages.map((m) => m.message)).toEqual(['a', 'b', 'c', 'd']);
    expect(s.olderCursor).toBeNull();
    // A reload (completion.finished) replaces the newest page and keeps what was paged in before it.
    s = run([loaded([stored(3, 'user', 'c'), stored(4, 'assistant', 'd'), stored(5, 'user', 'e')], '3')], s);
    expect(s.messages.map((m) => m.message)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(s.olderCursor).toBeNull();
  });

  it('ignores an older page of a conversation no longer open', () => {
    const s = run([loaded([stored(9, 'user', 'x')], '9'), { type: 'routed', token: 'b' }]);
    expect(run([{ type: 'olderLoaded', token: TOKEN, page: page([stored(1, 'user', 'old')]) }], s)).toBe(s);
  });
});

describe('routing', () => {
  it('starts over for another conversation, keeping the composer, its banner and the display switch', () => {
    const before = run([
      loaded([stored(1, 'assistant', 'Hello')], '1'),
      relay('completion.started', { input_async: true }),
      relay('custom'),
      { type: 'relayState', state: { step: 2 } },
      { type: 'typed', text: 'half typed' },
      { type: 'showAll', value: true },
      {
        type: 'sendFailed',
        token: TOKEN,
        text: '',
        error: localMessage('error', 'limit'),
        usageLimit: 'limit',
      },
    ]);
    const s = run([{ type: 'routed', token: 'b' }], before);
    expect(s).toMatchObject({
      token: 'b',
      conversation: null,
      messages: [],
      inProgress: null,
      streaming: false,
      relayLog: [],
      relayState: null,
      olderCursor: null,
      input: 'half typed',
      usageLimit: 'limit',
      showAll: true,
    });
  });

  it('routing to the conversation shown changes nothing', () => {
    const s = run([loaded([stored(1, 'assistant', 'Hello')])]);
    expect(run([{ type: 'routed', token: TOKEN }], s)).toBe(s);
  });

  it('keeps the error of a conversation that did not load when the screen goes back to none', () => {
    const error = localMessage('error', 'Conversation not found.');
    const s = run([
      { type: 'error', message: error },
      { type: 'routed', token: null },
    ]);
    expect(s.token).toBeNull();
    expect(s.messages).toEqual([error]);
  });

  it('clears a conversation that was shown when the screen goes back to none (New)', () => {
    const s = run([loaded([stored(1, 'assistant', 'Hello')]), { type: 'routed', token: null }]);
    expect(s).toMatchObject({ token: null, conversation: null, messages: [] });
  });

  it('ignores a page of the conversation opened before', () => {
    const s = run([{ type: 'routed', token: 'b' }]);
    expect(run([loaded([stored(1, 'assistant', 'from a')])], s)).toBe(s);
  });

  it('takes the State tab from the first page only; the relay keeps it current', () => {
    const first: ConversationAction = {
      type: 'loaded',
      token: TOKEN,
      page: { ...page([]), conversation: conversation(TOKEN, { step: 1 }) },
    };
    let s = run([{ type: 'stateError', error: 'bad' }, first]);
    expect(s).toMatchObject({ relayState: { step: 1 }, stateError: null });
    s = run(
      [
        { type: 'relayState', state: { step: 2 } },
        { type: 'stateError', error: null },
      ],
      s,
    );
    expect(s).toMatchObject({ relayState: { step: 2 }, stateError: '' });
    s = run([{ ...first, page: { ...page([]), conversation: conversation(TOKEN, { step: 9 }) } }], s);
    expect(s.relayState).toEqual({ step: 2 });
    expect(run([{ type: 'stateErrorDismissed' }], s).stateError).toBeNull();
  });
});

describe('the first message creates the conversation', () => {
  const created = { ...conversation('new', { step: 0 }), messages: [stored(1, 'assistant', 'Welcome')] };

  it('shows it at once with its greeting; routing to it then changes nothing', () => {
    let s = run(
      [{ type: 'typed', text: 'First words' }, { type: 'createStarted' }],
      initialConversationState,
    );
    expect(s).toMatchObject({ creating: true, input: '' });
    s = run([{ type: 'created', created }], s);
    expect(s).toMatchObject({
      token: 'new',
      creating: false,
      relayState: { step: 0 },
      olderCursor: null,
      conversation: { token: 'new' },
    });
    expect(s.messages.map((m) => m.key)).toEqual(['m1']);
    expect(run([{ type: 'routed', token: 'new' }], s)).toBe(s);
    // The send that follows goes to it.
    s = run([{ type: 'sendStarted', token: 'new', message: localMessage('user', 'First words') }], s);
    expect(s.messages.map((m) => m.role)).toEqual(['assistant', 'user']);
  });

  it('keeps the typed text and says why when it cannot be created', () => {
    const error = localMessage('error', 'The plan allows no more requests.');
    const s = run(
      [
        { type: 'typed', text: 'First words' },
        { type: 'createStarted' },
        { type: 'createFailed', text: 'First words', error, usageLimit: 'The plan allows no more requests.' },
      ],
      initialConversationState,
    );
    expect(s).toMatchObject({
      token: null,
      creating: false,
      input: 'First words',
      usageLimit: 'The plan allows no more requests.',
      messages: [error],
    });
  });
});
