import type { Socket } from 'socket.io';
import { clientAddress, type ProxyTrust } from '../http/client-address';
import type { RateLimiter } from '../rate-limit';

/** How long a socket count lost to a crashed instance survives (the count is released on disconnect). */
const SOCKET_COUNT_WINDOW_SECONDS = 3600;

export type RelayMiddleware = (socket: Socket, next: (err?: Error) => void) => void;

/**
 * Refuses a connection when its address already holds `max` relay sockets (docs/adr/0022): one client
 * cannot hold hundreds of sockets open. The count lives in the shared rate limiter, so it spans instances.
 */
export function limitSocketsPerAddress(
  limiter: RateLimiter,
  max: number,
  trust: ProxyTrust,
): RelayMiddleware {
  return (socket, next) => {
    const key = `relay-sockets:${clientAddress(socket.request, trust)}`;
    limiter.hit(key, max, SOCKET_COUNT_WINDOW_SECONDS).then((hit) => {
      if (!hit.allowed) {
        void limiter.release(key);
        return next(new Error(`Too many relay connections from this address: at most ${max} at once.`));
      }
      socket.once('disconnect', () => void limiter.release(key));
      next();
    }, next);
  };
}
