/**
 * The README's `npm start`, as a process manager runs it: it prints the URL, serves, and stops cleanly on
 * SIGINT or SIGTERM sent to the npm process itself (not to a terminal's whole process group).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startFakeOpenAI } from '@llmor/server/test/fakes/index';
import { afterEach, describe, expect, it } from 'vitest';
import { ADMIN, signedClient } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');
const PASSWORD = 'start-test-pw';
let dataDir = '';
let child: ChildProcess | undefined;

afterEach(() => {
  // The whole group: npm, its shell and the server, whatever the test left running.
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

function withoutTestEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_ENV: _testRunner, ...rest } = env;
  return rest;
}

async function start(): Promise<{ url: string; exited: Promise<number | null> }> {
  dataDir = mkdtempSync(join(tmpdir(), 'llmor-start-'));
  // detached: its own process group, so only the signal we send reaches it.
  child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: {
      // As a user's shell has it: without vitest's NODE_ENV=test, which would make the build it runs a
      // development build of the console (and the journeys after this one would be served that).
      ...withoutTestEnv(process.env),
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_ADMIN_PASSWORD: PASSWORD,
      LOG_LEVEL: 'warn',
      // The fake provider listens on loopback.
      OUTBOUND_ALLOW: '127.0.0.1',
    },
  });
  const exited = new Promise<number | null>((done) => child!.on('exit', (code) => done(code)));
  let output = '';
  const url = await new Promise<string>((found, fail) => {
    const timer = setTimeout(() => fail(new Error(`no URL within 120 s:\n${output}`)), 120_000);
    child!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const m = /llmor is running at (http:\/\/\S+)/.exec(output);
      if (m) {
        clearTimeout(timer);
        found(m[1]!);
      }
    });
    void exited.then(() => fail(new Error(`npm start exited early:\n${output}`)));
  });
  return { url, exited };
}

/** The built server finds what lives beside its code: migrations ran, and the Lua worker runs a function. */
async function runsLua(url: string) {
  const api = await signedClient(url, 'demo', { email: ADMIN.email, password: PASSWORD });
  const vendors: { id: number; key: string }[] = (await api('GET', '/v1/vendors')).data;
  const vendorId = vendors.find((v) => v.key === 'demo')!.id;
  const created: { id: number } = (
    await api('POST', `/v1/vendors/${vendorId}/functions`, {
      name: 'Start check',
      function_key: 'start_check',
      runtime: 'silicon',
      code: 'function run(args) return { sum = args.a + args.b } end',
    })
  ).data;
  const build: { data: { status: number; result: unknown } } = await api(
    'POST',
    `/v1/vendors/${vendorId}/functions/${created.id}/build`,
    { code: 'function run(args) return { sum = args.a + args.b } end', arguments: { a: 2, b: 3 } },
  );
  expect(build.data).toMatchObject({ status: 1, result: { sum: 5 } });
}

/**
 * The built server loads the AI SDK layer on first use, from a chunk beside main.js: a datastore embeds its
 * documents through an OpenAI-compatible model (a fake provider), in the worker, on the database's thread.
 */
async function embedsThroughAProvider(url: string) {
  const fake = await startFakeOpenAI();
  try {
    fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    const api = await signedClient(url, 'demo', { email: ADMIN.email, password: PASSWORD });
    const vendors: { id: number; key: string }[] = (await api('GET', '/v1/vendors')).data;
    const vendorId = vendors.find((v) => v.key === 'demo')!.id;
    const model: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/avamodels/openai-compatible-embedding/install`, {
        parameters: { base_url: fake.baseUrl, model: 'fake-embed', dimensions: 8 },
      })
    ).data;
    const app: { id: number } = (await api('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' }))
      .data;
    const ds: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/apps/${app.id}/datastores`, {
        name: 'start_check',
        embedding_vendor_model_id: model.id,
      })
    ).data;
    await api('POST', `/v1/datastores/${ds.id}/docs/import`, {
      mode: 'qa',
      data: [{ Q: 'Open?', A: 'Yes.' }],
    });
    const status = async () =>
      (await api('GET', `/v1/datastores/${ds.id}/status`)).data as { pending: number; failed: number };
    await expect.poll(async () => (await status()).pending, { timeout: 20_000 }).toBe(0);
    expect(await status()).toMatchObject({ failed: 0 });
    expect(fake.requests).toHaveLength(1);
    fake.expectNoFailures();
  } finally {
    await fake.close();
  }
}

describe('npm start', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`serves, then stops and frees the port on ${signal} to the npm process`, async () => {
      const { url, exited } = await start();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      if (signal === 'SIGINT') await runsLua(url);
      else await embedsThroughAProvider(url);
      process.kill(child!.pid!, signal);
      const outcome = await Promise.race([
        exited.then(() => 'exited'),
        new Promise((r) => setTimeout(() => r('still running'), 15_000)),
      ]);
      expect(outcome).toBe('exited');
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    }, 180_000);
  }
});
