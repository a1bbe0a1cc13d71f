import type { Readable } from 'node:stream';
import { errorCodes, type FastifyRequest } from 'fastify';

/**
 * An uploaded body (`application/octet-stream`) as blocks that each own their memory, so they can move to a
 * worker thread as they are (`postMessage` with a transfer list) instead of being copied on this one.
 */
export class UploadedBody {
  constructor(
    readonly blocks: Uint8Array<ArrayBuffer>[],
    readonly byteLength: number,
  ) {}
}

/** Bytes per block: a 64 MiB file moves as 64 blocks; filling one costs a few microseconds a chunk. */
const BLOCK_BYTES = 1 << 20;

/**
 * Receives an upload as Fastify's own parser does (its checks and errors: the route's `bodyLimit` against
 * Content-Length first and then against what arrives, a short body against its Content-Length), but copies
 * each socket chunk into a block as it arrives instead of joining them all once the last one has come: that
 * join of a 53 MB body held the serving thread ~190 ms (docs/adr/0053, "Amended 2026-11-28").
 */
export function receiveUpload(
  request: FastifyRequest,
  payload: Readable,
  done: (err: Error | null, body?: UploadedBody) => void,
): void {
  const limit = request.routeOptions.bodyLimit ?? Number.POSITIVE_INFINITY;
  const contentLength = Number(request.headers['content-length']);
  if (contentLength > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }

  const blocks: Uint8Array<ArrayBuffer>[] = [];
  let received = 0;
  // Sized to what Content-Length says is left, so the last block is full too.
  const nextBlock = () =>
    Buffer.allocUnsafeSlow(
      Math.min(
        BLOCK_BYTES,
        Number.isNaN(contentLength) ? BLOCK_BYTES : Math.max(1, contentLength - received),
      ),
    );
  let block = nextBlock();
  let filled = 0;

  const stop = () => {
    payload.off('data', onData);
    payload.off('end', onEnd);
    payload.off('error', onEnd);
  };
  function onData(chunk: Buffer) {
    if (received + chunk.length > limit) {
      stop();
      return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    }
    for (let at = 0; at < chunk.length; ) {
      if (filled === block.length) {
        blocks.push(block);
        block = nextBlock();
        filled = 0;
      }
      const n = Math.min(block.length - filled, chunk.length - at);
      block.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      received += n;
    }
  }
  function onEnd(err?: Error & { statusCode?: number }) {
    stop();
    if (err) {
      if (!(typeof err.statusCode === 'number' && err.statusCode >= 400)) err.statusCode = 400;
      return done(err);
    }
    if (!Number.isNaN(contentLength) && received !== contentLength) {
      return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    }
    // The last block, cut to what it holds, is a block of its own (at most one block's copy).
    if (filled > 0) blocks.push(filled === block.length ? block : new Uint8Array(block.subarray(0, filled)));
    done(null, new UploadedBody(blocks, received));
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}
