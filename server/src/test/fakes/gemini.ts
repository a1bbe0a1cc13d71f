/**
 * Fake Gemini API (Google's Generative Language API) on 127.0.0.1:<random port> (base URL
 * `gemini.baseUrl`, …/v1beta), its real wire format for one chat and one embedding model:
 * - `POST /v1beta/models/{chat model}:streamGenerateContent?alt=sse` → SSE (`data: {response}\r\n\r\n`):
 *   one `GenerateContentResponse` per text piece (`candidates[0].content.parts[{text}]`, role `model`),
 *   the function calls whole in one response (`parts[{functionCall: {id, name, args}, thoughtSignature}]`),
 *   the last with `finishReason` and `usageMetadata` (`promptTokenCount`, `candidatesTokenCount`,
 *   `thoughtsTokenCount`, `totalTokenCount`). Without `alt=sse` it is a failure (Gemini would send a
 *   JSON array). `POST …:generateContent` answers the same script as one JSON response.
 * - `POST /v1beta/models/{embedding model}:embedContent` → `{embedding: {values}}`;
 *   `…:batchEmbedContents` (`requests[{model: 'models/…', content: {parts: [{text}]}}]`) →
 *   `{embeddings: [{values}]}`. Gemini reports no token usage for embeddings.
 * - The key in `x-goog-api-key`. Missing: 403 `PERMISSION_DENIED`; wrong: 400 `INVALID_ARGUMENT` with
 *   the reason `API_KEY_INVALID`. Errors are Google RPC errors: `{error: {code, message, status, details}}`.
 * - Gemini 3 models refuse (400) a replayed `functionCall` part without a `thoughtSignature`.
 *
 * ```ts
 * const gemini = await startFakeGemini({ apiKey: 'AIza-test' });  // models: gemini-3.8-flash, gemini-embedding-001
 * gemini.stream({ kind: 'reply', text: ['Hel', 'lo'], usage: { prompt: 9, candidates: 2, thoughts: 5 } });
 * gemini.stream({ kind: 'reply', toolCalls: [{ id: 'fc1', name: 'weather', arguments: { city: 'Bern' } }] });
 * gemini.stream({ kind: 'error', status: 429 });
 * gemini.batchEmbed({ kind: 'embeddings', dimensions: 3072 });
 * ```
 * An unexpected route or an empty queue answers 500 and is recorded in `failures`.
 */
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, FakeOverHttp, type RecordedRequest, sendJson, tick } from './http';
import { type FakeEmbeddingsScript, type FakeToolCall, fakeVector } from './openai';

export type FakeGeminiScript =
  | {
      kind: 'reply';
      /** Text pieces, one streamed response each. */
      text?: string[];
      toolCalls?: FakeToolCall[];
      /** Default `{prompt: 10, candidates: 20}`; `thoughts` are a thinking model's reasoning tokens. */
      usage?: { prompt: number; candidates: number; thoughts?: number };
      /** Default `STOP` (Gemini finishes a function call with `STOP` too). */
      finishReason?: string;
      /** Send the text pieces, then stall forever. */
      stall?: boolean;
    }
  | { kind: 'error'; status: number; body?: unknown }
  | { kind: 'hang' }
  | { kind: 'raw'; body: string; status?: number; contentType?: string };

const RPC_STATUS: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  401: [
    'UNAUTHENTICATED',
    'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
  ],
  403: [
    'PERMISSION_DENIED',
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  ],
  404: ['NOT_FOUND', 'models/unknown is not found for API version v1beta.'],
  429: [
    'RESOURCE_EXHAUSTED',
    'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.',
  ],
  500: [
    'INTERNAL',
    'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
  ],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
};

function geminiErrorBody(status: number, message?: string, details?: unknown[]) {
  const [rpc, text] = RPC_STATUS[status] ?? ['UNKNOWN', `HTTP ${status}`];
  return { error: { code: status, message: message ?? text, status: rpc, ...(details ? { details } : {}) } };
}

const KEY_INVALID = geminiErrorBody(400, 'API key not valid. Please pass a valid API key.', [
  {
    '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
    reason: 'API_KEY_INVALID',
    domain: 'googleapis.com',
    metadata: { service: 'generativelanguage.googleapis.com' },
  },
]);

interface GeminiPart {
  text?: string;
  functionCall?: { name?: string };
  thoughtSignature?: string;
}

/** A Gemini 3 request replaying a function call without its thought signature: Gemini's 400, or null. */
function missingSignature(model: string, req: RecordedRequest): unknown {
  if (!model.startsWith('gemini-3')) return null;
  const contents =
    ((req.body ?? {}) as { contents?: { role?: string; parts?: GeminiPart[] }[] }).contents ?? [];
  for (const [position, content] of contents.entries()) {
    const call = content.parts?.find((p) => p.functionCall && !p.thoughtSignature);
    if (content.role === 'model' && call) {
      return geminiErrorBody(
        400,
        `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${call.functionCall!.name}\` , position ${position + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
      );
    }
  }
  return null;
}

export class FakeGemini extends FakeOverHttp {
  readonly http: FakeHttpServer;
  readonly routes: { stream: string; generate: string; embed: string; batchEmbed: string };
  private seq = 0;

  constructor(private readonly opts: { apiKey?: string; chatModel: string; embeddingModel: string }) {
    super();
    const model = `POST /v1beta/models/${opts.chatModel}`;
    const embedding = `POST /v1beta/models/${opts.embeddingModel}`;
    this.routes = {
      stream: `${model}:streamGenerateContent`,
      generate: `${model}:generateContent`,
      embed: `${embedding}:embedContent`,
      batchEmbed: `${embedding}:batchEmbedContents`,
    };
    this.http = new FakeHttpServer(Object.values(this.routes));
  }

  get baseUrl(): string {
    return `${this.http.url}/v1beta`;
  }

  /** The next `streamGenerateContent` answer. */
  stream(script: FakeGeminiScript): this {
    return this.chatRoute(this.routes.stream, script, true);
  }

  /** The next `generateContent` answer. */
  generate(script: FakeGeminiScript): this {
    return this.chatRoute(this.routes.generate, script, false);
  }

  /** The next `embedContent` answer (one text). */
  embed(script: FakeEmbeddingsScript): this {
    return this.embeddingRoute(this.routes.embed, script, false);
  }

  /** The next `batchEmbedContents` answer (several texts). */
  batchEmbed(script: FakeEmbeddingsScript): this {
    return this.embeddingRoute(this.routes.batchEmbed, script, true);
  }

  /** Answers a request without the expected key as Gemini does; true when it did. */
  private refusedKey(req: RecordedRequest, res: ServerResponse): boolean {
    const key = req.headers['x-goog-api-key'];
    if (this.opts.apiKey === undefined || key === this.opts.apiKey) return false;
    sendJson(res, key === undefined ? 403 : 400, key === undefined ? geminiErrorBody(403) : KEY_INVALID);
    return true;
  }

  private chatRoute(route: string, script: FakeGeminiScript, streamed: boolean): this {
    this.http.enqueue(route, async (req, res) => {
      if (streamed && req.query.alt !== 'sse')
        throw new Error(`expected alt=sse, got ${JSON.stringify(req.query)}`);
      if (this.refusedKey(req, res)) return;
      const refusal = missingSignature(this.opts.chatModel, req);
      if (refusal) return sendJson(res, 400, refusal);
      await this.answerChat(res, script, streamed);
    });
    return this;
  }

  private async answerChat(res: ServerResponse, script: FakeGeminiScript, streamed: boolean): Promise<void> {
    if (script.kind === 'hang') return;
    if (script.kind === 'error')
      return sendJson(res, script.status, script.body ?? geminiErrorBody(script.status));
    if (script.kind === 'raw') {
      res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'text/event-stream' });
      res.end(script.body);
      return;
    }
    const responseId = `fake-response-${++this.seq}`;
    const { prompt, candidates, thoughts } = script.usage ?? { prompt: 10, candidates: 20 };
    const usageMetadata = {
      promptTokenCount: prompt,
      candidatesTokenCount: candidates,
      ...(thoughts ? { thoughtsTokenCount: thoughts } : {}),
      totalTokenCount: prompt + candidates + (thoughts ?? 0),
    };
    const functionCalls = (script.toolCalls ?? []).map((c, i) => ({
      functionCall: {
        id: c.id,
        name: c.name,
        args: typeof c.arguments === 'string' ? JSON.parse(c.arguments) : c.arguments,
      },
      // Gemini 3 signs its reasoning on the first function call of a turn.
      ...(i === 0 ? { thoughtSignature: Buffer.from(`signature-${responseId}`).toString('base64') } : {}),
    }));
    const response = (parts: unknown[], last: boolean) => ({
      candidates: [
        {
          content: { parts, role: 'model' },
          ...(last ? { finishReason: script.finishReason ?? 'STOP' } : {}),
          index: 0,
        },
      ],
      usageMetadata: last ? usageMetadata : { promptTokenCount: prompt, totalTokenCount: prompt },
      modelVersion: this.opts.chatModel,
      responseId,
    });
    const text = script.text ?? [];

    if (!streamed) {
      const parts = [...(text.length ? [{ text: text.join('') }] : []), ...functionCalls];
      return sendJson(res, 200, response(parts, true));
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const write = async (parts: unknown[], last: boolean) => {
      res.write(`data: ${JSON.stringify(response(parts, last))}\r\n\r\n`);
      await tick();
    };
    for (const [i, piece] of text.entries()) {
      await write([{ text: piece }], !script.stall && !functionCalls.length && i === text.length - 1);
    }
    if (script.stall) return;
    if (functionCalls.length) await write(functionCalls, true);
    else if (!text.length) await write([{ text: '' }], true);
    res.end();
  }

  private embeddingRoute(route: string, script: FakeEmbeddingsScript, batch: boolean): this {
    this.http.enqueue(route, (req, res) => {
      if (this.refusedKey(req, res)) return;
      if (script.kind === 'hang') return;
      if (script.kind === 'error')
        return sendJson(res, script.status, script.body ?? geminiErrorBody(script.status));
      if (script.kind === 'raw') {
        res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'application/json' });
        res.end(script.body);
        return;
      }
      type Content = { parts?: { text?: string }[] };
      const body = (req.body ?? {}) as { requests?: { content?: Content }[]; content?: Content };
      const contents = batch ? (body.requests ?? []).map((r) => r.content) : [body.content];
      const texts = contents.map((c) => (c?.parts ?? []).map((p) => p.text ?? '').join(''));
      const vectors = script.vectors ?? texts.map((t) => fakeVector(t, script.dimensions ?? 3072));
      if (batch) return sendJson(res, 200, { embeddings: vectors.map((values) => ({ values })) });
      return sendJson(res, 200, { embedding: { values: vectors[0] } });
    });
    return this;
  }
}

export function startFakeGemini(
  opts: { apiKey?: string; chatModel?: string; embeddingModel?: string } = {},
): Promise<FakeGemini> {
  const fake = new FakeGemini({
    apiKey: opts.apiKey,
    chatModel: opts.chatModel ?? 'gemini-3.8-flash',
    embeddingModel: opts.embeddingModel ?? 'gemini-embedding-001',
  });
  return fake.http.start().then(() => fake);
}
