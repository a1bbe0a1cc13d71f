/** A JSON object (not null, not an array): what parameters, state, config and arguments must be. */
export const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** How deep JSON may nest (objects and arrays) wherever it enters: request bodies and relay state (docs/adr/0022). */
export const JSON_MAX_DEPTH = 64;

/** NUL and unpaired UTF-16 surrogates: PostgreSQL text and jsonb cannot hold them (docs/adr/0022). */
export const hasUnstorableText = (text: string): boolean => text.includes('\u0000') || !isWellFormed(text);

function isWellFormed(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0xd800 || unit > 0xdfff) continue;
    if (unit > 0xdbff) return false;
    const next = text.charCodeAt(i + 1);
    if (!(next >= 0xdc00 && next <= 0xdfff)) return false;
    i++;
  }
  return true;
}

export const TOO_DEEP_TEXT = `JSON must not nest deeper than ${JSON_MAX_DEPTH} levels.`;
export const UNSTORABLE_TEXT = 'Text must not contain NUL characters or unpaired UTF-16 surrogates.';

/** Why a parsed JSON value (or query, path, header value) cannot be taken, and where; null when it can. */
export interface JsonInputProblem {
  path: (string | number)[];
  message: string;
}

/**
 * The first place a value nests deeper than `JSON_MAX_DEPTH` or holds text that cannot be stored (in strings
 * and in keys). The walk stops at the limit, so its own recursion is bounded; the path is built only for a
 * problem, on the way back up.
 */
export function jsonInputProblem(value: unknown, depth = 0): JsonInputProblem | null {
  if (typeof value === 'string')
    return hasUnstorableText(value) ? { path: [], message: UNSTORABLE_TEXT } : null;
  if (typeof value !== 'object' || value === null) return null;
  if (depth >= JSON_MAX_DEPTH) return { path: [], message: TOO_DEEP_TEXT };
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = jsonInputProblem(value[i], depth + 1);
      if (problem) {
        problem.path.unshift(i);
        return problem;
      }
    }
    return null;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (hasUnstorableText(key)) return { path: [], message: UNSTORABLE_TEXT };
    const problem = jsonInputProblem((value as Record<string, unknown>)[key], depth + 1);
    if (problem) {
      problem.path.unshift(key);
      return problem;
    }
  }
  return null;
}
