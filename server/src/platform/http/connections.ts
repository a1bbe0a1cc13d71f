import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * Lets a stopping server end its connections promptly (ADR 0025). `server.close()` only closes keep-alive
 * connections that sit idle after a request; a connection a browser opened ahead of use (no request yet)
 * would hold the close until its headers timeout (60–90 s), one whose request was in flight until its
 * keep-alive timeout (72 s). Once stopping, a connection is ended as soon as no request is in flight on it.
 */
export function endConnectionsWhenStopping(app: FastifyInstance): void {
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
  app.addHook('preClose', async () => {
    stopping = true;
    let busy = 0;
    for (const [socket, n] of inFlight) {
      if (n === 0) socket.destroy();
      else busy++;
    }
    if (busy > 0) app.log.info(`waiting for ${busy} HTTP connections with a request in flight…`);
  });
}
