/**
 * The one way the server reaches a destination a vendor typed (a model's base URL, an SMTP host):
 * the name is resolved and every address checked against `OUTBOUND_ALLOW` before anything connects,
 * again at connect time (the address connected to is the one checked: no DNS rebinding) and again on
 * every redirect. ADR 0020.
 */

import type { LookupAddress } from 'node:dns';
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { LRUCache } from 'lru-cache';
import {
  Agent,
  buildConnector,
  type Dispatcher,
  Headers as UndiciHeaders,
  fetch as undiciFetch,
} from 'undici';
import { type AllowRule, isPermitted, parseAddress } from './addresses';

/** Resolves a host name to its addresses (tests inject one that maps names to loopback). */
export type Resolver = (host: string) => Promise<string[]>;

const systemResolver: Resolver = async (host) =>
  (await dnsLookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** A destination the allow-list does not open; thrown before any connection is made. */
export class OutboundRefused extends Error {
  override name = 'OutboundRefused';
  constructor(readonly destination: string) {
    super(`${destination} is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.`);
  }
}

/** Found anywhere in an error's cause chain (fetch and the SDKs wrap what the connector threw). */
export function outboundRefusal(err: unknown): OutboundRefused | undefined {
  let e = err as { cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 6; depth++) {
    if (e instanceof OutboundRefused) return e;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** `localhost` and its subdomains are this machine whatever a resolver says (RFC 6761). */
const LOCALHOST = /^(.+\.)?localhost\.?$/i;
const LOOPBACK = [parseAddress('127.0.0.1'), parseAddress('::1')];

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
/** Credentials meant for the first origin are not sent to another one a redirect names. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'x-api-key', 'cookie'];

/** The port a URL's parts mean: URLs and undici leave the scheme's default port empty. */
const portOf = (protocol: string, port: string | number) =>
  Number(port) || (protocol === 'https:' ? 443 : 80);

/** `http://host:port` of a URL, as refusals name it. */
const destinationOf = (url: URL) => `${url.protocol}//${url.hostname}:${portOf(url.protocol, url.port)}`;

export class OutboundGuard {
  private readonly rules: readonly AllowRule[];
  private readonly resolver: Resolver;
  private readonly dispatcher: Dispatcher;
  /** One connector per destination port: its lookup checks the addresses for that port. */
  private readonly connectors = new LRUCache<number, buildConnector.connector>({ max: 64 });

  constructor(opts: { allow: readonly AllowRule[]; resolver?: Resolver }) {
    this.rules = opts.allow;
    this.resolver = opts.resolver ?? systemResolver;
    this.dispatcher = new Agent({
      connect: (options, callback) =>
        this.connectorFor(portOf(options.protocol, options.port))(options, callback),
    });
  }

  /**
   * The addresses of `host` this server may connect to on `port`: an address literal (any spelling)
   * is judged as it is; a name is resolved and only its permitted addresses are kept. None permitted
   * → OutboundRefused naming `destination`. A name that does not resolve rejects with the DNS error.
   */
  async addresses(host: string, port: number, destination = `${host}:${port}`): Promise<string[]> {
    const literal = parseAddress(host);
    const candidates = literal
      ? [literal]
      : LOCALHOST.test(host)
        ? LOOPBACK
        : (await this.resolver(host)).map(parseAddress);
    const permitted: string[] = [];
    for (const address of candidates) {
      if (address && isPermitted(this.rules, host, port, address)) permitted.push(address.toString());
    }
    if (!permitted.length) throw new OutboundRefused(destination);
    return permitted;
  }

  /** Refuses a URL whose destination is closed; a name that does not resolve (yet) passes. */
  async checkUrl(url: string): Promise<void> {
    const parsed = new URL(url);
    try {
      await this.addresses(parsed.hostname, portOf(parsed.protocol, parsed.port), destinationOf(parsed));
    } catch (err) {
      if (err instanceof OutboundRefused) throw err;
    }
  }

  /** `fetch` for SDKs: follows redirects itself, checking each hop before it is requested. */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : input);
    let method = init.method ?? 'GET';
    let body = init.body;
    const headers = new UndiciHeaders(init.headers as never);
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(url.href);
      await this.addresses(url.hostname, portOf(url.protocol, url.port), destinationOf(url));
      const response = await undiciFetch(url, {
        ...(init as object),
        method,
        body: body as never,
        headers,
        redirect: 'manual',
        dispatcher: this.dispatcher,
      });
      const location = response.headers.get('location');
      if (!REDIRECT_STATUSES.has(response.status) || !location) return response as unknown as Response;
      await response.body?.cancel();
      if (hop === MAX_REDIRECTS)
        throw new TypeError(`More than ${MAX_REDIRECTS} redirects from ${url.origin}.`);
      const next = new URL(location, url);
      if (next.origin !== url.origin) for (const h of ORIGIN_BOUND_HEADERS) headers.delete(h);
      if (response.status === 303 || (response.status <= 302 && method === 'POST')) {
        method = 'GET';
        body = undefined;
        headers.delete('content-type');
      }
      url = next;
    }
  };

  /** Closes the kept-alive connections (the server is stopping). */
  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private connectorFor(port: number): buildConnector.connector {
    let connector = this.connectors.get(port);
    if (!connector) {
      connector = buildConnector({ lookup: this.checkedLookup(port) } as buildConnector.BuildOptions);
      this.connectors.set(port, connector);
    }
    return connector;
  }

  /** `net.connect`'s lookup: only permitted addresses reach the socket (an IP literal never gets here). */
  private checkedLookup(port: number) {
    return (
      host: string,
      options: { all?: boolean; family?: number },
      callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
    ) => {
      this.addresses(host, port).then(
        (addresses) => {
          const all = addresses
            .map((address) => ({ address, family: isIP(address) }))
            .filter((a) => !options.family || a.family === options.family);
          if (options.all) callback(null, all);
          else if (all[0]) callback(null, all[0].address, all[0].family);
          else callback(new OutboundRefused(`${host}:${port}`), '');
        },
        (err: Error) => callback(err, ''),
      );
    };
  }
}
