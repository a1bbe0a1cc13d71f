import { type ErrorBody, type OpenAiError, openAiErrorSchema } from '@llmor/contracts';

/** OpenAI's error `type` and `code` per status, as its API answers them. */
const KINDS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  402: { type: 'insufficient_quota', code: 'insufficient_quota' },
  403: { type: 'invalid_request_error', code: 'forbidden' },
  404: { type: 'invalid_request_error', code: 'not_found' },
  405: { type: 'invalid_request_error', code: 'method_not_allowed' },
  409: { type: 'invalid_request_error', code: 'conversation_busy' },
  413: { type: 'invalid_request_error', code: 'request_too_large' },
  429: { type: 'requests', code: 'rate_limit_exceeded' },
  504: { type: 'server_error', code: 'timeout' },
};

/** `{name, message, errors?}` → `{error: {message, type, param, code}}`; field errors name the first field as `param`. */
export function openAiError(body: ErrorBody, status: number): OpenAiError {
  const kind = KINDS[status] ?? { type: 'server_error', code: null };
  const fields = Object.entries(body.errors ?? {});
  const details = fields.map(
    ([field, text]) => `${field}: ${Array.isArray(text) ? text.join(', ') : String(text)}`,
  );
  return {
    error: {
      message: details.length ? `${body.message} ${details.join('; ')}` : body.message,
      type: kind.type,
      param: fields[0]?.[0] ?? null,
      code: kind.code,
    },
  };
}

/** The pipeline's error shape for the OpenAI-compatible routes. */
export const openAiErrorShape = { schema: openAiErrorSchema, present: openAiError };

/** A declared route: its method and its URL pattern (`:name` parameters). */
interface Declared {
  method: string;
  url: string;
}

const OPENAI_PREFIX = '/v1/openai';

/**
 * What answers a request under `/v1/openai` that no route takes, in OpenAI's shape: 405 with `Allow`
 * when the path is a route's under another method, else 404. Null for any other path.
 */
export function openAiUnrouted(
  declared: readonly Declared[],
): (method: string, url: string) => { status: 404 | 405; allow?: string; body: OpenAiError } | null {
  const routes = declared
    .filter((r) => r.url.startsWith(`${OPENAI_PREFIX}/`))
    .map((r) => ({
      methods: r.method === 'GET' ? ['GET', 'HEAD'] : [r.method],
      pattern: new RegExp(`^${r.url.replace(/:[^/]+/g, '[^/]+')}/?$`),
    }));
  return (method, url) => {
    const path = url.split('?')[0]!;
    if (path !== OPENAI_PREFIX && !path.startsWith(`${OPENAI_PREFIX}/`)) return null;
    const allowed = routes.filter((r) => r.pattern.test(path)).flatMap((r) => r.methods);
    if (allowed.length) {
      const message = `${method} is not allowed on ${path}; use ${allowed.join(' or ')}.`;
      return {
        status: 405,
        allow: allowed.join(', '),
        body: openAiError({ name: 'MethodNotAllowed', message }, 405),
      };
    }
    return {
      status: 404,
      body: openAiError({ name: 'NotFound', message: `Unknown request URL: ${method} ${path}.` }, 404),
    };
  };
}
