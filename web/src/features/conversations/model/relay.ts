import { RELAY_LOG_CAP, type RelayMessage, RelayMessageType, relayMessage } from '@llmor/contracts';

/** One entry of the Relay tab. */
export interface RelayLogEntry {
  seq: number;
  type: string;
  data: unknown;
  received_at: string;
}

/**
 * A relay `message` event → `{type, data}`, or null when it cannot be read (the caller logs and
 * ignores it). The server sends a JSON string; an already-parsed object is accepted too.
 */
export function parseRelayMessage(raw: unknown): RelayMessage | null {
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return null;
    }
  }
  const parsed = relayMessage.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** Types handled by the conversation itself and never logged (docs/reference/rules.md). */
const NOT_LOGGED: ReadonlySet<string> = new Set([
  RelayMessageType.completionStream,
  RelayMessageType.completionFinished,
  RelayMessageType.completionEnded,
  RelayMessageType.userInput,
  RelayMessageType.debug,
]);

/**
 * Whether a relay message goes to the Relay tab: not completion_stream, completion.finished,
 * completion.ended, user_input, debug, nor any other completion event (completion.started, …).
 */
export function isLoggedRelayType(type: string): boolean {
  if (NOT_LOGGED.has(type)) return false;
  if (type === 'completion' || type.startsWith('completion.')) return false;
  return true;
}

/** Newest first, at most `cap` entries (the latest ones). */
export function appendRelayLog(
  log: readonly RelayLogEntry[],
  entry: RelayLogEntry,
  cap: number = RELAY_LOG_CAP,
): RelayLogEntry[] {
  return [entry, ...log].slice(0, Math.max(0, cap));
}
