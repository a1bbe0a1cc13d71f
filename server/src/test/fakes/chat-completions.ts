/**
 * The base of the fakes of providers whose chat API is shaped like OpenAI's chat completions but is not
 * OpenAI's (Mistral, Groq, DeepSeek: see their files). What differs between them is a dialect: where the
 * API lives, whether tool call arguments stream in fragments or whole, where the stream's usage goes,
 * what the provider answers to a wrong key and its error bodies, and requests it refuses.
 *
 * - `POST <basePath>/chat/completions` with `stream: true` → SSE (`data: {chunk}\n\n` …, `data: [DONE]`): a
 *   role chunk, one chunk per text piece (`choices[0].delta.content`), the tool calls
 *   (`delta.tool_calls[{index, id, type, function: {name, arguments}}]`), a chunk with `finish_reason`
 *   (and the usage where the dialect puts it). Without `stream` a `chat.completion` JSON object.
 *
 * Scripts are the OpenAI fake's (`FakeChatScript`: `reply` / `error` / `hang` / `raw`). A request with
 * another key answers as the provider does (not a failure: that is the real protocol); an unexpected
 * route or an empty queue answers 500 and is recorded in `failures`.
 */
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, FakeOverHttp, type RecordedRequest, sendJson, startSse, tick } from './http';
import { type FakeChatScript, fragments } from './openai';

export interface ChatCompletionsDialect {
  /** Path of the API under the fake's origin ('' for DeepSeek, '/v1' for Mistral, '/openai/v1' for Groq). */
  basePath: string;
  /** Tool call arguments in fragments (DeepSeek, like OpenAI) or whole in one delta (Mistral, Groq). */
  toolArguments: 'fragments' | 'whole';
  /** On the finish chunk (`usage`: Mistral, DeepSeek) or Groq's `x_groq.usage`. */
  usage: 'finish-chunk' | 'x_groq';
  /** SSE comment lines before the first chunk (DeepSeek's `: keep-alive` while it queues). */
  keepAlive?: boolean;
  /** The provider's answer to a request without the expected key. */
  wrongKey(req: RecordedRequest): { status: number; body: unknown };
  /** The provider's error body for an HTTP status. */
  errorBody(status: number, req: RecordedRequest): unknown;
  /** A request the real API refuses: its answer, or null. */
  refuse?(req: RecordedRequest): { status: number; body: unknown } | null;
}

interface ChatRequestBody {
  model?: string;
  stream?: boolean;
}

export class FakeChatCompletions extends FakeOverHttp {
  readonly http: FakeHttpServer;
  readonly chatRoute: string;
  private seq = 0;

  constructor(
    protected readonly dialect: ChatCompletionsDialect,
    private readonly opts: { apiKey?: string } = {},
    otherRoutes: string[] = [],
  ) {
    super();
    this.chatRoute = `POST ${dialect.basePath}/chat/completions`;
    this.http = new FakeHttpServer([this.chatRoute, ...otherRoutes]);
  }

  async start(): Promise<this> {
    await this.http.start();
    return this;
  }

  /** Base URL to configure a client with. */
  get baseUrl(): string {
    return `${this.http.url}${this.dialect.basePath}`;
  }

  chat(script: FakeChatScript): this {
    this.http.enqueue(this.chatRoute, (req, res) => {
      if (this.refusedKey(req, res)) return;
      const refusal = this.dialect.refuse?.(req);
      if (refusal) return sendJson(res, refusal.status, refusal.body);
      return this.answerChat(req, res, script);
    });
    return this;
  }

  /** Answers a request without the expected bearer token as the provider does; true when it did. */
  protected refusedKey(req: RecordedRequest, res: ServerResponse): boolean {
    if (this.opts.apiKey === undefined || req.headers.authorization === `Bearer ${this.opts.apiKey}`)
      return false;
    const { status, body } = this.dialect.wrongKey(req);
    sendJson(res, status, body);
    return true;
  }

  private async answerChat(req: RecordedRequest, res: ServerResponse, script: FakeChatScript): Promise<void> {
    if (script.kind === 'hang') return;
    if (script.kind === 'error')
      return sendJson(res, script.status, script.body ?? this.dialect.errorBody(script.status, req));
    if (script.kind === 'raw') {
      res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'text/event-stream' });
      res.end(script.body);
      return;
    }
    const body = (req.body ?? {}) as ChatRequestBody;
    const id = `fake${++this.seq}`;
    const model = body.model ?? 'fake-model';
    const created = 1_700_000_000;
    const text = script.text ?? [];
    const toolCalls = (script.toolCalls ?? []).map((c) => ({
      id: c.id,
      name: c.name,
      arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
    }));
    const finish = script.finishReason ?? (toolCalls.length ? 'tool_calls' : 'stop');
    const { prompt, completion } = script.usage ?? { prompt: 10, completion: 20 };
    const usage = { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };

    if (!body.stream) {
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
              content: text.join(''),
              ...(toolCalls.length
                ? {
                    tool_calls: toolCalls.map((c) => ({
                      id: c.id,
                      type: 'function',
                      function: { name: c.name, arguments: c.arguments },
                    })),
                  }
                : {}),
            },
            finish_reason: finish,
          },
        ],
        usage,
      });
    }

    startSse(res);
    const write = async (choices: unknown[], extra: Record<string, unknown> = {}) => {
      res.write(
        `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices, ...extra })}\n\n`,
      );
      await tick();
    };
    const delta = (d: Record<string, unknown>, finishReason: string | null = null) => [
      { index: 0, delta: d, finish_reason: finishReason },
    ];
    if (this.dialect.keepAlive) {
      res.write(': keep-alive\n\n');
      await tick();
    }
    await write(delta({ role: 'assistant', content: '' }));
    for (const piece of text) await write(delta({ content: piece }));
    if (script.stall) return;
    for (const [index, c] of toolCalls.entries()) {
      const pieces = this.dialect.toolArguments === 'whole' ? [c.arguments] : fragments(c.arguments);
      const [first, ...rest] = pieces;
      await write(
        delta({
          tool_calls: [{ index, id: c.id, type: 'function', function: { name: c.name, arguments: first } }],
        }),
      );
      for (const frag of rest) await write(delta({ tool_calls: [{ index, function: { arguments: frag } }] }));
    }
    await write(
      delta({ content: '' }, finish),
      this.dialect.usage === 'x_groq' ? { x_groq: { id: `req_${id}`, usage } } : { usage },
    );
    res.end('data: [DONE]\n\n');
  }
}
