import type { Socket } from 'node:net';
import { message } from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { serviceUnavailable } from '../errors';

/** What a stopping server tells callers to wait before they try again (a restart, or another instance). */
const STOPPING_RETRY_AFTER_SECONDS = 5;

export interface Stopping {
  /** From now on new requests are refused and connections end as soon as none of their requests runs. */
  begin(): void;
}

/**
 * Lets a stopping server refuse new work and end its connections promptly (ADR 0025, ADR 0055).
 *
 * Once `begin()` ran (at the start of the stop, before the replies' drain; at the latest in `preClose`),
 * every request but the paths in `open` (the liveness probe) answers 503 `ServiceUnavailable` with
 * `Retry-After` and `Connection: close`, `/readyz` included, while the listener stays open for the drain.
 * Fastify's own 503 while closing is off (`return503OnClosing: false`), so the answer is this one
 * throughout.
 *
 * `server.close()` only closes keep-alive connections that sit idle after a request; a connection a
 * browser opened ahead of use (no request yet) would hold the close until its headers timeout (60–90 s),
 * one whose request was in flight until its keep-alive timeout (72 s). Once stopping, a connection is
 * ended as soon as no request is in flight on it.
 */
export function handleStopping(app: FastifyInstance, opts: { open: readonly string[] }): Stopping {
  const inFlight = new Map<Socket, number>();
  let stopping = false;
  const release = (socket: Socket) => {
    const n = (inFlight.get(socket) ?? 1) - 1;
    inFlight.set(socket, n);
    if (stopping && n === 0) socket.end(() => socket.destroy());
  };
  app.server.on('connection', (socket: Socket) => {
    inFlight.set(socket, 0);
    socket.once('close', () => inFlight.delete(socket));
  });
  // An upgraded connection (the relay's websockets) belongs to its upgrade handler, which closes it.
  app.server.on('upgrade', (req) => inFlight.delete(req.socket));
  app.server.on('request', (req, res) => {
    const socket = req.socket;
    inFlight.set(socket, (inFlight.get(socket) ?? 0) + 1);
    res.once('close', () => release(socket));
  });
  // Callback style: it runs on every request, and an async hook would cost each one a promise (ADR 0044).
  app.addHook('onRequest', (request, reply, done) => {
    if (!stopping || opts.open.includes(request.routeOptions.url ?? '')) return done();
    reply.header('connection', 'close');
    done(serviceUnavailable(STOPPING_RETRY_AFTER_SECONDS, message('serverStopping')));
  });
  const begin = () => {
    if (stopping) return;
    stopping = true;
    let busy = 0;
    for (const [socket, n] of inFlight) {
      if (n === 0) socket.destroy();
      else busy++;
    }
    if (busy > 0) app.log.info(`waiting for ${busy} HTTP connections with a request in flight…`);
  };
  app.addHook('preClose', async () => begin());
  return { begin };
}
