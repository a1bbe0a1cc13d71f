import type { Message } from '@llmor/contracts';
import { describe, expect, it } from 'vitest';
import { localMessage, parseResult, toChatMessages, visibleMessages } from './messages';
import { appendRelayLog, isLoggedRelayType, parseRelayMessage } from './relay';

const base = {
  creator: 'system' as const,
  created_at: '2025-01-01T00:00:00.000Z',
  has_been_modified: false,
  versions: [],
  function_calls: [],
  function_response: null,
  sources: [],
};

describe('call results from tool messages', () => {
  it('takes each result from the tool message whose function_response is the call id', () => {
    const messages: Message[] = [
      { ...base, id: 1, role: 'user', creator: 'user', message: '/call two' },
      {
        ...base,
        id: 2,
        role: 'assistant',
        message: '',
        function_calls: [
          { id: 'c1', name: 'one', arguments: { a: 1 } },
          { id: 'c2', name: 'two', arguments: {} },
          { id: 'c3', name: 'lost', arguments: {} },
        ],
      },
      { ...base, id: 3, role: 'tool', message: '{"ok":true}', function_response: 'c2' },
      { ...base, id: 4, role: 'tool', message: 'plain text', function_response: 'c1' },
    ];
    const [, assistant] = toChatMessages(messages);
    expect(assistant!.function_calls).toEqual([
      { id: 'c1', name: 'one', arguments: { a: 1 }, status: 'completed', result: 'plain text' },
      { id: 'c2', name: 'two', arguments: {}, status: 'completed', result: { ok: true } },
      { id: 'c3', name: 'lost', arguments: {}, status: 'completed', result: undefined },
    ]);
  });

  it('parses JSON results and keeps other text', () => {
    expect(parseResult('[1,2]')).toEqual([1, 2]);
    expect(parseResult('not json')).toBe('not json');
    expect(parseResult(null)).toBeNull();
  });
});

describe('visible messages', () => {
  const all = ['user', 'assistant', 'system', 'tool', 'error'].map((role) => localMessage(role, role));

  it('shows user, assistant and error unless the debug display is on', () => {
    expect(visibleMessages(all, false).map((m) => m.role)).toEqual(['user', 'assistant', 'error']);
    expect(visibleMessages(all, true)).toHaveLength(5);
  });
});

describe('relay messages', () => {
  it('parses the JSON string and refuses what is not {type, data}', () => {
    expect(parseRelayMessage('{"type":"x","data":{"a":1}}')).toEqual({ type: 'x', data: { a: 1 } });
    expect(parseRelayMessage({ type: 'y', data: null })).toEqual({ type: 'y', data: null });
    expect(parseRelayMessage('{not json')).toBeNull();
    expect(parseRelayMessage('{"data":1}')).toBeNull();
    expect(parseRelayMessage(42)).toBeNull();
  });

  it('does not log completion events, user_input or debug', () => {
    for (const type of [
      'completion_stream',
      'completion.started',
      'completion.finished',
      'completion.ended',
      'completion',
      'user_input',
      'debug',
    ]) {
      expect(isLoggedRelayType(type), type).toBe(false);
    }
    for (const type of ['function_call.begin', 'function_call.end', 'function_call_iteration', 'custom']) {
      expect(isLoggedRelayType(type), type).toBe(true);
    }
  });

  it('caps the log, newest first', () => {
    let log = appendRelayLog([], { seq: 1, type: 'a', data: 1, received_at: '' }, 2);
    log = appendRelayLog(log, { seq: 2, type: 'b', data: 2, received_at: '' }, 2);
    log = appendRelayLog(log, { seq: 3, type: 'c', data: 3, received_at: '' }, 2);
    expect(log.map((e) => e.seq)).toEqual([3, 2]);
  });
});
