/**
 * Fake Mistral API on 127.0.0.1:<random port> (base URL `mistral.baseUrl`, …/v1), its real wire format:
 * - `POST /v1/chat/completions` (chat-completions.ts): tool calls arrive whole in one delta with
 *   Mistral's 9-character ids, the usage on the finish chunk. Like Mistral it refuses (400
 *   `invalid_function_call`) any tool call id in the messages that is not 9 letters or digits.
 * - `POST /v1/embeddings` — `{object: 'list', data: [{object: 'embedding', embedding, index}], model,
 *   usage: {prompt_tokens, total_tokens, completion_tokens: 0}}`.
 * - A wrong key: 401 `{"detail": "Unauthorized"}` from Mistral's gateway. Errors of the API itself:
 *   `{"object": "error", "message", "type", "param", "code"}` (a 429 is `rate_limited`, code 1300).
 *
 * ```ts
 * const mistral = await startFakeMistral({ apiKey: 'mk-test' });
 * mistral.chat({ kind: 'reply', text: ['Bon', 'jour'], usage: { prompt: 9, completion: 2 } });
 * mistral.chat({ kind: 'reply', toolCalls: [{ id: 'D681PevKs', name: 'weather', arguments: { city: 'Bern' } }] });
 * mistral.embeddings({ kind: 'embeddings', dimensions: 1024 });
 * mistral.chat({ kind: 'error', status: 429 });
 * ```
 */
import type { ServerResponse } from 'node:http';
import { type ChatCompletionsDialect, FakeChatCompletions } from './chat-completions';
import { type RecordedRequest, sendJson } from './http';
import { type FakeEmbeddingsScript, fakeVector } from './openai';

const MISTRAL_ERRORS: Record<number, [string, string, string | null]> = {
  400: ['Invalid request', 'invalid_request_error', null],
  422: ['Invalid model: unknown', 'invalid_model', '1500'],
  429: ['Rate limit exceeded', 'rate_limited', '1300'],
  500: ['Internal server error', 'internal_server_error', null],
  503: ['Service unavailable', 'service_unavailable', null],
};

function mistralErrorBody(status: number, message?: string) {
  const [text, type, code] = MISTRAL_ERRORS[status] ?? [`HTTP ${status}`, 'api_error', null];
  return { object: 'error', message: message ?? text, type, param: null, code };
}

const TOOL_CALL_ID = /^[a-zA-Z0-9]{9}$/;

/** The tool call ids of a request's messages: the assistant's calls and the tool results. */
function toolCallIds(req: RecordedRequest): string[] {
  const messages = ((req.body ?? {}) as { messages?: unknown[] }).messages ?? [];
  return messages
    .flatMap((m) => {
      const msg = m as { tool_calls?: { id?: unknown }[]; tool_call_id?: unknown };
      return [
        ...(msg.tool_calls ?? []).map((c) => c.id),
        ...(msg.tool_call_id === undefined ? [] : [msg.tool_call_id]),
      ];
    })
    .map(String);
}

const MISTRAL: ChatCompletionsDialect = {
  basePath: '/v1',
  toolArguments: 'whole',
  usage: 'finish-chunk',
  wrongKey: () => ({ status: 401, body: { detail: 'Unauthorized' } }),
  errorBody: (status) => mistralErrorBody(status),
  refuse(req) {
    const bad = toolCallIds(req).find((id) => !TOOL_CALL_ID.test(id));
    if (bad === undefined) return null;
    return {
      status: 400,
      body: {
        object: 'error',
        message: `Tool call id was ${bad} but must be a-z, A-Z, 0-9, with a length of 9.`,
        type: 'invalid_function_call',
        param: null,
        code: '3280',
      },
    };
  },
};

const MISTRAL_EMBEDDINGS_ROUTE = 'POST /v1/embeddings';

export class FakeMistral extends FakeChatCompletions {
  constructor(opts: { apiKey?: string } = {}) {
    super(MISTRAL, opts, [MISTRAL_EMBEDDINGS_ROUTE]);
  }

  embeddings(script: FakeEmbeddingsScript): this {
    this.http.enqueue(MISTRAL_EMBEDDINGS_ROUTE, (req, res) => {
      if (this.refusedKey(req, res)) return;
      return answerEmbeddings(req, res, script);
    });
    return this;
  }
}

function answerEmbeddings(req: RecordedRequest, res: ServerResponse, script: FakeEmbeddingsScript): void {
  if (script.kind === 'hang') return;
  if (script.kind === 'error') {
    sendJson(res, script.status, script.body ?? mistralErrorBody(script.status));
    return;
  }
  if (script.kind === 'raw') {
    res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'application/json' });
    res.end(script.body);
    return;
  }
  const body = (req.body ?? {}) as { input?: string | string[]; model?: string };
  const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
  const vectors = script.vectors ?? inputs.map((text) => fakeVector(String(text), script.dimensions ?? 1024));
  const tokens =
    script.usage ?? inputs.reduce((n, t) => n + String(t).split(/\s+/).filter(Boolean).length, 0);
  sendJson(res, 200, {
    id: 'embd-fake',
    object: 'list',
    data: vectors.map((embedding, index) => ({ object: 'embedding', embedding, index })),
    model: body.model ?? 'mistral-embed',
    usage: { prompt_tokens: tokens, total_tokens: tokens, completion_tokens: 0 },
  });
}

export function startFakeMistral(opts: { apiKey?: string } = {}): Promise<FakeMistral> {
  return new FakeMistral(opts).start();
}
