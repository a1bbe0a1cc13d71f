/**
 * Fake DeepSeek API on 127.0.0.1:<random port> (base URL `deepseek.baseUrl`, the origin itself), its real
 * wire format: `POST /chat/completions` (chat-completions.ts) with `: keep-alive` comments before the
 * first chunk, tool call arguments in fragments and the usage on the finish chunk. Errors are
 * `{"error": {"message", "type", "param", "code"}}`; a wrong key is 401 `Authentication Fails` naming the
 * key's last four characters.
 *
 * Thinking mode is DeepSeek's default: a request that does not disable it (`thinking: {type: 'disabled'}`)
 * and replays an assistant tool call without that turn's `reasoning_content` is refused with 400, as
 * DeepSeek does.
 *
 * ```ts
 * const deepseek = await startFakeDeepSeek({ apiKey: 'sk-test' });
 * deepseek.chat({ kind: 'reply', text: ['Hi'], usage: { prompt: 9, completion: 1 } });
 * deepseek.chat({ kind: 'error', status: 429 });
 * ```
 */
import { type ChatCompletionsDialect, FakeChatCompletions } from './chat-completions';
import type { RecordedRequest } from './http';

const DEEPSEEK_ERRORS: Record<number, [string, string]> = {
  400: ['Invalid request body format.', 'invalid_request_error'],
  402: ['Insufficient Balance', 'unknown_error'],
  422: ['Invalid parameters.', 'invalid_request_error'],
  429: ['Rate Limit Reached', 'rate_limit_error'],
  500: ['Server Error', 'server_error'],
  503: ['Server Overloaded', 'server_error'],
};

function deepSeekErrorBody(status: number, message?: string) {
  const [text, type] = DEEPSEEK_ERRORS[status] ?? [`HTTP ${status}`, 'unknown_error'];
  return { error: { message: message ?? text, type, param: null, code: 'invalid_request_error' } };
}

function bearerKey(req: RecordedRequest): string {
  const auth = req.headers.authorization;
  return typeof auth === 'string' ? auth.replace(/^Bearer /, '') : '';
}

/** An assistant tool call replayed without its reasoning while thinking is on. */
function missingReasoning(req: RecordedRequest): boolean {
  const body = (req.body ?? {}) as {
    thinking?: { type?: string };
    messages?: { role?: string; tool_calls?: unknown[]; reasoning_content?: unknown }[];
  };
  if (body.thinking?.type === 'disabled') return false;
  return (body.messages ?? []).some(
    (m) => m.role === 'assistant' && m.tool_calls?.length && !m.reasoning_content,
  );
}

const DEEPSEEK: ChatCompletionsDialect = {
  basePath: '',
  toolArguments: 'fragments',
  usage: 'finish-chunk',
  keepAlive: true,
  wrongKey: (req) => ({
    status: 401,
    body: {
      error: {
        message: `Authentication Fails, Your api key: ****${bearerKey(req).slice(-4)} is invalid`,
        type: 'authentication_error',
        param: null,
        code: 'invalid_request_error',
      },
    },
  }),
  errorBody: (status) => deepSeekErrorBody(status),
  refuse: (req) =>
    missingReasoning(req)
      ? {
          status: 400,
          body: deepSeekErrorBody(
            400,
            'The reasoning_content in the thinking mode must be passed back to the API.',
          ),
        }
      : null,
};

export type FakeDeepSeek = FakeChatCompletions;

export function startFakeDeepSeek(opts: { apiKey?: string } = {}): Promise<FakeDeepSeek> {
  return new FakeChatCompletions(DEEPSEEK, opts).start();
}
