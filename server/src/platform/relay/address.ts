import type { Socket } from 'socket.io';
import { clientAddress, type ProxyTrust } from '../http/client-address';

/** The client's address of a relay socket (what per-address relay limits count by), by the `TRUST_PROXY` rule. */
export function relayClientAddress(socket: Socket, trust: ProxyTrust): string {
  return clientAddress(socket.request, trust);
}
