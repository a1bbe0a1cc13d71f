/**
 * A local fake OpenAI chat completions provider for the reply benchmarks (reach, conversation): it answers
 * every `POST /v1/chat/completions` at once, streamed like OpenAI (a role chunk carrying the first words,
 * the rest, a stop chunk, usage when asked, `[DONE]`), and fails any other request. With `pauseAfterFirstMs`
 * it writes the first chunk, waits, then the rest — so the first chunk's way to a client can be timed alone;
 * `firstByteAt` then holds when the first SSE byte of each request was written, by the request's last user
 * message (callers make each one unique). With `chunks` above the default five it streams a long answer of
 * that many text chunks (the CPU a streamed chunk costs is read from the difference). With `pacing` it
 * answers like a real model: the first chunk after `firstMs`, then one chunk every `chunkMs`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_REPLY = ['Hello ', 'from ', 'the ', 'fake ', 'provider.'];
/** The long answer's chunk count (`chunks`). */
export const LONG_REPLY_CHUNKS = 500;
const usageOf = (pieces: number) => ({
  prompt_tokens: 12,
  completion_tokens: pieces,
  total_tokens: 12 + pieces,
});
const BASE = { id: 'chatcmpl-fake', created: 0, model: 'fake' };

export interface FakeProvider {
  /** Base URL, as an OpenAI-compatible model's `base_url` (ends in `/v1`). */
  url: string;
  /** Milliseconds between the first chunk and the rest of a streamed answer (0: all in one write). */
  pauseAfterFirstMs: number;
  /** Text chunks of an answer (5 by default: `FAKE_REPLY`; more: a long answer of as many words). */
  chunks: number;
  /** A realistic model's pace (null: answer at once, or as `pauseAfterFirstMs` says). */
  pacing: { firstMs: number; chunkMs: number } | null;
  /** `performance.now()` when the first SSE byte was written, by the last user message's text. */
  readonly firstByteAt: Map<string, number>;
  /** Requests answered, and requests refused as unexpected. */
  readonly counts: { answered: number; unexpected: number };
  close(): Promise<void>;
}

const sse = (body: object) => `data: ${JSON.stringify(body)}\n\n`;
const chunk = (delta: object, finish: string | null) =>
  sse({ ...BASE, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });

function lastUserText(messages: { role?: string; content?: unknown }[] | undefined): string {
  const last = [...(messages ?? [])].reverse().find((m) => m.role === 'user');
  return typeof last?.content === 'string' ? last.content : JSON.stringify(last?.content ?? '');
}

export async function startFakeProvider(): Promise<FakeProvider> {
  const fake: Omit<FakeProvider, 'url' | 'close'> = {
    pauseAfterFirstMs: 0,
    chunks: FAKE_REPLY.length,
    pacing: null,
    firstByteAt: new Map(),
    counts: { answered: 0, unexpected: 0 },
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (data) => {
      body += data;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        fake.counts.unexpected++;
        res.writeHead(500).end('unexpected request');
        return;
      }
      fake.counts.answered++;
      const request = JSON.parse(body) as {
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
        messages?: { role?: string; content?: unknown }[];
      };
      const pieces = replyPieces(fake.chunks);
      if (!request.stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...BASE,
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content: pieces.join('') },
                finish_reason: 'stop',
              },
            ],
            usage: usageOf(pieces.length),
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const [first, ...rest] = pieces;
      const head = chunk({ role: 'assistant', content: first }, null);
      const texts = rest.map((piece) => chunk({ content: piece }, null));
      let ending = chunk({}, 'stop');
      if (request.stream_options?.include_usage) {
        ending += sse({
          ...BASE,
          object: 'chat.completion.chunk',
          choices: [],
          usage: usageOf(pieces.length),
        });
      }
      ending += 'data: [DONE]\n\n';
      if (fake.pacing) {
        paced(res, [head, ...texts], ending, fake.pacing, () =>
          fake.firstByteAt.set(lastUserText(request.messages), performance.now()),
        );
        return;
      }
      const tail = texts.join('') + ending;
      if (fake.pauseAfterFirstMs <= 0) {
        res.end(head + tail);
        return;
      }
      // Headers and the first chunk leave in one write, like a provider's first token.
      fake.firstByteAt.set(lastUserText(request.messages), performance.now());
      res.write(head);
      setTimeout(() => res.end(tail), fake.pauseAfterFirstMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(fake, {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/** Writes the first event after `firstMs` (calling `first` as it leaves), then one more every `chunkMs`. */
function paced(
  res: ServerResponse,
  events: string[],
  ending: string,
  pacing: { firstMs: number; chunkMs: number },
  first: () => void,
): void {
  let next = 0;
  const write = () => {
    if (next === 0) first();
    if (next < events.length) {
      res.write(events[next++]);
      setTimeout(write, pacing.chunkMs);
    } else res.end(ending);
  };
  setTimeout(write, pacing.firstMs);
}

const longReplies = new Map<number, string[]>();
function replyPieces(chunks: number): string[] {
  if (chunks === FAKE_REPLY.length) return FAKE_REPLY;
  let pieces = longReplies.get(chunks);
  if (!pieces) {
    pieces = Array.from({ length: chunks }, (_, i) => `word${i} `);
    longReplies.set(chunks, pieces);
  }
  return pieces;
}

/** The streamed request llmor makes, sent to the provider directly (the baseline of every overhead). */
export function directStreamBody(content: string) {
  return {
    model: 'fake',
    messages: [{ role: 'user', content }],
    stream: true,
    stream_options: { include_usage: true },
  };
}
