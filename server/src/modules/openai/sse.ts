import type { OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply } from 'fastify';

/**
 * A server-sent events answer (OpenAI streaming: `data: <json>` lines, `data: [DONE]`; or named events). Opened lazily,
 * so anything that fails before the first event is still answered as an ordinary error response.
 * Writes after the client went away are dropped (the reply itself goes on and is stored).
 */
export class SseStream {
  private constructor(private readonly reply: FastifyReply) {}

  static open(reply: FastifyReply, headers: Record<string, string>): SseStream {
    reply.hijack();
    reply.raw.writeHead(200, {
      ...(reply.getHeaders() as OutgoingHttpHeaders),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      // Proxies (nginx) would otherwise buffer the stream.
      'x-accel-buffering': 'no',
      ...headers,
    });
    // The head and the events written in this tick (the opening chunk, the first text) leave in one write.
    reply.raw.cork();
    process.nextTick(() => reply.raw.uncork());
    return new SseStream(reply);
  }

  private get writable(): boolean {
    const raw = this.reply.raw;
    return !raw.writableEnded && !raw.destroyed;
  }

  data(value: unknown): void {
    if (this.writable) this.reply.raw.write(`data: ${JSON.stringify(value)}\n\n`);
  }

  /** A named event (the Responses API's `event: response.created` …). */
  event(name: string, value: unknown): void {
    if (this.writable) this.reply.raw.write(`event: ${name}\ndata: ${JSON.stringify(value)}\n\n`);
  }

  /** Ends the stream without `[DONE]` (the Responses API ends with its `response.completed` event). */
  end(): void {
    if (this.writable) this.reply.raw.end();
  }

  done(): void {
    if (!this.writable) return;
    this.reply.raw.end('data: [DONE]\n\n');
  }
}
