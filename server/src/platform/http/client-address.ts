import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { Config } from '../config';

/** Whether the hop at `address` (0 = the socket's peer) is a proxy whose `X-Forwarded-For` counts. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * `TRUST_PROXY` as a trust function. Unset, no proxy is trusted and the client's address is the
 * socket's: a header a caller writes never picks the address that sign-in throttling and the
 * per-visitor limits key on (docs/adr/0023-identity-across-tenants.md).
 */
export function proxyTrust(setting: Config['TRUST_PROXY']): ProxyTrust {
  if (setting === false) return () => false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyAddr.compile(setting);
}

/** The client's address of a raw request (a relay handshake), by the same rule as Fastify's `request.ip`. */
export const clientAddress = (request: IncomingMessage, trust: ProxyTrust): string =>
  proxyAddr(request, trust);
