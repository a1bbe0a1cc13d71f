import type {
  Conversation,
  ConversationCreated,
  ConversationPage,
  Message,
  MessageSent,
  RelayMessage,
  RelayMessageData,
} from '@llmor/contracts';
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

/**
 * Everything the Conversations page shows (docs/reference/console.md): the routed conversation and its messages,
 * the reply streaming over the relay, the Debug, Relay and State tabs, and the composer. The pages come from
 * the query cache (`loaded`, `olderLoaded`), the relay's events and the own sends are folded in here.
 */
export interface ConversationState {
  /** The routed conversation's token; null on the empty screen (no conversation yet). */
  token: string | null;
  /** The routed conversation, once its newest page has loaded (or it was created here). */
  conversation: Conversation | null;
  messages: ChatMessage[];
  inProgress: InProgress | null;
  /** A reply is running (own post, or completion.started with input_async from elsewhere). */
  streaming: boolean;
  /** This browser's POST /v1/conversations/{token} has not answered yet. */
  posting: boolean;
  /** completion.finished (input_async false) came while the own POST was still open. */
  finishedWhilePosting: boolean;
  /** The messages shown before the own post started: what a failed post restores. */
  beforeSend: ChatMessage[];
  debug: Record<string, unknown>;
  relayLog: RelayLogEntry[];
  relaySeq: number;
  /** Bumped whenever the conversation must be fetched again (completion.finished); an effect reloads. */
  reloadRequests: number;
  /** The cursor of the page before the oldest message shown; null when that is the conversation's first. */
  olderCursor: string | null;
  /** The conversation's state as the relay last sent it (State tab); null while there is no conversation. */
  relayState: unknown;
  /** The relay's `state_err` text (may be empty), until the next state or a dismissal. */
  stateError: string | null;
  /** The server's message while sends are refused past the plan's requests or tokens (402 code 60). */
  usageLimit: string | null;
  /** The composer's text. */
  input: string;
  /** A conversation is being created for the first message. */
  creating: boolean;
  /** Show every role, not only user, assistant and error ("show all"). */
  showAll: boolean;
}

/** What belongs to one conversation and starts over with another; the composer and its banners stay. */
const freshConversation = {
  conversation: null,
  messages: [],
  inProgress: null,
  streaming: false,
  posting: false,
  finishedWhilePosting: false,
  beforeSend: [],
  debug: {},
  relayLog: [],
  relaySeq: 0,
  olderCursor: null,
  relayState: null,
  stateError: null,
} satisfies Partial<ConversationState>;

export const initialConversationState: ConversationState = {
  ...freshConversation,
  token: null,
  reloadRequests: 0,
  usageLimit: null,
  input: '',
  creating: false,
  showAll: false,
};

/** What an answer is for: an action carrying it is dropped unless that conversation is still the routed one. */
type ForToken = { token: string };

export type ConversationAction =
  /**
   * The route names another conversation (`token`), or none: the conversation-bound state starts over. Routing to
   * the conversation already shown (one created here) changes nothing; leaving a conversation that never loaded
   * keeps what is listed (the error saying why it did not).
   */
  | { type: 'routed'; token: string | null }
  /**
   * A newest page of the conversation `token` arrived (opening it, or a reload): it replaces the newest
   * messages and any in-progress reply; older pages loaded before stay. Ignored for another conversation.
   */
  | ({ type: 'loaded'; page: ConversationPage } & ForToken)
  /** An older page arrived (scrolled to the top): its messages go before the list. */
  | ({ type: 'olderLoaded'; page: ConversationPage } & ForToken)
  /** A relay `message` event. */
  | { type: 'relay'; message: RelayMessage; now: string }
  /** The relay sent the conversation's whole state (get, set, patch, state_change). */
  | { type: 'relayState'; state: unknown }
  /** The relay refused a state call (`state_err`), with its text if it had one. */
  | { type: 'stateError'; error: string | null }
  | { type: 'stateErrorDismissed' }
  /** The user's message is shown at once, the composer emptied, and a reply is awaited. */
  | ({ type: 'sendStarted'; message: ChatMessage } & ForToken)
  /** The POST answered with the messages it added: they take the place of the pending ones. */
  | ({ type: 'sendSucceeded'; answer: MessageSent } & ForToken)
  /** The POST answered 504: the reply goes on over the relay. */
  | ({ type: 'sendTimedOut' } & ForToken)
  /**
   * The POST failed: the list is restored with the error after it, the text back in an empty composer, and the
   * usage-limit banner shown when that was the reason (`usageLimit`, the server's text).
   */
  | ({ type: 'sendFailed'; text: string; error: ChatMessage; usageLimit: string | null } & ForToken)
  /** No conversation yet: the first message creates one. */
  | { type: 'createStarted' }
  /** It was created (with the app's greeting, if any): it is the conversation shown from now on. */
  | { type: 'created'; created: ConversationCreated }
  /** It could not be created: as a failed send, without a list to restore. */
  | { type: 'createFailed'; text: string; error: ChatMessage; usageLimit: string | null }
  /** An error-role message (failed to load, no conversation). */
  | { type: 'error'; message: ChatMessage }
  /**
   * The relay joined again after the connection was lost: what streamed meanwhile is gone, so the partial
   * reply is dropped and the stored messages are fetched again.
   */
  | { type: 'rejoined' }
  | { type: 'typed'; text: string }
  | { type: 'showAll'; value: boolean }
  | { type: 'usageLimitDismissed' };

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
function applyRelayMessage(state: ConversationState, message: RelayMessage, now: string): ConversationState {
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

/** The text back in the composer after a failed send, unless the user has typed something new meanwhile. */
const restoredInput = (state: ConversationState, text: string) =>
  state.input.trim() === '' ? text : state.input;

/** Stored messages replace the list; a reply still streaming stays, and so do older pages loaded before. */
function applyNewestPage(state: ConversationState, page: ConversationPage): ConversationState {
  // A load that lands mid-stream (the first load racing the relay, or a reload) must not drop what has
  // arrived: completion.finished ends a stream, never a load.
  const first = page.data[0]?.id;
  const older = first === undefined ? [] : state.messages.filter((m) => m.id !== null && m.id < first);
  const opening = state.conversation === null;
  return {
    ...state,
    conversation: page.conversation,
    // The State tab starts from the state the conversation was loaded with; the relay keeps it current.
    ...(opening ? { relayState: page.conversation.state ?? {}, stateError: null } : {}),
    messages: [...older, ...toChatMessages(page.data)],
    inProgress: state.streaming ? state.inProgress : null,
    olderCursor: older.length > 0 ? state.olderCursor : page.next_cursor,
  };
}

/** The state transitions of one action, for the routed conversation only (`ForToken` actions of another are dropped). */
function transition(state: ConversationState, action: ConversationAction): ConversationState {
  switch (action.type) {
    case 'routed':
      if (action.token === state.token) return state;
      if (action.token === null && state.conversation === null) return { ...state, token: null };
      return { ...state, ...freshConversation, token: action.token };
    case 'loaded':
      return applyNewestPage(state, action.page);
    case 'olderLoaded': {
      const shown = new Set(state.messages.map((m) => m.id));
      const older = toChatMessages(action.page.data).filter((m) => !shown.has(m.id));
      return { ...state, messages: [...older, ...state.messages], olderCursor: action.page.next_cursor };
    }
    case 'relay':
      return applyRelayMessage(state, action.message, action.now);
    case 'relayState':
      return { ...state, relayState: action.state, stateError: null };
    case 'stateError':
      return { ...state, stateError: action.error ?? '' };
    case 'stateErrorDismissed':
      return { ...state, stateError: null };
    case 'rejoined':
      return { ...state, inProgress: null, streaming: false, reloadRequests: state.reloadRequests + 1 };
    case 'sendStarted':
      return {
        ...state,
        beforeSend: state.messages,
        messages: [...state.messages, action.message],
        inProgress: null,
        streaming: true,
        posting: true,
        finishedWhilePosting: false,
        input: '',
      };
    case 'sendSucceeded': {
      // The messages shown before the send stay; what it added replaces the pending user message.
      const added = new Set(action.answer.data.map((m) => m.id));
      const kept = state.messages.filter((m) => m.id !== null && !added.has(m.id));
      return {
        ...state,
        conversation: action.answer.conversation,
        messages: [...kept, ...toChatMessages(action.answer.data)],
        inProgress: null,
        streaming: false,
        posting: false,
        finishedWhilePosting: false,
        usageLimit: null,
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
        messages: [...state.beforeSend, action.error],
        inProgress: null,
        streaming: false,
        posting: false,
        finishedWhilePosting: false,
        input: restoredInput(state, action.text),
        usageLimit: action.usageLimit ?? state.usageLimit,
      };
    case 'createStarted':
      return { ...state, creating: true, input: '' };
    case 'created': {
      const { messages, ...conversation } = action.created;
      return applyNewestPage(
        { ...state, ...freshConversation, token: conversation.token, creating: false },
        { conversation, data: messages, next_cursor: null },
      );
    }
    case 'createFailed':
      return {
        ...state,
        creating: false,
        input: restoredInput(state, action.text),
        usageLimit: action.usageLimit ?? state.usageLimit,
        messages: [...state.messages, action.error],
      };
    case 'error':
      return { ...state, messages: [...state.messages, action.message] };
    case 'typed':
      return { ...state, input: action.text };
    case 'showAll':
      return { ...state, showAll: action.value };
    case 'usageLimitDismissed':
      return { ...state, usageLimit: null };
    default:
      return state;
  }
}

export function conversationReducer(state: ConversationState, action: ConversationAction): ConversationState {
  // A late answer for a conversation no longer routed (the user opened another) changes nothing.
  if ('token' in action && action.type !== 'routed' && action.token !== state.token) return state;
  return transition(state, action);
}

/** Whether the in-progress reply is worth showing (it has text or calls, or a reply is running). */
export function showInProgress(state: Pick<ConversationState, 'inProgress' | 'streaming'>): boolean {
  const p = state.inProgress;
  return state.streaming || (p !== null && (p.text !== '' || p.calls.length > 0));
}
