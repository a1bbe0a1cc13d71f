import type { Message, RelayMessage, RelayMessageData } from '@llmor/contracts';
import { isPlainObject, RelayMessageType } from '@llmor/contracts';
import { type CallView, type ChatMessage, localKey, toChatMessage, toChatMessages } from './messages';
import { appendRelayLog, isLoggedRelayType, type RelayLogEntry } from './relay';

/** The assistant reply being streamed: text from completion_stream, calls from function_call.begin/end. */
export interface InProgress {
  key: string;
  text: string;
  calls: CallView[];
  started_at: string;
}

/** What the Messages, Debug and Relay tabs show for the open conversation. */
export interface ConversationState {
  messages: ChatMessage[];
  inProgress: InProgress | null;
  /** A reply is running (own post, or completion.started with input_async from elsewhere). */
  streaming: boolean;
  /** This browser's POST /v1/conversations/{token} has not answered yet. */
  posting: boolean;
  /** completion.finished (input_async false) came while the own POST was still open. */
  finishedWhilePosting: boolean;
  debug: Record<string, unknown>;
  relayLog: RelayLogEntry[];
  relaySeq: number;
  /** Bumped whenever the conversation must be fetched again (completion.finished); an effect reloads. */
  reloadRequests: number;
  /** The cursor of the page before the oldest message shown; null when that is the conversation's first. */
  olderCursor: string | null;
  /** An older page is being fetched. */
  loadingOlder: boolean;
}

export const initialConversationState: ConversationState = {
  messages: [],
  inProgress: null,
  streaming: false,
  posting: false,
  finishedWhilePosting: false,
  debug: {},
  relayLog: [],
  relaySeq: 0,
  reloadRequests: 0,
  olderCursor: null,
  loadingOlder: false,
};

export type ConversationAction =
  /** Another conversation (or none): everything starts over. */
  | { type: 'reset' }
  /**
   * The conversation's newest page was (re)loaded: it replaces the newest messages and any in-progress
   * reply; older pages loaded before stay.
   */
  | { type: 'loaded'; messages: readonly Message[]; cursor: string | null }
  /** Scrolled to the top: the page before the oldest message shown is being fetched. */
  | { type: 'olderRequested' }
  /** That page arrived: its messages go before the list. */
  | { type: 'olderLoaded'; messages: readonly Message[]; cursor: string | null }
  | { type: 'olderFailed' }
  /** A relay `message` event. */
  | { type: 'relay'; message: RelayMessage; now: string }
  /** The user's message is shown at once, and a reply is awaited. */
  | { type: 'sendStarted'; message: ChatMessage }
  /** The POST answered with the messages it added: they take the place of the pending ones. */
  | { type: 'sendSucceeded'; messages: readonly Message[] }
  /** The POST answered 504: the reply goes on over the relay. */
  | { type: 'sendTimedOut' }
  /** The POST failed: the list is restored and the error shown. */
  | { type: 'sendFailed'; restore: readonly ChatMessage[]; error: ChatMessage }
  /** An error-role message (failed to create / load, no conversation). */
  | { type: 'error'; message: ChatMessage }
  /**
   * The relay joined again after the connection was lost: what streamed meanwhile is gone, so the partial
   * reply is dropped and the stored messages are fetched again.
   */
  | { type: 'rejoined' };

const freshInProgress = (now: string): InProgress => ({
  key: localKey(),
  text: '',
  calls: [],
  started_at: now,
});

const asObject = (value: unknown): Record<string, unknown> => (isPlainObject(value) ? value : {});

function inputAsync(data: unknown): boolean {
  return asObject(data).input_async === true;
}

/** The in-progress reply as a list message (committed on function_call_iteration). */
export function commitInProgress(p: InProgress): ChatMessage {
  return {
    key: p.key,
    id: null,
    role: 'assistant',
    message: p.text,
    created_at: p.started_at,
    function_calls: p.calls,
    function_response: null,
    sources: [],
  };
}

function completeCall(calls: CallView[], id: string, result: unknown): CallView[] | null {
  const index = calls.findIndex((c) => c.id === id);
  if (index < 0) return null;
  const next = [...calls];
  next[index] = { ...calls[index]!, status: 'completed', result };
  return next;
}

/** Streaming transitions of docs/reference/rules.md, plus the relay log and debug data. */
export function applyRelayMessage(
  state: ConversationState,
  message: RelayMessage,
  now: string,
): ConversationState {
  const { type, data } = message;
  let next = state;
  switch (type) {
    case RelayMessageType.completionStarted:
      if (inputAsync(data)) next = { ...state, streaming: true, inProgress: freshInProgress(now) };
      break;
    case RelayMessageType.completionStream: {
      const chunk = asObject(data).chunk;
      if (typeof chunk !== 'string' || chunk === '') break;
      const current = state.inProgress ?? freshInProgress(now);
      next = { ...state, inProgress: { ...current, text: current.text + chunk } };
      break;
    }
    case RelayMessageType.functionCallIteration: {
      const p = state.inProgress;
      if (p && (p.text !== '' || p.calls.length > 0)) {
        next = {
          ...state,
          messages: [...state.messages, commitInProgress(p)],
          inProgress: freshInProgress(now),
        };
      }
      break;
    }
    case RelayMessageType.completionFinished:
      if (inputAsync(data)) {
        next = { ...state, streaming: false, reloadRequests: state.reloadRequests + 1 };
      } else if (state.posting) {
        // The own POST answers with the stored messages; if it timed out, see sendTimedOut.
        next = { ...state, finishedWhilePosting: true };
      } else if (state.streaming) {
        // The own POST answered 504 earlier: the reply is over now, fetch what was stored.
        next = { ...state, streaming: false, reloadRequests: state.reloadRequests + 1 };
      }
      break;
    case RelayMessageType.userInput: {
      const stored = asObject(data).message as Message | undefined;
      const last = state.messages[state.messages.length - 1];
      if (stored && typeof stored === 'object' && last?.role !== 'user') {
        next = { ...state, messages: [...state.messages, toChatMessage(stored)] };
      }
      break;
    }
    case RelayMessageType.debug:
      next = { ...state, debug: { ...state.debug, ...asObject(data) } };
      break;
    case RelayMessageType.functionCallBegin: {
      const d = asObject(data) as Partial<RelayMessageData['function_call.begin']>;
      if (typeof d.id !== 'string') break;
      const current = state.inProgress ?? freshInProgress(now);
      const call: CallView = {
        id: d.id,
        name: typeof d.name === 'string' ? d.name : '',
        arguments: d.arguments,
        status: 'executing',
      };
      next = { ...state, inProgress: { ...current, calls: [...current.calls, call] } };
      break;
    }
    case RelayMessageType.functionCallEnd: {
      const d = asObject(data) as Partial<RelayMessageData['function_call.end']>;
      if (typeof d.id !== 'string') break;
      const inProgressCalls = state.inProgress ? completeCall(state.inProgress.calls, d.id, d.result) : null;
      if (state.inProgress && inProgressCalls) {
        next = { ...state, inProgress: { ...state.inProgress, calls: inProgressCalls } };
        break;
      }
      for (let i = state.messages.length - 1; i >= 0; i--) {
        const m = state.messages[i]!;
        const calls = completeCall(m.function_calls, d.id, d.result);
        if (!calls) continue;
        const messages = [...state.messages];
        messages[i] = { ...m, function_calls: calls };
        next = { ...state, messages };
        break;
      }
      break;
    }
    default:
      break;
  }
  if (!isLoggedRelayType(type)) return next;
  const seq = next.relaySeq + 1;
  return {
    ...next,
    relaySeq: seq,
    relayLog: appendRelayLog(next.relayLog, { seq, type, data, received_at: now }),
  };
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'reset':
      return { ...initialConversationState, reloadRequests: state.reloadRequests };
    case 'loaded': {
      // Stored messages replace the list, but a reply still streaming stays: a load that lands mid-stream
      // (the first load racing the relay, or a reload) must not drop what has arrived. completion.finished
      // ends a stream, never a load. Older pages loaded before stay before the newest page.
      const first = action.messages[0]?.id;
      const older = first === undefined ? [] : state.messages.filter((m) => m.id !== null && m.id < first);
      return {
        ...state,
        messages: [...older, ...toChatMessages(action.messages)],
        inProgress: state.streaming ? state.inProgress : null,
        olderCursor: older.length > 0 ? state.olderCursor : action.cursor,
      };
    }
    case 'olderRequested':
      return { ...state, loadingOlder: true };
    case 'olderLoaded': {
      const shown = new Set(state.messages.map((m) => m.id));
      const older = toChatMessages(action.messages).filter((m) => !shown.has(m.id));
      return {
        ...state,
        messages: [...older, ...state.messages],
        olderCursor: action.cursor,
        loadingOlder: false,
      };
    }
    case 'olderFailed':
      return { ...state, loadingOlder: false };
    case 'relay':
      return applyRelayMessage(state, action.message, action.now);
    case 'rejoined':
      return { ...state, inProgress: null, streaming: false, reloadRequests: state.reloadRequests + 1 };
    case 'sendStarted':
      return {
        ...state,
        messages: [...state.messages, action.message],
        inProgress: null,
        streaming: true,
        posting: true,
        finishedWhilePosting: false,
      };
    case 'sendSucceeded': {
      // The messages shown before the send stay; what it added replaces the pending user message.
      const added = new Set(action.messages.map((m) => m.id));
      const kept = state.messages.filter((m) => m.id !== null && !added.has(m.id));
      return {
        ...state,
        messages: [...kept, ...toChatMessages(action.messages)],
        inProgress: null,
        streaming: false,
        posting: false,
        finishedWhilePosting: false,
      };
    }
    case 'sendTimedOut':
      if (state.finishedWhilePosting) {
        return {
          ...state,
          posting: false,
          finishedWhilePosting: false,
          streaming: false,
          reloadRequests: state.reloadRequests + 1,
        };
      }
      return { ...state, posting: false };
    case 'sendFailed':
      return {
        ...state,
        messages: [...action.restore, action.error],
        inProgress: null,
        streaming: false,
        posting: false,
        finishedWhilePosting: false,
      };
    case 'error':
      return { ...state, messages: [...state.messages, action.message] };
    default:
      return state;
  }
}

/** Whether the in-progress reply is worth showing (it has text or calls, or a reply is running). */
export function showInProgress(state: Pick<ConversationState, 'inProgress' | 'streaming'>): boolean {
  const p = state.inProgress;
  return state.streaming || (p !== null && (p.text !== '' || p.calls.length > 0));
}
