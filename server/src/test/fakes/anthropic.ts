/**
 * Fake Anthropic Messages API on 127.0.0.1:<random port>, real wire protocol:
 * - `POST /v1/messages` with `stream: true` → SSE: `event: message_start` (usage.input_tokens),
 *   per content block `content_block_start` / `content_block_delta` (`text_delta` or `input_json_delta`
 *   with `partial_json` fragments) / `content_block_stop`, a `ping`, `message_delta` (stop_reason,
 *   usage.output_tokens) and `message_stop`. Without `stream` a `message` JSON object.
 *
 * Usage:
 * ```ts
 * const anthropic = await startFakeAnthropic({ apiKey: 'sk-ant-test' });  // base URL: anthropic.baseUrl (…/v1)
 * anthropic.messages({ kind: 'reply', text: ['Hel', 'lo'], usage: { input: 9, output: 2 } });
 * anthropic.messages({ kind: 'reply', toolCalls: [{ id: 'toolu_1', name: 'weather', arguments: { city: 'Bern' } }] });
 * anthropic.messages({ kind: 'error', status: 401 });   // real Anthropic error body
 * anthropic.messages({ kind: 'hang' });
 * anthropic.requests[0].headers['x-api-key']; anthropic.expectNoFailures(); await anthropic.close();
 * ```
 * An unexpected route or an empty queue answers 500 and is recorded in `failures`. With `apiKey` set, a
 * request with another `x-api-key` answers 401 like Anthropic does.
 */
import type { ServerResponse } from 'node:http';
import { FakeHttpServer, FakeOverHttp, type RecordedRequest, sendJson, startSse, tick } from './http';
import { type FakeToolCall, fragments } from './openai';

export type FakeAnthropicScript =
  | {
      kind: 'reply';
      text?: string[];
      toolCalls?: FakeToolCall[];
      /** Default `{input: 10, output: 20}`. */
      usage?: { input: number; output: number };
      /** Default `tool_use` when there are tool calls, else `end_turn`. */
      stopReason?: string;
      /** Send the text, then stall forever. */
      stall?: boolean;
    }
  | { kind: 'error'; status: number; body?: unknown }
  | { kind: 'hang' }
  | { kind: 'raw'; body: string; status?: number; contentType?: string };

const MESSAGES_ROUTE = 'POST /v1/messages';

const ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'The requested resource could not be found.'],
  429: ['rate_limit_error', 'Number of request tokens has exceeded your per-minute rate limit'],
  500: ['api_error', 'An unexpected error has occurred internal to Anthropic’s systems.'],
  529: ['overloaded_error', 'Anthropic’s API is temporarily overloaded.'],
};

function anthropicErrorBody(status: number, message?: string) {
  const [type, text] = ERROR_TYPES[status] ?? ['api_error', `HTTP ${status}`];
  return { type: 'error', error: { type, message: message ?? text } };
}

export class FakeAnthropic extends FakeOverHttp {
  readonly http = new FakeHttpServer([MESSAGES_ROUTE]);
  private seq = 0;

  constructor(private readonly opts: { apiKey?: string } = {}) {
    super();
  }

  get baseUrl(): string {
    return `${this.http.url}/v1`;
  }

  messages(script: FakeAnthropicScript): this {
    this.http.enqueue(MESSAGES_ROUTE, (req, res) => {
      if (this.opts.apiKey !== undefined && req.headers['x-api-key'] !== this.opts.apiKey) {
        return sendJson(res, 401, anthropicErrorBody(401));
      }
      return this.answer(req, res, script);
    });
    return this;
  }

  private async answer(
    req: RecordedRequest,
    res: ServerResponse,
    script: FakeAnthropicScript,
  ): Promise<void> {
    if (script.kind === 'hang') return;
    if (script.kind === 'error')
      return sendJson(res, script.status, script.body ?? anthropicErrorBody(script.status));
    if (script.kind === 'raw') {
      res.writeHead(script.status ?? 200, { 'content-type': script.contentType ?? 'text/event-stream' });
      res.end(script.body);
      return;
    }
    const body = (req.body ?? {}) as { model?: string; stream?: boolean };
    const id = `msg_fake${++this.seq}`;
    const model = body.model ?? 'claude-fake';
    const toolCalls = script.toolCalls ?? [];
    const stopReason = script.stopReason ?? (toolCalls.length ? 'tool_use' : 'end_turn');
    const usage = script.usage ?? { input: 10, output: 20 };
    const text = script.text ?? [];
    const input = (a: unknown) => (typeof a === 'string' ? JSON.parse(a) : a);

    if (!body.stream) {
      return sendJson(res, 200, {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [
          ...(text.length ? [{ type: 'text', text: text.join('') }] : []),
          ...toolCalls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: input(c.arguments) })),
        ],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: usage.output },
      });
    }

    startSse(res);
    const write = async (event: string, data: Record<string, unknown>) => {
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
      await tick();
    };
    await write('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: usage.input, output_tokens: 1 },
      },
    });
    let index = 0;
    if (text.length) {
      await write('content_block_start', { index, content_block: { type: 'text', text: '' } });
      await write('ping', {});
      for (const piece of text) {
        await write('content_block_delta', { index, delta: { type: 'text_delta', text: piece } });
      }
      if (script.stall) return;
      await write('content_block_stop', { index });
      index++;
    } else if (script.stall) return;
    for (const c of toolCalls) {
      await write('content_block_start', {
        index,
        content_block: { type: 'tool_use', id: c.id, name: c.name, input: {} },
      });
      const args = typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments);
      for (const frag of fragments(args)) {
        await write('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: frag },
        });
      }
      await write('content_block_stop', { index });
      index++;
    }
    await write('message_delta', {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: usage.output },
    });
    await write('message_stop', {});
    res.end();
  }
}

export async function startFakeAnthropic(opts: { apiKey?: string } = {}): Promise<FakeAnthropic> {
  const fake = new FakeAnthropic(opts);
  await fake.http.start();
  return fake;
}
