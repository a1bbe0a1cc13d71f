/**
 * Background work survives a kill -9 (the embedded default): a half-embedded import resumes on the next
 * start, nothing is lost and nothing stays stuck.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive } from '@llmor/server/platform/db/lock';
import { type FakeOpenAI, startFakeOpenAI } from '@llmor/server/test/fakes/index';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, signedClient } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDir = mkdtempSync(join(tmpdir(), 'llmor-recovery-'));
const children: ChildProcess[] = [];
let fake: FakeOpenAI | undefined;

afterAll(async () => {
  for (const c of children) {
    if (c.pid && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
  }
  await fake?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The server as `npm start` runs it (without the web build), in its own process group. */
async function start(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_ADMIN_EMAIL: ADMIN.email,
      SEED_ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      // The fake provider listens on loopback.
      OUTBOUND_ALLOW: '127.0.0.1',
    },
  });
  children.push(child);
  let output = '';
  const url = await new Promise<string>((found, fail) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 60 s:\n${output}`)), 60_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /llmor is running at (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        found(m[1]!);
      }
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.on('exit', () => fail(new Error(`the server exited early:\n${output}`)));
  });
  return { url, child };
}

const QA = [
  { Q: 'Opening hours?', A: 'Monday to Friday, 8 to 18.' },
  { Q: 'Parking?', A: 'Free behind the building.' },
  { Q: 'Pets?', A: 'Dogs on a lead are welcome.' },
];

describe('kill -9 during embedding', () => {
  it('resumes the half-embedded import on the next start', async () => {
    fake = await startFakeOpenAI();
    // The first embedding call never answers: the worker is mid-batch when the process dies.
    fake.embeddings({ kind: 'hang' });

    const first = await start();
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
    await expect.poll(() => fake!.requests.length, { timeout: 15_000 }).toBe(1);

    process.kill(-first.child.pid!, 'SIGKILL');
    await new Promise((r) => first.child.once('exit', r));
    // tsx runs the server in a child process: wait until that one is gone too, as a restart after a crash would.
    const holder = Number(readFileSync(join(dataDir, 'llmor.lock'), 'utf8'));
    await expect.poll(() => isAlive(holder), { timeout: 10_000 }).toBe(false);

    // Next start: the provider answers; the import completes without waiting for any lease to expire.
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const second = await start();
    const api2 = await signedClient(second.url, 'demo');
    const status = async () =>
      (await api2('GET', `/v1/datastores/${ds.id}/status`)).data as { documents: number; pending: number };
    await expect.poll(async () => (await status()).pending, { timeout: 20_000 }).toBe(0);
    expect(await status()).toMatchObject({ documents: 3, pending: 0, failed: 0 });
    expect(fake.requests).toHaveLength(2);
    fake.expectNoFailures();
  }, 120_000);
});
