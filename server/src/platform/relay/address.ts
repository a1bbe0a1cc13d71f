import type { Socket } from 'socket.io';

/** The network address a relay socket connected from (what per-address relay limits count by). */
export function relayClientAddress(socket: Socket): string {
  return socket.handshake.address;
}
