/**
 * One request on the guard's dispatcher, its answer read by our own undici handler: the body is a web stream
 * the handler feeds as the socket's chunks arrive, with no Node `Readable` (undici's `request` body) and no
 * `Readable.toWeb` adapter between the socket and the stream an SDK reads
 * (docs/adr/0047-a-lean-reply-path.md, amended 2026-11-25). What the guard checks is not here (ADR 0020).
 */
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Dispatcher } from 'undici';

export interface Answer {
  status: number;
  headers: Headers;
  /** A redirect's target; its body is discarded. */
  location?: string;
  /** None for a redirect, a HEAD, and 204/205/304 (a `Response` refuses one). */
  body: ReadableStream<Uint8Array> | null;
}

export interface Sending {
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | undefined;
  signal: AbortSignal | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
/** What `fetch` decodes. */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};
/** Chunks the body holds before the socket is paused until its reader catches up. */
const QUEUED_CHUNKS = 16;

/**
 * Sends `sending` to `url` and answers once the status and headers are in. As `fetch`: an abort rejects (and
 * errors a body being read) with the signal's reason, any other failure before the answer is a
 * `TypeError('fetch failed', {cause})`; a failure mid-body errors the body with undici's error.
 */
export function send(dispatcher: Dispatcher, url: URL, sending: Sending): Promise<Answer> {
  return new Promise((resolve, reject) => {
    if (sending.signal?.aborted) return reject(sending.signal.reason);
    const handler = new AnswerHandler(sending, resolve, reject);
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: sending.method as Dispatcher.HttpMethod,
        headers: sending.headers,
        body: sending.body,
      },
      handler,
    );
  });
}

class AnswerHandler implements Dispatcher.DispatchHandlers {
  private abort: ((reason: Error) => void) | undefined;
  private resume: (() => void) | undefined;
  private answered = false;
  /** Whether the body's chunks are dropped (no body, or its reader cancelled it). */
  private discard = false;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private decoder: Transform | undefined;
  private readonly onAbort = () => this.abort?.(this.sending.signal?.reason);

  constructor(
    private readonly sending: Sending,
    private readonly resolve: (answer: Answer) => void,
    private readonly reject: (err: unknown) => void,
  ) {
    sending.signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  onConnect(abort: (reason: Error) => void): void {
    this.abort = abort;
    if (this.sending.signal?.aborted) abort(this.sending.signal.reason);
  }

  onHeaders(status: number, rawHeaders: Buffer[] | string[] | null, resume: () => void): boolean {
    if (status < 200) return true;
    this.resume = resume;
    const headers = new Headers();
    let location: string | undefined;
    let encoding = '';
    for (let i = 0; rawHeaders && i < rawHeaders.length; i += 2) {
      const name = rawHeaders[i]!.toString().toLowerCase();
      const value = rawHeaders[i + 1]!.toString('utf8');
      headers.append(name, value);
      if (name === 'location') location = value;
      else if (name === 'content-encoding') encoding = value.trim().toLowerCase();
    }
    this.answered = true;
    if (REDIRECT_STATUSES.has(status) && location !== undefined) {
      this.finished();
      this.discard = true;
      this.resolve({ status, headers, location, body: null });
      return true;
    }
    if (NULL_BODY_STATUSES.has(status) || this.sending.method === 'HEAD') {
      this.finished();
      this.discard = true;
      this.resolve({ status, headers, body: null });
      return true;
    }
    const body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        pull: () => this.resume?.(),
        cancel: (reason) => {
          this.discard = true;
          this.decoder?.destroy();
          this.abort?.(reason instanceof Error ? reason : new Error('the body was cancelled'));
        },
      },
      { highWaterMark: QUEUED_CHUNKS },
    );
    const decoder = DECODERS[encoding]?.();
    if (decoder) {
      this.decoder = decoder;
      decoder.on('data', (chunk: Buffer) => {
        if (!this.discard) this.controller!.enqueue(chunk);
      });
      decoder.on('end', () => this.close());
      decoder.on('error', (err) => {
        this.fail(err);
        this.abort?.(err);
      });
    }
    this.resolve({ status, headers, body });
    return true;
  }

  onData(chunk: Buffer): boolean {
    if (this.discard) return true;
    if (this.decoder) this.decoder.write(chunk);
    else this.controller!.enqueue(chunk);
    return (this.controller!.desiredSize ?? 0) > 0;
  }

  onComplete(): void {
    this.finished();
    if (this.discard) return;
    if (this.decoder) this.decoder.end();
    else this.close();
  }

  onError(err: Error): void {
    this.finished();
    const signal = this.sending.signal;
    const reason = signal?.aborted ? signal.reason : err;
    if (!this.answered) {
      this.answered = true;
      this.reject(signal?.aborted ? reason : new TypeError('fetch failed', { cause: err }));
      return;
    }
    this.decoder?.destroy();
    if (!this.discard) this.fail(reason);
  }

  private close(): void {
    this.discard = true;
    this.controller?.close();
  }

  private fail(reason: unknown): void {
    this.discard = true;
    this.controller?.error(reason);
  }

  /** The request is over: the caller's signal has nothing left to stop. */
  private finished(): void {
    this.sending.signal?.removeEventListener('abort', this.onAbort);
  }
}
