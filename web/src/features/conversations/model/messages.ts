import type { FunctionCall, Message, MessageSource } from '@llmor/contracts';

/** A function call as shown: executing (function_call.begin) → completed (function_call.end, with result). */
export interface CallView {
  id: string;
  name: string;
  arguments: unknown;
  status: 'executing' | 'completed';
  /** Undefined while executing, or when no result was stored. */
  result?: unknown;
}

/** A message as shown: a stored one, or one made here (the user's pending message, an error text…). */
export interface ChatMessage {
  /** Stable React key: `m<id>` for stored messages, `l<n>` for local ones. */
  key: string;
  id: number | null;
  role: string;
  message: string | null;
  created_at: string;
  function_calls: CallView[];
  function_response: string | null;
  /** The datastore passages an assistant answer was given (empty for others and while it streams). */
  sources: MessageSource[];
}

/** Roles shown unless the debug display is on (docs/reference/console.md, Conversations page). */
const DEFAULT_VISIBLE_ROLES: readonly string[] = ['user', 'assistant', 'error'];

let localSeq = 0;
/** A key for a message that has no id yet. */
export function localKey(): string {
  localSeq += 1;
  return `l${localSeq}`;
}

/** A tool message's content is the JSON text of the result; other text is kept as it is. */
export function parseResult(content: string | null): unknown {
  if (content === null) return null;
  try {
    return JSON.parse(content);
  } catch {
    return content;
  }
}

function callView(call: FunctionCall, results: Map<string, unknown>): CallView {
  return {
    id: call.id,
    name: call.name,
    arguments: call.arguments,
    // A stored call is over: it either has its tool message or never got one (the reply was stopped).
    status: 'completed',
    result: results.get(call.id),
  };
}

/**
 * Stored messages → shown messages. A function call's result is taken from the tool message whose
 * `function_response` equals the call id (docs/reference/rules.md "Function call").
 */
export function toChatMessages(messages: readonly Message[]): ChatMessage[] {
  const results = new Map<string, unknown>();
  for (const m of messages) {
    if (m.role === 'tool' && m.function_response) results.set(m.function_response, parseResult(m.message));
  }
  return messages.map((m) => ({
    key: `m${m.id}`,
    id: m.id,
    role: m.role,
    message: m.message,
    created_at: m.created_at,
    function_calls: (m.function_calls ?? []).map((c) => callView(c, results)),
    function_response: m.function_response ?? null,
    sources: m.sources ?? [],
  }));
}

/** One stored message (e.g. from a user_input event) → shown message. */
export function toChatMessage(message: Message): ChatMessage {
  return toChatMessages([message])[0]!;
}

/** A message made in the browser (the user's text before the server answers, an error text). */
export function localMessage(role: string, text: string, now: Date = new Date()): ChatMessage {
  return {
    key: localKey(),
    id: null,
    role,
    message: text,
    created_at: now.toISOString(),
    function_calls: [],
    function_response: null,
    sources: [],
  };
}

/** Only user, assistant and error messages, unless the debug display is on (then all). */
export function visibleMessages(messages: readonly ChatMessage[], showAll: boolean): ChatMessage[] {
  return showAll ? [...messages] : messages.filter((m) => DEFAULT_VISIBLE_ROLES.includes(m.role));
}
