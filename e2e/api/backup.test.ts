/**
 * Backup and restore with nothing else installed (docs/adr/0057-backup-and-restore.md), with real processes:
 * `npm run backup` of a running and of a stopped embedded instance, `npm run restore` into an empty
 * DATA_DIR, and a server started on it answering as the original did, its provider key still decrypting.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { type FakeOpenAI, startFakeOpenAI } from '@llmor/server/test/fakes/index';
import { afterAll, describe, expect, it } from 'vitest';
import { signedClient } from '../harness';
import {
  installFakeChatbot,
  killServerProcesses,
  newDataDir,
  openConversation,
  startServerProcess,
  stop,
} from './server-process';

const ROOT = resolve(import.meta.dirname, '../..');
const API_KEY = 'sk-backup-journey-original';
const QA = [
  { Q: 'Opening hours?', A: 'Monday to Friday, 8 to 18.' },
  { Q: 'Parking?', A: 'Free behind the building.' },
  { Q: 'Pets?', A: 'Dogs on a lead are welcome.' },
];

/** The backup files. */
const scratch = mkdtempSync(join(tmpdir(), 'llmor-backup-'));
const fakes: FakeOpenAI[] = [];

afterAll(async () => {
  await killServerProcesses();
  for (const c of scripts) if (c.exitCode === null) process.kill(-c.pid!, 'SIGKILL');
  for (const f of fakes) await f.close();
  rmSync(scratch, { recursive: true, force: true });
});

const scripts: ChildProcess[] = [];

/** `npm run --silent <script> -- …args` in the repository's root, as an operator types it. */
function runScript(
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...env },
  });
  scripts.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

/** Every file below `dir` with its size and modification time (what a refused restore must not change). */
function listing(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .sort()
    .map((name) => {
      const s = statSync(join(dir, name));
      return `${name} ${s.size} ${s.mtimeMs}`;
    });
}

interface Conversation {
  data: { role: string; message: string | null }[];
}

/** What the API answers about the journey's rows, compared before the backup and after the restore. */
async function answers(
  url: string,
  ids: { vendorId: number; appId: number; datastoreId: number; token: string },
) {
  const api = await signedClient(url, 'demo');
  return {
    apps: (await api('GET', `/v1/vendors/${ids.vendorId}/apps`)).data,
    models: (await api('GET', `/v1/vendors/${ids.vendorId}/models`)).data,
    conversation: ((await api('GET', `/v1/conversations/${ids.token}`)) as Conversation).data,
    documents: (await api('GET', `/v1/datastores/${ids.datastoreId}/docs`)).data,
    search: (
      await api<{ data: unknown[] }>('POST', `/v1/datastores/${ids.datastoreId}/search`, {
        query: 'Parking?',
        k: 3,
      })
    ).data,
  };
}

let stoppedBackup = '';
let restoredDir = '';

describe('npm run backup / npm run restore', () => {
  it('restores a backup of a running instance into an empty DATA_DIR: same rows, the key decrypts, search answers', async () => {
    const fake = await startFakeOpenAI({ apiKey: API_KEY });
    fakes.push(fake);
    for (let i = 0; i < 6; i++) fake.embeddings({ kind: 'embeddings', dimensions: 8 });
    fake.chat({ kind: 'reply', text: ['Before ', 'the backup.'] });

    const sourceDir = newDataDir();
    const source = await startServerProcess({ DATA_DIR: sourceDir });
    const api = await signedClient(source.url, 'demo');
    const { vendorId, appId } = await installFakeChatbot(api, fake.baseUrl, API_KEY);
    const embedding: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/avamodels/openai-compatible-embedding/install`, {
        parameters: { base_url: fake.baseUrl, model: 'fake-embed', dimensions: 8, api_key: API_KEY },
      })
    ).data;
    const token = await openConversation(api, appId);
    await api('POST', `/v1/conversations/${token}`, { content: 'Hello before the backup' });
    const datastore: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/apps/${appId}/datastores`, {
        name: 'kb',
        embedding_vendor_model_id: embedding.id,
      })
    ).data;
    await api('POST', `/v1/datastores/${datastore.id}/docs/import`, { mode: 'qa', data: QA });
    const pending = async () =>
      ((await api('GET', `/v1/datastores/${datastore.id}/status`)).data as { pending: number }).pending;
    await expect.poll(pending, { timeout: 30_000 }).toBe(0);
    const ids = { vendorId, appId, datastoreId: datastore.id, token };
    const before = await answers(source.url, ids);
    expect(before.conversation.at(-1)).toMatchObject({ role: 'assistant', message: 'Before the backup.' });
    expect(before.search.length).toBeGreaterThan(0);

    // While it runs: over its socket, DATA_DIR stays locked by the server.
    const runningBackup = join(scratch, 'running.llmor-backup');
    const backup = await runScript('backup', [runningBackup], { DATA_DIR: sourceDir });
    expect(backup.stderr).toBe('');
    expect(backup.code).toBe(0);
    expect(backup.stdout).toMatch(/^Backed up \d+ rows of \d+ tables .* and the encryption key to /);
    expect(statSync(runningBackup).mode & 0o777).toBe(0o600);
    // The server went on serving meanwhile.
    expect((await answers(source.url, ids)).documents).toEqual(before.documents);

    // Once stopped: the backup starts the embedded server itself, and stops it again.
    expect(await stop(source)).toBe(0);
    stoppedBackup = join(scratch, 'stopped.llmor-backup');
    const offline = await runScript('backup', [stoppedBackup], { DATA_DIR: sourceDir });
    expect(offline.stderr).toBe('');
    expect(offline.code).toBe(0);
    expect(readdirSync(sourceDir)).not.toContain('llmor.lock');
    expect(readdirSync(join(sourceDir, 'postgres'))).not.toContain('postmaster.pid');

    restoredDir = newDataDir();
    const restore = await runScript('restore', [runningBackup], { DATA_DIR: restoredDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
    expect(restore.stdout).toMatch(/^Restored \d+ rows of \d+ tables/);
    expect(readFileSync(join(restoredDir, 'encryption.key'), 'utf8')).toBe(
      readFileSync(join(sourceDir, 'encryption.key'), 'utf8'),
    );

    const restored = await startServerProcess({ DATA_DIR: restoredDir });
    const embeddingsBefore = fake.requestsTo('POST /v1/embeddings').length;
    const after = await answers(restored.url, ids);
    expect(after).toEqual(before);
    // The search embedded its query through the restored embedding model, with its decrypted key.
    const embeddings = fake.requestsTo('POST /v1/embeddings');
    expect(embeddings.length).toBeGreaterThan(embeddingsBefore);
    expect(embeddings.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);

    // A reply through the restored chat model: the provider receives the original API key.
    fake.chat({ kind: 'reply', text: ['After ', 'the restore.'] });
    const restoredApi = await signedClient(restored.url, 'demo');
    const sent: Conversation = await restoredApi('POST', `/v1/conversations/${token}`, {
      content: 'Hello after the restore',
    });
    expect(sent.data.map((m) => [m.role, m.message])).toEqual([
      ['user', 'Hello after the restore'],
      ['assistant', 'After the restore.'],
    ]);
    const chats = fake.requestsTo('POST /v1/chat/completions');
    expect(chats).toHaveLength(2);
    expect(chats.at(-1)?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    fake.expectNoFailures();
    expect(await stop(restored)).toBe(0);
  }, 300_000);

  it('refuses a non-empty DATA_DIR, a truncated file and a changed one, in one line, touching nothing', async () => {
    expect(stoppedBackup).not.toBe('');
    const before = listing(restoredDir);
    const occupied = await runScript('restore', [stoppedBackup], { DATA_DIR: restoredDir });
    expect(occupied.code).not.toBe(0);
    expect(occupied.stderr).toMatch(/^restore failed: DATA_DIR .* is not empty .*\n$/);
    expect(occupied.stderr.trim().split('\n')).toHaveLength(1);
    expect(listing(restoredDir)).toEqual(before);

    const whole = readFileSync(stoppedBackup);
    const truncated = join(scratch, 'truncated.llmor-backup');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    const emptyDir = newDataDir();
    const cut = await runScript('restore', [truncated], { DATA_DIR: emptyDir });
    expect(cut.code).not.toBe(0);
    expect(cut.stderr).toMatch(/^restore failed: .* is not a complete llmor backup: .*truncated.*\n$/);
    expect(readdirSync(emptyDir)).toEqual([]);

    // A whole gzip whose content was changed: one row's text differs from what the checksum covers.
    const text = gunzipSync(whole).toString();
    const changed = join(scratch, 'changed.llmor-backup');
    writeFileSync(changed, gzipSync(text.replace('Free behind the building.', 'Free behind the bakery.')));
    const altered = await runScript('restore', [changed], { DATA_DIR: emptyDir });
    expect(altered.code).not.toBe(0);
    expect(altered.stderr).toMatch(/^restore failed: .* its checksum does not match its content\n$/);
    expect(readdirSync(emptyDir)).toEqual([]);

    // The stopped instance's backup itself restores.
    const restore = await runScript('restore', [stoppedBackup], { DATA_DIR: emptyDir });
    expect(restore.stderr).toBe('');
    expect(restore.code).toBe(0);
  }, 120_000);
});
