/**
 * The embedded default survives a kill -9 and stops promptly on SIGTERM: a half-embedded import resumes
 * and an interrupted reply leaves its notice on the next start, nothing is lost and nothing stays stuck
 * (ADR 0025).
 */
import { existsSync } from 'node:fs';
import { Agent, get } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { type FakeOpenAI, startFakeOpenAI } from '@llmor/server/test/fakes/index';
import { RelayClient } from '@llmor/server/test/relay-client';
import { afterAll, describe, expect, it } from 'vitest';
import { signedClient } from '../harness';
import {
  crash,
  installFakeChatbot,
  killServerProcesses,
  newDataDir,
  openConversation,
  startServerProcess,
} from './server-process';

const fakes: FakeOpenAI[] = [];

afterAll(async () => {
  await killServerProcesses();
  for (const f of fakes) await f.close();
});

async function newFake(): Promise<FakeOpenAI> {
  const fake = await startFakeOpenAI();
  fakes.push(fake);
  return fake;
}

/** The server on `dataDir`. */
const start = (dataDir: string) => startServerProcess({ DATA_DIR: dataDir });

const QA = [
  { Q: 'Opening hours?', A: 'Monday to Friday, 8 to 18.' },
  { Q: 'Parking?', A: 'Free behind the building.' },
  { Q: 'Pets?', A: 'Dogs on a lead are welcome.' },
];

describe('kill -9 during embedding', () => {
  it('resumes the half-embedded import on the next start', async () => {
    const dataDir = newDataDir();
    const fake = await newFake();
    // The first embedding call never answers: the worker is mid-batch when the process dies.
    fake.embeddings({ kind: 'hang' });

    const first = await start(dataDir);
    const api = await signedClient(first.url, 'demo');
    const vendorId = ((await api('GET', '/v1/vendors')).data as { id: number; key: string }[]).find(
      (v) => v.key === 'demo',
    )!.id;
    const model: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/avamodels/openai-compatible-embedding/install`, {
        parameters: { base_url: fake.baseUrl, model: 'fake-embed', dimensions: 8 },
      })
    ).data;
    const appId = (
      (await api('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' })).data as { id: number }
    ).id;
    const ds: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/apps/${appId}/datastores`, {
        name: 'kb',
        embedding_vendor_model_id: model.id,
      })
    ).data;
    const imported = (await api('POST', `/v1/datastores/${ds.id}/docs/import`, { mode: 'qa', data: QA }))
      .data as unknown[];
    expect(imported).toHaveLength(3);
    await expect.poll(() => fake.requests.length, { timeout: 15_000 }).toBe(1);

    await crash(first);

    // Next start: the provider answers; the import completes without waiting for any lease to expire.
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const second = await start(dataDir);
    const api2 = await signedClient(second.url, 'demo');
    const status = async () =>
      (await api2('GET', `/v1/datastores/${ds.id}/status`)).data as { documents: number; pending: number };
    await expect.poll(async () => (await status()).pending, { timeout: 20_000 }).toBe(0);
    expect(await status()).toMatchObject({ documents: 3, pending: 0, failed: 0 });
    expect(fake.requests).toHaveLength(2);
    fake.expectNoFailures();
  }, 120_000);
});

interface Sent {
  data: { role: string; message: string | null }[];
}

describe('kill -9 during a reply', () => {
  it('takes the next send at once after a restart and shows the interrupted reply', async () => {
    const dataDir = newDataDir();
    const fake = await newFake();
    // The first reply streams a piece, then never finishes: the process dies mid-stream.
    fake.chat({ kind: 'reply', text: ['Half an ans'], stall: true });

    const first = await start(dataDir);
    const api = await signedClient(first.url, 'demo');
    const { appId } = await installFakeChatbot(api, fake.baseUrl);
    const token = await openConversation(api, appId);
    // The send waits for its reply, which never comes: it ends with the process.
    const pending = api('POST', `/v1/conversations/${token}`, { content: 'Before the crash' }).catch(
      (err: unknown) => err,
    );
    await expect.poll(() => fake.requests.length, { timeout: 15_000 }).toBe(1);

    await crash(first);
    expect(await pending).toBeInstanceOf(Error);

    fake.chat({ kind: 'reply', text: ['Here you ', 'are.'] });
    const second = await start(dataDir);
    const api2 = await signedClient(second.url, 'demo');
    const sent: Sent = await api2('POST', `/v1/conversations/${token}`, { content: 'Again' });
    // The send answers what it added (docs/adr/0026-messages-contract.md); the conversation holds the rest.
    expect(sent.data.map((m) => [m.role, m.message])).toEqual([
      ['user', 'Again'],
      ['assistant', 'Here you are.'],
    ]);
    const stored: Sent = await api2('GET', `/v1/conversations/${token}`);
    // After the app's greeting, if it has one:
    expect(stored.data.slice(-4).map((m) => [m.role, m.message])).toEqual([
      ['user', 'Before the crash'],
      ['error', 'The reply was interrupted (the server stopped).'],
      ['user', 'Again'],
      ['assistant', 'Here you are.'],
    ]);
    fake.expectNoFailures();
  }, 120_000);
});

describe('SIGTERM with a console tab open', () => {
  it('exits within 5 s, and a restart on the same DATA_DIR works at once', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const api = await signedClient(first.url, 'demo');
    // What an open tab holds: a keep-alive HTTP connection, one opened ahead of use (no request yet) and a
    // relay socket.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const keptAlive = await new Promise<{ status?: number; closed: Promise<void> }>((resolve, reject) => {
      let closed: Promise<void> | undefined;
      get(`${first.url}/healthz`, { agent }, (res) => {
        res.resume();
        res.once('end', () => resolve({ status: res.statusCode, closed: closed! }));
      })
        .once('socket', (socket) => {
          closed = new Promise((done) => socket.once('close', () => done()));
        })
        .once('error', reject);
    });
    expect(keptAlive.status).toBe(200);
    const spare = connect(Number(new URL(first.url).port), '127.0.0.1');
    await new Promise((r) => spare.once('connect', r));
    const spareClosed = new Promise((r) => spare.once('close', r));
    const tab = await RelayClient.connect(first.url, api.relayAuth());

    const stoppedAt = Date.now();
    first.signal('SIGTERM');
    expect(
      await Promise.race([first.exited, new Promise((r) => setTimeout(() => r('still running'), 5_000))]),
    ).toBe(0);
    expect(Date.now() - stoppedAt).toBeLessThan(5_000);
    await keptAlive.closed;
    await spareClosed;
    expect(tab.socket.connected).toBe(false);
    // The lock went with it: the next start on the same data succeeds.
    expect(existsSync(join(dataDir, 'llmor.lock'))).toBe(false);
    const second = await start(dataDir);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
    agent.destroy();
  }, 120_000);
});
