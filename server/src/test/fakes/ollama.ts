/**
 * Fake Ollama server on 127.0.0.1:<random port>, its native API as Ollama documents it:
 * - `POST /api/chat` with `stream: true` → `application/x-ndjson`: one JSON object per line,
 *   `{model, created_at, message: {role: 'assistant', content}, done: false}` per text piece, tool calls
 *   whole in one line (`message.tool_calls: [{function: {name, arguments: {…}}}]`), then a last line with
 *   `done: true`, `done_reason` and the counts (`prompt_eval_count`, `eval_count`, durations).
 * - `POST /api/embed` `{model, input: [...]}` → `{model, embeddings, total_duration, load_duration, prompt_eval_count}`.
 * - `GET /api/tags` → `{models: [{name, model, modified_at, size, digest, details}]}`.
 * Errors are `{"error": "<text>"}` with the status. With `apiKey` set (Ollama's cloud, or a proxy in front
 * of a server), a request without `Authorization: Bearer <apiKey>` answers 401 `{"error": "unauthorized"}`.
 *
 * ```ts
 * const ollama = await startFakeOllama();           // ollama.baseUrl ends in /api
 * ollama.chat({ kind: 'reply', text: ['Hi'], usage: { prompt: 9, completion: 1 } });
 * ollama.chat({ kind: 'error', status: 404, message: 'model "x" not found, try pulling it first' });
 * ollama.tags(['llama3.1:8b', 'nomic-embed-text:latest']);  ollama.embed({ kind: 'embeddings', dimensions: 4 });
 * ```
 * Anything unexpected answers 500 and is recorded in `failures`.
 */
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, FakeOverHttp, type RecordedRequest, sendJson, tick } from './http';
import { type FakeToolCall, fakeVector } from './openai';

export type FakeOllamaChatScript =
  | {
      kind: 'reply';
      text?: string[];
      toolCalls?: Omit<FakeToolCall, 'id'>[];
      /** Default `{prompt: 10, completion: 20}`. */
      usage?: { prompt: number; completion: number };
      /** Default `stop`. */
      doneReason?: string;
    }
  | { kind: 'error'; status: number; message?: string }
  | { kind: 'hang' }
  | { kind: 'raw'; body: string; status?: number; contentType?: string };

export type FakeOllamaEmbedScript =
  | { kind: 'embeddings'; vectors?: number[][]; dimensions?: number; usage?: number }
  | { kind: 'error'; status: number; message?: string };

const OLLAMA_CHAT_ROUTE = 'POST /api/chat';
const OLLAMA_EMBED_ROUTE = 'POST /api/embed';
const OLLAMA_TAGS_ROUTE = 'GET /api/tags';

const OLLAMA_ERRORS: Record<number, string> = {
  401: 'unauthorized',
  404: 'model "llama3.1:8b" not found, try pulling it first',
  429: 'you have reached your hourly usage limit, please upgrade to continue',
  500: 'llama runner process has terminated: exit status 2',
  503: 'server busy, please try again.  maximum pending requests exceeded',
};

const errorBody = (status: number, message?: string) => ({
  error: message ?? OLLAMA_ERRORS[status] ?? `HTTP ${status}`,
});

const CREATED_AT = '2026-11-25T01:00:00.000000000Z';

export class FakeOllama extends FakeOverHttp {
  readonly http = new FakeHttpServer([OLLAMA_CHAT_ROUTE, OLLAMA_EMBED_ROUTE, OLLAMA_TAGS_ROUTE]);

  constructor(private readonly opts: { apiKey?: string } = {}) {
    super();
  }

  /** Base URL of the native API (ends in `/api`). */
  get baseUrl(): string {
    return `${this.http.url}/api`;
  }

  chat(script: FakeOllamaChatScript): this {
    this.http.enqueue(OLLAMA_CHAT_ROUTE, (req, res) => {
      if (this.refused(req, res)) return;
      return this.answerChat(req, res, script);
    });
    return this;
  }

  embed(script: FakeOllamaEmbedScript): this {
    this.http.enqueue(OLLAMA_EMBED_ROUTE, (req, res) => {
      if (this.refused(req, res)) return;
      if (script.kind === 'error')
        return sendJson(res, script.status, errorBody(script.status, script.message));
      const body = (req.body ?? {}) as { model?: string; input?: string | string[] };
      const inputs = Array.isArray(body.input) ? body.input : [body.input ?? ''];
      const embeddings = script.vectors ?? inputs.map((t) => fakeVector(t, script.dimensions ?? 8));
      sendJson(res, 200, {
        model: body.model,
        embeddings,
        total_duration: 14_143_917,
        load_duration: 1_019_500,
        prompt_eval_count: script.usage ?? inputs.join(' ').split(/\s+/).filter(Boolean).length,
      });
    });
    return this;
  }

  /** Answers the next `GET /api/tags` with these models, or with an error. */
  tags(models: string[] | { status: number; message?: string }): this {
    this.http.enqueue(OLLAMA_TAGS_ROUTE, (req, res) => {
      if (this.refused(req, res)) return;
      if (!Array.isArray(models))
        return sendJson(res, models.status, errorBody(models.status, models.message));
      sendJson(res, 200, {
        models: models.map((name, i) => ({
          name,
          model: name,
          modified_at: '2026-11-20T09:00:00.000000000Z',
          size: 4_920_753_328 + i,
          digest: `${i}`.padStart(64, 'a'),
          details: {
            parent_model: '',
            format: 'gguf',
            family: 'llama',
            families: ['llama'],
            parameter_size: '8.0B',
            quantization_level: 'Q4_K_M',
          },
        })),
      });
    });
    return this;
  }

  private refused(req: RecordedRequest, res: ServerResponse): boolean {
    if (this.opts.apiKey === undefined || req.headers.authorization === `Bearer ${this.opts.apiKey}`)
      return false;
    sendJson(res, 401, errorBody(401));
    return true;
  }

  private async answerChat(
    req: RecordedRequest,
    res: ServerResponse,
    script: FakeOllamaChatScript,
  ): Promise<void> {
    if (script.kind === 'hang') return;
    if (script.kind === 'error')
      return sendJson(res, script.status, errorBody(script.status, script.message));
    if (script.kind === 'raw') {
      res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'application/x-ndjson' });
      res.end(script.body);
      return;
    }
    const body = (req.body ?? {}) as { model?: string; stream?: boolean };
    if (body.stream !== true) {
      this.http.failures.push('POST /api/chat: expected stream: true');
      return sendJson(res, 400, errorBody(400, 'expected a streamed request'));
    }
    const model = body.model ?? 'fake';
    const line = async (o: Record<string, unknown>) => {
      res.write(`${JSON.stringify({ model, created_at: CREATED_AT, ...o })}\n`);
      await tick();
    };
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    for (const piece of script.text ?? []) {
      await line({ message: { role: 'assistant', content: piece }, done: false });
    }
    if (script.toolCalls?.length) {
      await line({
        message: {
          role: 'assistant',
          content: '',
          tool_calls: script.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })),
        },
        done: false,
      });
    }
    const usage = script.usage ?? { prompt: 10, completion: 20 };
    await line({
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: script.doneReason ?? 'stop',
      total_duration: 5_043_500_667,
      load_duration: 5_025_959,
      prompt_eval_count: usage.prompt,
      prompt_eval_duration: 325_953_000,
      eval_count: usage.completion,
      eval_duration: 4_709_213_000,
    });
    res.end();
  }
}

export async function startFakeOllama(opts: { apiKey?: string } = {}): Promise<FakeOllama> {
  const fake = new FakeOllama(opts);
  await fake.http.start();
  return fake;
}
