/**
 * Fake Groq API on 127.0.0.1:<random port> (base URL `groq.baseUrl`, …/openai/v1), its real wire format:
 * `POST /openai/v1/chat/completions` (chat-completions.ts) with tool calls whole in one delta and the
 * usage in `x_groq.usage` on the finish chunk. Errors are `{"error": {"message", "type", "code"}}`: a
 * wrong key is 401 `Invalid API Key`, a 429 names the model and the limit it hit.
 *
 * ```ts
 * const groq = await startFakeGroq({ apiKey: 'gsk_test' });
 * groq.chat({ kind: 'reply', text: ['Fast'], usage: { prompt: 9, completion: 1 } });
 * groq.chat({ kind: 'error', status: 429 });
 * ```
 */
import { type ChatCompletionsDialect, FakeChatCompletions } from './chat-completions';
import type { RecordedRequest } from './http';

const modelOf = (req: RecordedRequest) => String((req.body as { model?: unknown } | undefined)?.model);

function groqErrorBody(status: number, req: RecordedRequest) {
  switch (status) {
    case 401:
      return {
        error: { message: 'Invalid API Key', type: 'invalid_request_error', code: 'invalid_api_key' },
      };
    case 429:
      return {
        error: {
          message: `Rate limit reached for model \`${modelOf(req)}\` in organization \`org_01fake\` service tier \`on_demand\` on tokens per minute (TPM): Limit 8000, Used 7990, Requested 120. Please try again in 825ms. Need more tokens? Upgrade to Dev Tier today at https://console.groq.com/settings/billing`,
          type: 'tokens',
          code: 'rate_limit_exceeded',
        },
      };
    case 503:
      return {
        error: {
          message: 'Service Unavailable: the server is temporarily overloaded. Please try again later.',
          type: 'internal_server_error',
        },
      };
    default:
      return {
        error: {
          message: `HTTP ${status}`,
          type: status >= 500 ? 'internal_server_error' : 'invalid_request_error',
        },
      };
  }
}

const GROQ: ChatCompletionsDialect = {
  basePath: '/openai/v1',
  toolArguments: 'whole',
  usage: 'x_groq',
  wrongKey: (req) => ({ status: 401, body: groqErrorBody(401, req) }),
  errorBody: groqErrorBody,
};

export type FakeGroq = FakeChatCompletions;

export function startFakeGroq(opts: { apiKey?: string } = {}): Promise<FakeGroq> {
  return new FakeChatCompletions(GROQ, opts).start();
}
