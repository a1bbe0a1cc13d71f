/**
 * The base of every fake outside service: a real HTTP server on 127.0.0.1 (random port) that records
 * each request and answers from a per-route queue of scripted responses. Anything it does not expect —
 * an unknown route, a request with no scripted answer left, a body that is not JSON — answers 500 and is
 * recorded in `failures`, which a test asserts empty (`expectNoFailures()`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-cased header names. */
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body (undefined when there was none). */
  body: unknown;
  /** The query string's parameters (Gemini's `alt=sse`, Azure's `api-version`). */
  query: Record<string, string>;
  /** The body as sent (what a request signature covers). */
  rawBody: string;
}

/** Writes the answer to one request. Return without ending the response to hang it (timeout tests). */
export type Responder = (req: RecordedRequest, res: ServerResponse) => void | Promise<void>;

export class FakeHttpServer {
  readonly requests: RecordedRequest[] = [];
  readonly failures: string[] = [];
  private readonly queues = new Map<string, Responder[]>();
  private server!: Server;
  url = '';

  /** `routes`: the `METHOD /path` keys this fake serves; each answers from its own queue. */
  constructor(private readonly routes: readonly string[]) {
    for (const r of routes) this.queues.set(r, []);
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url = `http://127.0.0.1:${port}`;
    return this;
  }

  /** Adds the next answer for a route. */
  enqueue(route: string, responder: Responder): void {
    const q = this.queues.get(route);
    if (!q) throw new Error(`FakeHttpServer: unknown route ${route} (known: ${this.routes.join(', ')})`);
    q.push(responder);
  }

  /** Scripted answers not consumed yet, per route. */
  pending(route?: string): number {
    if (route) return this.queues.get(route)?.length ?? 0;
    let n = 0;
    for (const q of this.queues.values()) n += q.length;
    return n;
  }

  /** Throws listing every unexpected request this fake saw. */
  expectNoFailures(): void {
    if (this.failures.length) throw new Error(`fake server failures:\n  ${this.failures.join('\n  ')}`);
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://fake');
    const path = url.pathname;
    const route = `${req.method} ${path}`;
    let body: unknown;
    if (raw.length) {
      try {
        body = JSON.parse(raw);
      } catch {
        return this.fail(res, `${route}: body is not JSON: ${raw.slice(0, 200)}`);
      }
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path,
      headers: req.headers,
      body,
      query: Object.fromEntries(url.searchParams),
      rawBody: raw,
    };
    this.requests.push(recorded);
    const queue = this.queues.get(route);
    if (!queue) return this.fail(res, `unexpected request ${route}`);
    const responder = queue.shift();
    if (!responder) return this.fail(res, `no scripted response left for ${route}`);
    try {
      await responder(recorded, res);
    } catch (err) {
      this.fail(res, `${route}: responder threw ${(err as Error).message}`);
    }
  }

  private fail(res: ServerResponse, message: string): void {
    this.failures.push(message);
    if (res.headersSent) {
      res.destroy();
      return;
    }
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { message: `fake server: ${message}`, type: 'fake_failure' } }));
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

/** Starts a `text/event-stream` answer. */
export function startSse(res: ServerResponse): void {
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
}

export const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * What every provider fake shows of its server: the requests it saw, what it refused, what it still
 * waits to answer, and its end.
 */
export abstract class FakeOverHttp {
  abstract readonly http: FakeHttpServer;

  get requests(): RecordedRequest[] {
    return this.http.requests;
  }
  get failures(): string[] {
    return this.http.failures;
  }
  expectNoFailures(): void {
    this.http.expectNoFailures();
  }
  pending(): number {
    return this.http.pending();
  }
  close(): Promise<void> {
    return this.http.close();
  }
}
