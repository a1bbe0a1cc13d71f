import { type ErrorBody, type OpenAiError, openAiErrorSchema } from '@llmor/contracts';

/** OpenAI's error `type` and `code` per status, as its API answers them. */
const KINDS: Record<number, { type: string; code: string | null }> = {
  400: { type: 'invalid_request_error', code: null },
  401: { type: 'invalid_request_error', code: 'invalid_api_key' },
  402: { type: 'insufficient_quota', code: 'insufficient_quota' },
  403: { type: 'invalid_request_error', code: 'forbidden' },
  404: { type: 'invalid_request_error', code: 'not_found' },
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
