/**
 * What an error becomes in the log. Database errors carry the values of the statement that failed (Drizzle's
 * `params` and its message `Failed query: … params: …`, the driver's `detail` such as `Key (email)=(…)`):
 * e-mail addresses, names, password hashes. The log keeps the statement's text and the database's own
 * message, never the values (docs/adr/0022).
 */

/** Properties that hold a failed statement's values. */
const VALUE_KEYS = new Set(['params', 'parameters', 'detail', 'where', 'internalQuery']);
/** How many causes deep the log follows an error. */
const CAUSE_DEPTH = 5;

export interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** The `err` serializer of the app's logger. */
export function serializeError(err: Error): LoggedError {
  return serialize(err, 0);
}

function serialize(err: Error, depth: number): LoggedError {
  const message = messageWithoutValues(err);
  const logged: LoggedError = {
    type: err.constructor.name,
    message,
    stack: (err.stack ?? '').replace(err.message, message),
  };
  for (const [key, value] of Object.entries(err)) {
    if (VALUE_KEYS.has(key) || key === 'cause' || key === 'message' || key === 'stack') continue;
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) logged[key] = value;
  }
  if (err.cause instanceof Error && depth < CAUSE_DEPTH) logged.cause = serialize(err.cause, depth + 1);
  return logged;
}

/** Drizzle's query error names the statement and then its values: keep the statement. */
function messageWithoutValues(err: Error): string {
  if (!('params' in err)) return err.message;
  const query = 'query' in err && typeof err.query === 'string' ? err.query : '';
  return `Failed query: ${query}`;
}
