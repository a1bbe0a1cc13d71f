/**
 * Fake OpenAI API (also serves as any OpenAI-compatible server: Ollama, vLLM, LM Studio, llama.cpp).
 *
 * Speaks the real wire protocol on 127.0.0.1:<random port>:
 * - `POST /v1/chat/completions` — with `stream: true` an SSE answer (`data: {chunk}\n\n` …, `data: [DONE]`):
 *   a role chunk, one chunk per text piece (`choices[0].delta.content`), tool calls as
 *   `delta.tool_calls[{index, id, type, function: {name, arguments}}]` followed by argument fragments,
 *   a chunk with `finish_reason`, and — only when the request asked `stream_options.include_usage` —
 *   a final `choices: []` chunk with `usage`. Without `stream` a `chat.completion` JSON object.
 * - `POST /v1/embeddings` — `{object: 'list', data: [{embedding, index}], usage}`.
 * - `GET /v1/models` — `{object: 'list', data: [{id, object: 'model', created, owned_by}]}`.
 *
 * Usage:
 * ```ts
 * const openai = await startFakeOpenAI({ apiKey: 'sk-test' });   // base URL: openai.baseUrl (…/v1)
 * openai.chat({ kind: 'reply', text: ['Hel', 'lo'], usage: { prompt: 12, completion: 2 } });
 * openai.chat({ kind: 'reply', toolCalls: [{ id: 'call_1', name: 'weather', arguments: { city: 'Bern' } }] });
 * openai.chat({ kind: 'error', status: 429 });      // real OpenAI error body for that status
 * openai.chat({ kind: 'hang' });                    // never answers (timeout tests)
 * openai.chat({ kind: 'raw', body: 'data: {oops\n\n' }); // any bytes as text/event-stream
 * openai.embeddings({ kind: 'embeddings', vectors: [[0.1, 0.2]] });
 * …
 * openai.requests[0].body.tools;  openai.requests[0].headers.authorization;
 * openai.expectNoFailures();  await openai.close();
 * ```
 * Each call consumes one scripted answer from its route's queue; an unexpected route or an empty queue
 * answers 500 and is recorded as a failure. With `apiKey` set, a request carrying another bearer token
 * answers 401 like OpenAI does (not a failure: that is the real protocol).
 */
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, FakeOverHttp, type RecordedRequest, sendJson, startSse, tick } from './http';

export interface FakeToolCall {
  id: string;
  name: string;
  /** An object is sent as JSON; a string is sent as-is (lets a test send malformed arguments). */
  arguments: unknown;
}

export type FakeChatScript =
  | {
      kind: 'reply';
      /** Text pieces, one SSE chunk each (the non-streaming answer joins them). */
      text?: string[];
      toolCalls?: FakeToolCall[];
      /** Default `{prompt: 10, completion: 20}`. */
      usage?: { prompt: number; completion: number };
      /** Default `tool_calls` when there are tool calls, else `stop`. */
      finishReason?: string;
      /** Send the text pieces, then stall forever without finishing (idle-timeout tests). */
      stall?: boolean;
      /** Send the text pieces, then finish only once this settles (a reply as long as the test needs). */
      until?: Promise<unknown>;
    }
  | { kind: 'error'; status: number; body?: unknown }
  | { kind: 'hang' }
  | { kind: 'raw'; body: string; status?: number; contentType?: string };

export type FakeEmbeddingsScript =
  | {
      kind: 'embeddings';
      /** One vector per input; default a deterministic vector of `dimensions` (default 8) per input. */
      vectors?: number[][];
      dimensions?: number;
      /** Default: one token per whitespace-separated word of all inputs. */
      usage?: number;
    }
  | { kind: 'error'; status: number; body?: unknown }
  | { kind: 'hang' }
  | { kind: 'raw'; body: string; status?: number; contentType?: string };

const CHAT_ROUTE = 'POST /v1/chat/completions';
const EMBEDDINGS_ROUTE = 'POST /v1/embeddings';
const MODELS_ROUTE = 'GET /v1/models';

const ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
  400: { message: 'Invalid request.', type: 'invalid_request_error', code: null },
  401: {
    message:
      'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    type: 'invalid_request_error',
    code: 'invalid_api_key',
  },
  403: {
    message: 'You are not allowed to sample from this model',
    type: 'invalid_request_error',
    code: null,
  },
  404: { message: 'The model does not exist', type: 'invalid_request_error', code: 'model_not_found' },
  429: { message: 'Rate limit reached for requests', type: 'requests', code: 'rate_limit_exceeded' },
  500: {
    message: 'The server had an error while processing your request.',
    type: 'server_error',
    code: null,
  },
  503: { message: 'The engine is currently overloaded.', type: 'server_error', code: null },
};

function openAiErrorBody(status: number, message?: string) {
  const e = ERRORS[status] ?? { message: `HTTP ${status}`, type: 'server_error', code: null };
  return { error: { message: message ?? e.message, type: e.type, param: null, code: e.code } };
}

/** Splits a string into about `n` fragments (at least one), the way providers stream arguments. */
export function fragments(s: string, n = 3): string[] {
  if (s.length === 0) return [''];
  const size = Math.max(1, Math.ceil(s.length / n));
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const argText = (a: unknown) => (typeof a === 'string' ? a : JSON.stringify(a));

export class FakeOpenAI extends FakeOverHttp {
  readonly http: FakeHttpServer;
  private seq = 0;

  /** `routes`: where chat and embeddings are served (Azure's fake serves them under its own paths). */
  constructor(
    protected readonly opts: { apiKey?: string } = {},
    protected readonly routes: { chat: string; embeddings: string; models?: string } = {
      chat: CHAT_ROUTE,
      embeddings: EMBEDDINGS_ROUTE,
      models: MODELS_ROUTE,
    },
  ) {
    super();
    this.http = new FakeHttpServer(Object.values(routes));
  }

  /** Base URL to configure a client with (ends in `/v1`). */
  get baseUrl(): string {
    return `${this.http.url}/v1`;
  }
  /** Requests to one route only. */
  requestsTo(route: string): RecordedRequest[] {
    return this.http.requests.filter((r) => `${r.method} ${r.path}` === route);
  }

  chat(script: FakeChatScript): this {
    this.http.enqueue(this.routes.chat, (req, res) => {
      if (this.refused(req, res)) return;
      return this.answerChat(req, res, script);
    });
    return this;
  }

  /** Answers the next `GET /v1/models` with these model ids (`{object: 'list', data: [{id, object, created, owned_by}]}`). */
  models(ids: string[]): this {
    const route = this.routes.models;
    if (!route) throw new Error('this fake serves no model list');
    this.http.enqueue(route, (req, res) => {
      if (this.refused(req, res)) return;
      sendJson(res, 200, {
        object: 'list',
        data: ids.map((id) => ({
          id,
          object: 'model',
          created: 1_700_000_000,
          owned_by: 'organization-owner',
        })),
      });
    });
    return this;
  }

  embeddings(script: FakeEmbeddingsScript): this {
    this.http.enqueue(this.routes.embeddings, (req, res) => {
      if (this.refused(req, res)) return;
      return this.answerEmbeddings(req, res, script);
    });
    return this;
  }

  /** Answers a request the real service refuses (wrong credentials) the way it does; true when it did. */
  protected refused(req: RecordedRequest, res: ServerResponse): boolean {
    if (this.opts.apiKey === undefined || req.headers.authorization === `Bearer ${this.opts.apiKey}`)
      return false;
    sendJson(res, 401, this.errorBody(401));
    return true;
  }

  /** The service's error body for a status. */
  protected errorBody(status: number): unknown {
    return openAiErrorBody(status);
  }

  /** Chunks the service sends before the first choice (none for OpenAI). */
  protected preludeChunks(): Record<string, unknown>[] {
    return [];
  }

  private async answerChat(req: RecordedRequest, res: ServerResponse, script: FakeChatScript): Promise<void> {
    if (script.kind === 'hang') return;
    if (script.kind === 'error')
      return sendJson(res, script.status, script.body ?? this.errorBody(script.status));
    if (script.kind === 'raw') {
      res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'text/event-stream' });
      res.end(script.body);
      return;
    }
    const body = (req.body ?? {}) as {
      model?: string;
      stream?: boolean;
      stream_options?: { include_usage?: boolean };
    };
    const id = `chatcmpl-fake${++this.seq}`;
    const model = body.model ?? 'fake-model';
    const created = 1_700_000_000;
    const toolCalls = script.toolCalls ?? [];
    const finish = script.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop');
    const usage = script.usage ?? { prompt: 10, completion: 20 };
    const usageBody = {
      prompt_tokens: usage.prompt,
      completion_tokens: usage.completion,
      total_tokens: usage.prompt + usage.completion,
    };

    if (!body.stream) {
      const text = (script.text ?? []).join('');
      return sendJson(res, 200, {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: text.length ? text : null,
              ...(toolCalls.length
                ? {
                    tool_calls: toolCalls.map((c) => ({
                      id: c.id,
                      type: 'function',
                      function: { name: c.name, arguments: argText(c.arguments) },
                    })),
                  }
                : {}),
            },
            finish_reason: finish,
          },
        ],
        usage: usageBody,
      });
    }

    startSse(res);
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`;
    const write = async (s: string) => {
      res.write(s);
      await tick();
    };
    for (const extra of this.preludeChunks()) await write(chunk([], extra));
    await write(chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]));
    for (const piece of script.text ?? []) {
      await write(chunk([{ index: 0, delta: { content: piece }, finish_reason: null }]));
    }
    if (script.stall) return;
    if (script.until) await script.until;
    for (const [index, c] of toolCalls.entries()) {
      await write(
        chunk([
          {
            index: 0,
            delta: {
              tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: '' } }],
            },
            finish_reason: null,
          },
        ]),
      );
      for (const frag of fragments(argText(c.arguments))) {
        await write(
          chunk([
            {
              index: 0,
              delta: { tool_calls: [{ index, function: { arguments: frag } }] },
              finish_reason: null,
            },
          ]),
        );
      }
    }
    await write(chunk([{ index: 0, delta: {}, finish_reason: finish }]));
    if (body.stream_options?.include_usage) await write(chunk([], { usage: usageBody }));
    res.end('data: [DONE]\n\n');
  }

  private answerEmbeddings(req: RecordedRequest, res: ServerResponse, script: FakeEmbeddingsScript): void {
    if (script.kind === 'hang') return;
    if (script.kind === 'error') {
      sendJson(res, script.status, script.body ?? this.errorBody(script.status));
      return;
    }
    if (script.kind === 'raw') {
      res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'application/json' });
      res.end(script.body);
      return;
    }
    const body = (req.body ?? {}) as { input?: string | string[]; model?: string };
    const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
    const dims = script.dimensions ?? 8;
    const vectors = script.vectors ?? inputs.map((text) => fakeVector(String(text), dims));
    const tokens =
      script.usage ?? inputs.reduce((n, t) => n + String(t).split(/\s+/).filter(Boolean).length, 0);
    sendJson(res, 200, {
      object: 'list',
      data: vectors.map((embedding, index) => ({ object: 'embedding', index, embedding })),
      model: body.model ?? 'fake-embedding',
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }
}

/** A deterministic stand-in vector: depends only on the text. */
export function fakeVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (let i = 0; i < text.length; i++) v[i % dims]! += (text.charCodeAt(i) % 13) / 13;
  return v.map((x) => Math.round(x * 1000) / 1000);
}

export async function startFakeOpenAI(opts: { apiKey?: string } = {}): Promise<FakeOpenAI> {
  const fake = new FakeOpenAI(opts);
  await fake.http.start();
  return fake;
}
