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
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { type Address, type AllowRule, isPermitted, parseAddress } from './addresses';
import { send } from './answer';

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

const MAX_REDIRECTS = 5;
/** Credentials meant for the first origin are not sent to another one a redirect names. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'x-api-key', 'cookie'];

/** The port a URL's parts mean: URLs and undici leave the scheme's default port empty. */
const portOf = (protocol: string, port: string | number) =>
  Number(port) || (protocol === 'https:' ? 443 : 80);

/** `http://host:port` of a URL, as refusals name it. */
const destinationOf = (url: URL) => `${url.protocol}//${url.hostname}:${portOf(url.protocol, url.port)}`;

/** A request's headers as one record with lower-case names (what a redirect may strip by name). */
function headerRecord(init: RequestInit['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  // `Headers` of any realm (undici's own, the global one) and pairs are iterable; a record is not.
  const entries = Symbol.iterator in init ? init : Object.entries(init);
  for (const [name, value] of entries as Iterable<[string, string | undefined]>) {
    if (value !== undefined) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * A request body as undici sends it in one write: a string or bytes as they are; anything else `fetch` takes
 * (form data, a blob, a stream) read whole, with the content type `fetch` would give it (a form's boundary).
 */
async function bodyBytes(
  body: RequestInit['body'],
  headers: Record<string, string>,
): Promise<string | Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  const encoded = new Response(body as ConstructorParameters<typeof Response>[0]);
  const type = encoded.headers.get('content-type');
  if (type && !headers['content-type']) headers['content-type'] = type;
  return new Uint8Array(await encoded.arrayBuffer());
}

export class OutboundGuard {
  private readonly rules: readonly AllowRule[];
  private readonly resolver: Resolver;
  private readonly dispatcher: Dispatcher;
  /**
   * The verdicts on hosts that need no resolving (an address literal, `localhost`), by port and host: they
   * depend on nothing but the allow-list, so they are worked out once (a name is resolved every time).
   */
  private readonly fixed = new LRUCache<string, string[]>({ max: 256 });
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
    const key = `${port} ${host}`;
    let permitted = this.fixed.get(key);
    if (permitted === undefined) {
      const literal = parseAddress(host);
      const fixed = literal ? [literal] : LOCALHOST.test(host) ? LOOPBACK : undefined;
      if (fixed) {
        permitted = this.permitted(host, port, fixed);
        this.fixed.set(key, permitted);
      } else {
        permitted = this.permitted(host, port, (await this.resolver(host)).map(parseAddress));
      }
    }
    if (!permitted.length) throw new OutboundRefused(destination);
    return [...permitted];
  }

  private permitted(host: string, port: number, candidates: (Address | null)[]): string[] {
    const permitted: string[] = [];
    for (const address of candidates) {
      if (address && isPermitted(this.rules, host, port, address)) permitted.push(address.toString());
    }
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

  /**
   * `fetch` for SDKs: follows redirects itself, checking each hop before it is requested. It sends on the
   * guard's dispatcher (the connect-time check stays on every connection) and answers a web `Response` whose
   * body is fed straight from the socket (`answer.ts`): a string or byte body goes out in one write, without
   * `fetch`'s request and response machinery per call (docs/adr/0047-a-lean-reply-path.md).
   */
  readonly fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    let url = new URL(input instanceof Request ? input.url : input);
    let method = init.method ?? 'GET';
    const headers = headerRecord(init.headers);
    let body = await bodyBytes(init.body, headers);
    const signal = init.signal ?? undefined;
    for (let hop = 0; ; hop++) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefused(url.href);
      await this.addresses(url.hostname, portOf(url.protocol, url.port), destinationOf(url));
      const answer = await send(this.dispatcher, url, { method, headers, body, signal });
      if (answer.location === undefined) {
        return new Response(answer.body, { status: answer.status, headers: answer.headers });
      }
      if (hop === MAX_REDIRECTS)
        throw new TypeError(`More than ${MAX_REDIRECTS} redirects from ${url.origin}.`);
      const next = new URL(answer.location, url);
      if (next.origin !== url.origin) for (const h of ORIGIN_BOUND_HEADERS) delete headers[h];
      if (answer.status === 303 || (answer.status <= 302 && method === 'POST')) {
        method = 'GET';
        body = undefined;
        delete headers['content-type'];
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
