import type { Message } from '@llmor/contracts';
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

function run(actions: ConversationAction[], from: ConversationState = initialConversationState) {
  return actions.reduce(conversationReducer, from);
}

describe('streaming a reply from another tab (input_async true)', () => {
  it('starts, appends chunks, stops and asks for a reload', () => {
    const loaded = run([{ type: 'loaded', messages: [stored(1, 'assistant', 'Hello')], cursor: null }]);
    let s = run([relay('completion.started', { input_async: true })], loaded);
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
    s = run(
      [{ type: 'loaded', messages: [stored(1, 'assistant', 'Hello'), stored(2, 'user', 'x')], cursor: null }],
      s,
    );
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
    s = run([{ type: 'loaded', messages: [stored(1, 'assistant', 'Hello')], cursor: null }], s);
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
    let s = run([
      { type: 'loaded', messages: [stored(1, 'assistant', 'Hi')], cursor: null },
      relay('user_input', { message: user }),
    ]);
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
    let s = run([{ type: 'sendStarted', message: user }]);
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
          messages: [stored(1, 'user', 'hi'), stored(2, 'assistant', 'You said: hi')],
        },
      ],
      s,
    );
    expect(s).toMatchObject({ streaming: false, posting: false, inProgress: null });
    expect(s.messages.map((m) => m.message)).toEqual(['hi', 'You said: hi']);
  });

  it('keeps the messages shown before the send and adds what it stored in place of the pending one', () => {
    let s = run([{ type: 'loaded', messages: [stored(1, 'assistant', 'Hello')], cursor: '1' }]);
    s = run([{ type: 'sendStarted', message: user }], s);
    s = run(
      [{ type: 'sendSucceeded', messages: [stored(2, 'user', 'hi'), stored(3, 'assistant', 'Hey')] }],
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
    let s = run([{ type: 'sendStarted', message: user }], { ...initialConversationState, messages: before });
    s = run([{ type: 'sendFailed', restore: before, error }], s);
    expect(s.messages).toEqual([...before, error]);
    expect(s.streaming).toBe(false);
  });

  it('after a 504 keeps streaming and reloads when the reply finishes', () => {
    let s = run([{ type: 'sendStarted', message: user }, { type: 'sendTimedOut' }]);
    expect(s).toMatchObject({ streaming: true, posting: false, reloadRequests: 0 });
    s = run([relay('completion.finished', { input_async: false })], s);
    expect(s).toMatchObject({ streaming: false, reloadRequests: 1 });
  });

  it('reloads at once when the reply finished just before the 504 arrived', () => {
    const s = run([
      { type: 'sendStarted', message: user },
      relay('completion.finished', { input_async: false }),
      { type: 'sendTimedOut' },
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

  it('reset clears messages, debug data and the log', () => {
    const s = run([relay('custom'), relay('debug', { a: 1 }), { type: 'reset' }]);
    expect(s.relayLog).toEqual([]);
    expect(s.debug).toEqual({});
  });
});

describe('rejoining after the connection was lost', () => {
  it('drops the half-streamed reply and asks for the stored messages again', () => {
    const loaded = run([{ type: 'loaded', messages: [stored(1, 'assistant', 'Hello')], cursor: null }]);
    const streaming = run(
      [relay('completion.started', { input_async: true }), relay('completion_stream', { chunk: 'Half a' })],
      loaded,
    );
    expect(streaming.inProgress?.text).toBe('Half a');
    const rejoined = run([{ type: 'rejoined' }], streaming);
    expect(rejoined.inProgress).toBeNull();
    expect(rejoined.streaming).toBe(false);
    expect(showInProgress(rejoined)).toBe(false);
    expect(rejoined.reloadRequests).toBe(streaming.reloadRequests + 1);
    expect(rejoined.messages).toEqual(loaded.messages);
  });
});

describe('older pages', () => {
  it('puts an older page before the list, once, and keeps its cursor', () => {
    let s = run([
      { type: 'loaded', messages: [stored(3, 'user', 'c'), stored(4, 'assistant', 'd')], cursor: '3' },
    ]);
    expect(s.olderCursor).toBe('3');
    s = run([{ type: 'olderRequested' }], s);
    expect(s.loadingOlder).toBe(true);
    s = run(
      [
        {
          type: 'olderLoaded',
          messages: [stored(1, 'user', 'a'), stored(2, 'assistant', 'b')],
          cursor: null,
        },
      ],
      s,
    );
    expect(s.messages.map((m) => m.message)).toEqual(['a', 'b', 'c', 'd']);
    expect(s).toMatchObject({ olderCursor: null, loadingOlder: false });
    // A reload (completion.finished) replaces the newest page and keeps what was paged in before it.
    s = run(
      [
        {
          type: 'loaded',
          messages: [stored(3, 'user', 'c'), stored(4, 'assistant', 'd'), stored(5, 'user', 'e')],
          cursor: '3',
        },
      ],
      s,
    );
    expect(s.messages.map((m) => m.message)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(s.olderCursor).toBeNull();
  });

  it('stops loading when a page fails, keeping the cursor to try again', () => {
    let s = run([
      { type: 'loaded', messages: [stored(9, 'user', 'x')], cursor: '9' },
      { type: 'olderRequested' },
    ]);
    s = run([{ type: 'olderFailed' }], s);
    expect(s).toMatchObject({ loadingOlder: false, olderCursor: '9' });
  });
});
