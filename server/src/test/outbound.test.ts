/**
 * The outbound guard as an attacker meets it (ADR 0020): a vendor member types local destinations as a
 * model's base URL or the SMTP host. Installing is refused with a field error; rows that exist anyway
 * (installed before the guard, or a name that resolves elsewhere now) fail at use with the guard's
 * message — and the local listener sees no connection. An allowed local provider still works, and
 * what it sends that is not a provider's error message never reaches the user.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VendorRow } from '../modules/vendors/repo';
import { schema } from '../platform/db';
import { parseAllowList } from '../platform/outbound/addresses';
import { OutboundGuard, type Resolver } from '../platform/outbound/guard';
import { type FakeOpenAI, startFakeOpenAI } from './fakes';
import { ConnectionRecorder } from './fakes/tcp';
import { type Client, createTestServer, signedInVendor, type TestServer } from './harness';

const REFUSED = /is on a private or local network; the operator can allow it with OUTBOUND_ALLOW\.$/;
const PUBLIC = '93.184.216.34';

let server: TestServer;
let recorder: ConnectionRecorder;
let vendor: VendorRow;
let owner: Client;
let base: string;
/** What the test's DNS answers; names not listed resolve to a public address. */
const dns = new Map<string, string>();
const resolver: Resolver = async (host) => [dns.get(host) ?? PUBLIC];

/**
 * The server's guard: it permits what a guard on the allow-list the test last set (`allowOutbound`) permits,
 * names resolved through the test's DNS. Its fetch, connections and `checkUrl` all ask `addresses`.
 */
class TestGuard extends OutboundGuard {
  private current = new OutboundGuard({ allow: [], resolver });

  /** `allow` as OUTBOUND_ALLOW would give it. */
  allow(allow: string): void {
    this.current = new OutboundGuard({ allow: parseAllowList(allow).rules, resolver });
  }

  override addresses(host: string, port: number, destination?: string): Promise<string[]> {
    return this.current.addresses(host, port, destination);
  }
}
const guard = new TestGuard({ allow: [] });
const allowOutbound = (allow: string) => guard.allow(allow);

beforeAll(async () => {
  recorder = await ConnectionRecorder.start();
  // No OUTBOUND_ALLOW at all: the default. The worker embeds datastores.
  server = await createTestServer({
    env: { OUTBOUND_ALLOW: '', ROLES: 'api,relay,worker' },
    outbound: guard,
  });
  ({ vendor, client: owner } = await signedInVendor(server));
  base = `/v1/vendors/${vendor.id}`;
});
afterAll(async () => {
  await server?.close();
  await recorder?.close();
});
beforeEach(() => {
  dns.clear();
  dns.set('loopback.test', '127.0.0.1');
  allowOutbound('');
});

/** Every way of writing "this machine" (and the metadata service) as a base URL. */
const localBaseUrls = () => {
  const p = recorder.port;
  return [
    `http://127.0.0.1:${p}/v1`,
    `http://127.1:${p}/v1`,
    `http://2130706433:${p}/v1`,
    `http://0x7f.1:${p}/v1`,
    `http://0177.0.0.1:${p}/v1`,
    `http://0.0.0.0:${p}/v1`,
    `http://[::1]:${p}/v1`,
    `http://[::]:${p}/v1`,
    `http://[::ffff:127.0.0.1]:${p}/v1`,
    `http://[::ffff:7f00:1]:${p}/v1`,
    `http://[64:ff9b::7f00:1]:${p}/v1`,
    `http://localhost:${p}/v1`,
    `http://loopback.test:${p}/v1`,
    `https://loopback.test:${p}/v1`,
    'http://169.254.169.254/latest',
    'http://10.0.0.1:11434/v1',
  ];
};

/** A model row as if installed before the guard existed (or while its name resolved elsewhere). */
async function forcedModel(type: 'chat_completion' | 'embedding', baseUrl: string): Promise<number> {
  const [row] = await server.ctx.db
    .insert(schema.vendorModels)
    .values({
      vendorId: vendor.id,
      modelKey: type === 'embedding' ? 'openai-compatible-embedding' : 'openai-compatible-chat',
      name: `forced ${baseUrl}`,
      type,
      provider: 'openai-compatible',
      parameters: { base_url: baseUrl, model: 'm', ...(type === 'embedding' ? { dimensions: 8 } : {}) },
      costPer1kMinor: 0,
    })
    .returning();
  return row!.id;
}

async function install(modelKey: string, parameters: Record<string, unknown>) {
  return owner.post(`${base}/avamodels/${modelKey}/install`, { parameters });
}

/** Sends one message to a new chatbot answered by `modelId`; answers the last stored message. */
async function reply(modelId: number, content = 'Hello') {
  const created = await owner.post(`${base}/apps`, { app_key: 'chatbot' });
  expect(created.statusCode, created.body).toBe(201);
  const app = created.json().data;
  const put = await owner.put(`${base}/apps/${app.id}`, {
    name: app.name,
    completion_vendor_model_id: modelId,
  });
  expect(put.statusCode, put.body).toBe(200);
  const conversation = await owner.post('/v1/conversations', {
    vendor_app_id: app.id,
    vendor_channel: 'management',
    parameters: {},
  });
  expect(conversation.statusCode, conversation.body).toBe(201);
  const sent = await owner.post(`/v1/conversations/${conversation.json().data.token}`, { content });
  expect(sent.statusCode, sent.body).toBe(200);
  return sent.json().data.at(-1) as { role: string; message: string };
}

async function datastoreError(modelId: number): Promise<string> {
  const app = (await owner.post(`${base}/apps`, { app_key: 'chatbot' })).json().data;
  const ds = await owner.post(`${base}/apps/${app.id}/datastores`, {
    name: `ds_${app.id}`,
    embedding_vendor_model_id: modelId,
  });
  expect(ds.statusCode, ds.body).toBe(201);
  const id = ds.json().data.id;
  const imported = await owner.post(`/v1/datastores/${id}/docs/import`, {
    mode: 'qa',
    data: [{ Q: 'Where?', A: 'Here.' }],
  });
  expect(imported.statusCode, imported.body).toBe(200);
  return vi.waitFor(
    async () => {
      const status = (await owner.get(`/v1/datastores/${id}/status`)).json().data;
      if (!status.last_error) throw new Error('the datastore never reported an error');
      return status.last_error as string;
    },
    { timeout: 20_000, interval: 50 },
  );
}

describe('installing a model with a local base URL', () => {
  it('answers 400 code 52 with the guard’s message on base_url, for every spelling, and stores nothing', async () => {
    const before = (await owner.get(`${base}/models`)).json().total_count;
    for (const url of localBaseUrls()) {
      for (const [key, extra] of [
        ['openai-compatible-chat', { model: 'm' }],
        ['openai-compatible-embedding', { model: 'm', dimensions: 8 }],
        ['openai-gpt-4o-mini', { api_key: 'sk-attacker-0000' }],
        ['anthropic-claude-haiku-4-5', { api_key: 'sk-attacker-0000' }],
      ] as const) {
        const res = await install(key, { base_url: url, ...extra });
        expect(res.statusCode, `${key} ${url}`).toBe(400);
        const body = res.json();
        expect(body.code).toBe(52);
        expect(body.errors.parameters['x-errors'].base_url, url).toMatch(REFUSED);
        expect(body.errors.parameters.properties.base_url['x-error']).toMatch(REFUSED);
        expect(body.errors.parameters.properties.base_url.default).toBe(url);
        expect(JSON.stringify(body)).not.toContain('sk-attacker');
      }
    }
    expect((await owner.get(`${base}/models`)).json().total_count).toBe(before);
    expect(recorder.connections).toEqual([]);
  });

  it('installs a public base URL (nothing is contacted at install)', async () => {
    const res = await install('openai-compatible-chat', {
      base_url: 'http://rebind.test:8080/v1',
      model: 'm',
    });
    expect(res.statusCode, res.body).toBe(201);
  });
});

describe('using a model whose base URL is local', () => {
  it('a conversation’s reply fails with the guard’s message, for every spelling, without a connection', async () => {
    for (const url of localBaseUrls()) {
      const last = await reply(await forcedModel('chat_completion', url));
      expect(last.role, url).toBe('error');
      expect(last.message, url).toMatch(/^The model could not answer: /);
      expect(last.message, url).toMatch(REFUSED);
    }
    expect(recorder.connections).toEqual([]);
  }, 60_000);

  it('a name that resolved to a public address at install and to loopback now is refused at use', async () => {
    const installed = await install('openai-compatible-chat', {
      base_url: `http://rebind.test:${recorder.port}/v1`,
      model: 'm',
    });
    expect(installed.statusCode, installed.body).toBe(201);
    dns.set('rebind.test', '127.0.0.1');
    const last = await reply(installed.json().data.id);
    expect(last.message).toBe(
      `The model could not answer: http://rebind.test:${recorder.port} is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.`,
    );
    expect(recorder.connections).toEqual([]);
  });

  it('a datastore’s embedding fails with the guard’s message in last_error, without a connection', async () => {
    for (const url of [
      `http://127.1:${recorder.port}/v1`,
      `http://loopback.test:${recorder.port}/v1`,
      `http://[::1]:${recorder.port}/v1`,
    ]) {
      const error = await datastoreError(await forcedModel('embedding', url));
      expect(error, url).toMatch(/^The embedding model could not answer: /);
      expect(error, url).toMatch(REFUSED);
    }
    expect(recorder.connections).toEqual([]);
  }, 60_000);

  it('a public-looking provider that redirects to loopback is refused at the redirect', async () => {
    const redirects: string[] = [];
    const redirector: Server = createServer((req, res) => {
      redirects.push(`${req.method} ${req.url}`);
      res.writeHead(307, { location: `http://127.0.0.1:${recorder.port}/v1/chat/completions` }).end();
    });
    await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
    try {
      const port = (redirector.address() as AddressInfo).port;
      dns.set('provider.test', '127.0.0.1');
      allowOutbound(`provider.test:${port}`);
      const installed = await install('openai-compatible-chat', {
        base_url: `http://provider.test:${port}/v1`,
        model: 'm',
      });
      expect(installed.statusCode, installed.body).toBe(201);
      const last = await reply(installed.json().data.id);
      expect(last.message).toBe(
        `The model could not answer: http://127.0.0.1:${recorder.port} is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.`,
      );
      expect(redirects).toEqual(['POST /v1/chat/completions']);
      expect(recorder.connections).toEqual([]);
    } finally {
      await new Promise((resolve) => redirector.close(resolve));
    }
  });
});

describe('the SMTP test mail to a local host', () => {
  it('answers 400 with the guard’s message for every spelling, without a connection', async () => {
    for (const host of [
      '127.0.0.1',
      '127.1',
      '2130706433',
      '0x7f.1',
      '0.0.0.0',
      'localhost',
      'loopback.test',
      '169.254.169.254',
    ]) {
      const put = await owner.put(`${base}/settings`, {
        smtp: { host, port: recorder.port, from: 'team@acme.test' },
      });
      expect(put.statusCode, put.body).toBe(200);
      const res = await owner.post(`${base}/settings/smtp/test`, { to: 'a@b.test' });
      expect(res.statusCode, host).toBe(400);
      expect(res.json().message, host).toBe(
        `${host}:${recorder.port} is on a private or local network; the operator can allow it with OUTBOUND_ALLOW.`,
      );
    }
    expect(recorder.connections).toEqual([]);
  });

  it('does not echo what a non-SMTP service on an allowed port sends', async () => {
    const banner: Server = createServer();
    banner.on('connection', (socket) => socket.end('5.7.42-MariaDB secret-build-id\r\n'));
    await new Promise<void>((resolve) => banner.listen(0, '127.0.0.1', resolve));
    try {
      const port = (banner.address() as AddressInfo).port;
      allowOutbound(`127.0.0.1:${port}`);
      await owner.put(`${base}/settings`, { smtp: { host: '127.0.0.1', port, from: 'team@acme.test' } });
      const res = await owner.post(`${base}/settings/smtp/test`, { to: 'a@b.test' });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(`No SMTP conversation with 127.0.0.1:${port} was possible.`);
    } finally {
      await new Promise((resolve) => banner.close(resolve));
    }
  });
});

describe('an allowed local provider', () => {
  let fake: FakeOpenAI;
  let modelId: number;
  beforeAll(async () => {
    fake = await startFakeOpenAI();
  });
  afterAll(async () => {
    await fake?.close();
  });
  beforeEach(async () => {
    allowOutbound(`127.0.0.1:${new URL(fake.baseUrl).port}`);
    modelId ??= (await install('openai-compatible-chat', { base_url: fake.baseUrl, model: 'local' })).json()
      .data.id;
  });

  it('installs and answers end to end', async () => {
    fake.chat({ kind: 'reply', text: ['Hello ', 'from ', 'local'] });
    const last = await reply(modelId);
    expect(last).toMatchObject({ role: 'assistant', message: 'Hello from local' });
    fake.expectNoFailures();
  });

  it('passes on the provider’s own error message', async () => {
    fake.chat({
      kind: 'error',
      status: 400,
      body: { error: { message: 'The model `local` does not exist.' } },
    });
    const last = await reply(modelId);
    expect(last.message).toBe(
      `The model could not answer: the server at ${fake.baseUrl} refused the request (HTTP 400): The model \`local\` does not exist.`,
    );
  });

  it('never passes on a body that is not a provider’s error message', async () => {
    const secret = 'internal-admin-page-7f3a';
    for (const script of [
      { kind: 'raw', status: 502, contentType: 'text/html', body: `<html><h1>${secret}</h1></html>` },
      {
        kind: 'raw',
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ message: secret }),
      },
      { kind: 'raw', status: 404, contentType: 'application/json', body: JSON.stringify({ error: secret }) },
      { kind: 'raw', status: 200, contentType: 'text/html', body: `<html>${secret}</html>` },
      { kind: 'raw', status: 200, contentType: 'application/json', body: JSON.stringify({ secret }) },
    ] as const) {
      fake.chat(script);
      const last = await reply(modelId);
      expect(last.role, script.body).toBe('error');
      expect(last.message, script.body).not.toContain(secret);
      expect(last.message, script.body).toMatch(
        script.status === 200
          ? /sent a response that could not be read\.$/
          : new RegExp(`The provider answered HTTP ${script.status} without an error message\\.$`),
      );
    }
  });
});
