import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { Headers as UndiciHeaders } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ConnectionRecorder } from '../../test/fakes/tcp';
import { parseAllowList } from './addresses';
import { OutboundGuard, type OutboundRefused, outboundRefusal, type Resolver } from './guard';

const PUBLIC = '93.184.216.34';

let recorder: ConnectionRecorder;
/** An HTTP server on loopback answering per path; it records each request's method, path and headers. */
let web: Server;
let webPort: number;
const seen: { method: string; url: string; headers: IncomingMessage['headers'] }[] = [];
/** Settled by a test once it has read the first part of `/stream`'s answer. */
function deferred() {
  let resolve = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
let firstRead = deferred();
/** Settled when the server's side of a `/stream` answer closes. */
let streamClosed = deferred();

beforeAll(async () => {
  recorder = await ConnectionRecorder.start();
  web = createServer((req, res) => {
    seen.push({ method: req.method!, url: req.url!, headers: req.headers });
    const redirect = /^\/redirect\/(\d+)$/.exec(req.url!);
    if (redirect) {
      res.writeHead(Number(redirect[1]), { location: req.headers['x-to'] as string }).end();
      return;
    }
    if (req.url === '/gzip') {
      res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('hello, compressed'));
      return;
    }
    if (req.url === '/cut') {
      // The first part, then the connection cut once the test has read it.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      void firstRead.promise.then(() => res.socket?.destroy());
      return;
    }
    if (req.url === '/stream') {
      // The first part, then the rest once the test has read the first: the answer must arrive as it comes.
      res.on('close', () => streamClosed.resolve());
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: first\n\n');
      void firstRead.promise.then(() => res.end('data: second\n\n'));
      return;
    }
    if (req.url === '/echo' || req.url === '/form') {
      let body = '';
      req.on('data', (chunk: Buffer) => {
        body += chunk;
      });
      req.on('end', () => res.writeHead(200).end(`${req.headers['content-type']} ${body}`));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`hello from ${req.url}`);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webPort = (web.address() as AddressInfo).port;
});
afterAll(async () => {
  await recorder?.close();
  await new Promise((resolve) => web?.close(resolve));
});
afterEach(() => {
  seen.length = 0;
});

const guard = (allow: string, resolver?: Resolver) =>
  new OutboundGuard({ allow: parseAllowList(allow).rules, resolver });

async function refusal(promise: Promise<unknown>): Promise<OutboundRefused> {
  const err = await promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (e: unknown) => e,
  );
  const refused = outboundRefusal(err);
  if (!refused) throw err;
  return refused;
}

describe('the outbound guard', () => {
  it('refuses every spelling of a local address before connecting', async () => {
    const g = guard('');
    const p = recorder.port;
    for (const host of [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f.1',
      '0177.0.0.1',
      '0.0.0.0',
      '[::1]',
      '[::]',
      '[::ffff:127.0.0.1]',
      '[::ffff:7f00:1]',
    ]) {
      const err = await refusal(g.fetch(`http://${host}:${p}/v1/models`));
      expect(err.message).toMatch(
        /is on a private or local network; the operator can allow it with OUTBOUND_ALLOW\.$/,
      );
    }
    await refusal(g.fetch('http://169.254.169.254/latest/meta-data/'));
    expect(recorder.connections).toEqual([]);
  });

  it('names the destination the way it was written once the URL is normalised', async () => {
    const err = await refusal(guard('').fetch(`http://127.1:${recorder.port}/v1`));
    expect(err.message).toBe(
      `http://127.0.0.1:${recorder.port} is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.`,
    );
  });

  it('reaches an allowed destination, and only on the allowed port', async () => {
    const res = await guard(`127.0.0.1:${webPort}`).fetch(`http://127.0.0.1:${webPort}/ok`);
    expect(await res.text()).toBe('hello from /ok');
    await refusal(guard(`127.0.0.1:${webPort + 1}`).fetch(`http://127.0.0.1:${webPort}/ok`));
    expect(seen.map((s) => s.url)).toEqual(['/ok']);
  });

  it('judges an address literal the same on every request, each port for itself', async () => {
    const g = guard(`127.0.0.1:${webPort}`);
    for (let round = 0; round < 2; round++) {
      expect(await (await g.fetch(`http://127.0.0.1:${webPort}/ok`)).text()).toBe('hello from /ok');
      for (const host of ['127.0.0.1', '127.1', '[::1]']) {
        await refusal(g.fetch(`http://${host}:${recorder.port}/`));
      }
      expect(await g.addresses('127.0.0.1', webPort)).toEqual(['127.0.0.1']);
    }
    expect(recorder.connections).toEqual([]);
  });

  it('refuses a name that resolves to loopback, and allows it by name', async () => {
    const resolver: Resolver = async (host) => (host === 'loopback.test' ? ['127.0.0.1'] : [PUBLIC]);
    await refusal(guard('', resolver).fetch(`http://loopback.test:${recorder.port}/`));
    expect(recorder.connections).toEqual([]);
    const res = await guard(`loopback.test:${webPort}`, resolver).fetch(
      `http://loopback.test:${webPort}/named`,
    );
    expect(await res.text()).toBe('hello from /named');
  });

  it('takes localhost and its subdomains for this machine whatever the resolver says', async () => {
    const lying: Resolver = async () => [PUBLIC];
    for (const host of ['localhost', 'LOCALHOST.', 'api.localhost']) {
      await refusal(guard('', lying).fetch(`http://${host}:${recorder.port}/`));
    }
    expect(recorder.connections).toEqual([]);
    expect(await guard('127.0.0.1', lying).addresses('localhost', 80)).toEqual(['127.0.0.1']);
  });

  it('checks the address it connects to, not only the one it checked first (DNS rebinding)', async () => {
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? [PUBLIC] : ['127.0.0.1']);
    await refusal(guard('', rebinding).fetch(`http://rebind.test:${recorder.port}/`));
    expect(calls).toBe(2);
    expect(recorder.connections).toEqual([]);
  });

  it('applies a rule with the scheme’s default port to a URL without one, at connect time too', async () => {
    const g = guard('named.test:80', async () => ['127.0.0.1']);
    // Whatever answers on port 80 here (likely nothing: connection refused), the guard let it connect.
    const outcome = await g.fetch('http://named.test/').catch((err: unknown) => err);
    expect(outboundRefusal(outcome)).toBeUndefined();
    await refusal(guard('named.test:8080', async () => ['127.0.0.1']).fetch('http://named.test/'));
  });

  it('keeps only the permitted addresses of a name', async () => {
    const mixed: Resolver = async () => ['127.0.0.1', PUBLIC, '10.0.0.1'];
    expect(await guard('', mixed).addresses('mixed.test', 443)).toEqual([PUBLIC]);
    expect(await guard('10.0.0.0/8', mixed).addresses('mixed.test', 443)).toEqual([PUBLIC, '10.0.0.1']);
  });

  it('checks every redirect before following it', async () => {
    const g = guard(`127.0.0.1:${webPort}`);
    const err = await refusal(
      g.fetch(`http://127.0.0.1:${webPort}/redirect/307`, {
        method: 'POST',
        body: '{}',
        headers: { 'x-to': `http://127.0.0.1:${recorder.port}/v1/chat/completions` },
      }),
    );
    expect(err.destination).toBe(`http://127.0.0.1:${recorder.port}`);
    expect(seen.map((s) => s.url)).toEqual(['/redirect/307']);
    expect(recorder.connections).toEqual([]);
  });

  it('follows allowed redirects: 307 keeps the method and body, 303 turns into GET', async () => {
    const g = guard(`127.0.0.1:${webPort}`);
    const kept = await g.fetch(`http://127.0.0.1:${webPort}/redirect/307`, {
      method: 'POST',
      body: '{"a":1}',
      headers: { 'content-type': 'application/json', 'x-to': '/landed', authorization: 'Bearer k' },
    });
    expect(await kept.text()).toBe('hello from /landed');
    const changed = await g.fetch(`http://127.0.0.1:${webPort}/redirect/303`, {
      method: 'POST',
      body: '{}',
      headers: { 'x-to': '/after-303' },
    });
    expect(await changed.text()).toBe('hello from /after-303');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/redirect/307'],
      ['POST', '/landed'],
      ['POST', '/redirect/303'],
      ['GET', '/after-303'],
    ]);
    // Same origin: the key goes along.
    expect(seen[1]!.headers.authorization).toBe('Bearer k');
  });

  it('does not send the key to another origin a redirect names', async () => {
    const resolver: Resolver = async () => ['127.0.0.1'];
    const g = guard(`127.0.0.1:${webPort},other.test:${webPort}`, resolver);
    const res = await g.fetch(`http://127.0.0.1:${webPort}/redirect/307`, {
      headers: { authorization: 'Bearer k', 'x-api-key': 'k', 'x-to': `http://other.test:${webPort}/there` },
    });
    expect(await res.text()).toBe('hello from /there');
    expect(seen[1]!.headers.authorization).toBeUndefined();
    expect(seen[1]!.headers['x-api-key']).toBeUndefined();
  });

  it('refuses a provider request to a private address on its transport, before and at connect time', async () => {
    const post = (g: OutboundGuard, host: string) =>
      g.fetch(`http://${host}:${recorder.port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer k' },
        body: '{"model":"m","stream":true}',
        signal: new AbortController().signal,
      });
    await refusal(post(guard(''), '127.0.0.1'));
    await refusal(post(guard(''), '[::ffff:127.0.0.1]'));
    let calls = 0;
    const rebinding: Resolver = async () => (calls++ === 0 ? [PUBLIC] : ['127.0.0.1']);
    await refusal(post(guard('', rebinding), 'rebind.test'));
    expect(calls).toBe(2);
    expect(recorder.connections).toEqual([]);
  });

  it('sends a body whole and hands the answer over as it arrives', async () => {
    const g = guard(`127.0.0.1:${webPort}`);
    const echoed = await g.fetch(`http://127.0.0.1:${webPort}/echo`, {
      method: 'POST',
      headers: new UndiciHeaders({ 'Content-Type': 'application/json' }),
      body: '{"é":1}',
    });
    expect([echoed.status, await echoed.text()]).toEqual([200, 'application/json {"é":1}']);
    const form = new FormData();
    form.set('field', 'value');
    const posted = await (
      await g.fetch(`http://127.0.0.1:${webPort}/form`, { method: 'POST', body: form })
    ).text();
    expect(posted).toMatch(/^multipart\/form-data; boundary=\S+ .*name="field"\r\n\r\nvalue\r\n/s);

    firstRead = deferred();
    const streamed = await g.fetch(`http://127.0.0.1:${webPort}/stream`);
    expect(streamed.headers.get('content-type')).toBe('text/event-stream');
    const reader = streamed.body!.pipeThrough(new TextDecoderStream()).getReader();
    expect((await reader.read()).value).toBe('data: first\n\n');
    firstRead.resolve();
    expect((await reader.read()).value).toBe('data: second\n\n');
    expect((await reader.read()).done).toBe(true);

    expect(await (await g.fetch(`http://127.0.0.1:${webPort}/gzip`)).text()).toBe('hello, compressed');
  });

  it('rejects with the signal’s reason once the caller aborts, as fetch does', async () => {
    firstRead = deferred();
    const g = guard(`127.0.0.1:${webPort}`);
    const before = new AbortController();
    before.abort(new Error('stopped early'));
    await expect(g.fetch(`http://127.0.0.1:${webPort}/ok`, { signal: before.signal })).rejects.toThrow(
      'stopped early',
    );
    const during = new AbortController();
    const res = await g.fetch(`http://127.0.0.1:${webPort}/stream`, { signal: during.signal });
    const reader = res.body!.getReader();
    await reader.read();
    during.abort(new Error('stopped mid-answer'));
    await expect(reader.read()).rejects.toThrow('stopped mid-answer');
    firstRead.resolve();
  });

  it('ends the request when its reader cancels the body, and errors the body when the socket fails', async () => {
    firstRead = deferred();
    streamClosed = deferred();
    const g = guard(`127.0.0.1:${webPort}`);
    const reader = (await g.fetch(`http://127.0.0.1:${webPort}/stream`)).body!.getReader();
    await reader.read();
    await reader.cancel(new Error('enough'));
    await streamClosed.promise;
    firstRead.resolve();

    firstRead = deferred();
    const cut = (await g.fetch(`http://127.0.0.1:${webPort}/cut`)).body!.getReader();
    await cut.read();
    firstRead.resolve();
    await expect(cut.read()).rejects.toMatchObject({ code: 'UND_ERR_SOCKET' });
  });

  it('refuses other schemes', async () => {
    await refusal(guard('private').fetch('file:///etc/passwd'));
  });
});
