/**
 * The embedded PostgreSQL as llmor supervises it (ADR 0036), with real processes: SIGTERM stops both, a
 * kill -9 of llmor (its PostgreSQL left running) or of both (a stale `postmaster.pid`) is recovered on the
 * next start, a PostgreSQL that dies under llmor stops llmor, and a second llmor on the DATA_DIR is refused.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive } from '@llmor/server/platform/db/lock';
import { afterAll, describe, expect, it } from 'vitest';
import { ADMIN, signedClient } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDirs: string[] = [];
const children: ChildProcess[] = [];
const postmasters: number[] = [];

afterAll(() => {
  for (const c of children) {
    if (c.pid && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
  }
  for (const pid of postmasters) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

function newDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'llmor-embedded-'));
  dataDirs.push(dir);
  return dir;
}

/** The PostgreSQL server's pid as its `postmaster.pid` names it. */
function postmaster(dataDir: string): number {
  const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  postmasters.push(pid);
  return pid;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** The server as `npm start` runs it (without the web build), in its own process group. */
function launch(dataDir: string): Started {
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
    },
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function start(dataDir: string): Promise<Started & { url: string }> {
  const started = launch(dataDir);
  let early = false;
  void started.exited.then(() => {
    early = true;
  });
  await expect
    .poll(() => early || /llmor is running at http/.test(started.output()), { timeout: 60_000 })
    .toBe(true);
  const url = /llmor is running at (http:\/\/\S+)/.exec(started.output())?.[1];
  if (!url) throw new Error(`the server exited early:\n${started.output()}`);
  return { ...started, url };
}

/** kill -9 of llmor's process group, as a crash; resolves once the server process itself is gone. */
async function crash(started: Started, dataDir: string): Promise<void> {
  const holder = Number(readFileSync(join(dataDir, 'llmor.lock'), 'utf8'));
  process.kill(-started.child.pid!, 'SIGKILL');
  await started.exited;
  await expect.poll(() => isAlive(holder), { timeout: 10_000 }).toBe(false);
}

async function vendorCount(url: string): Promise<number> {
  const api = await signedClient(url, 'demo');
  return ((await api('GET', '/v1/vendors')).data as unknown[]).length;
}

describe('the embedded PostgreSQL', () => {
  it('first start makes the cluster; SIGTERM stops llmor and its PostgreSQL within seconds', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    expect(first.output()).toContain('Embedded PostgreSQL: a new cluster');
    const pid = postmaster(dataDir);
    expect(isAlive(pid)).toBe(true);
    expect(await vendorCount(first.url)).toBeGreaterThan(0);
    const stoppedAt = Date.now();
    process.kill(first.child.pid!, 'SIGTERM');
    await first.exited;
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    expect(Date.now() - stoppedAt).toBeLessThan(10_000);
    // A clean stop leaves no pid file and no lock.
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(false);
    expect(existsSync(join(dataDir, 'llmor.lock'))).toBe(false);
  });

  it('after kill -9 of llmor, the next start stops the PostgreSQL it left and serves the same data', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const vendors = await vendorCount(first.url);
    const orphan = postmaster(dataDir);
    await crash(first, dataDir);
    // Its own process group: the kill did not reach it.
    expect(isAlive(orphan)).toBe(true);

    const second = await start(dataDir);
    expect(second.output()).toContain('stopped the server a killed llmor left running');
    expect(isAlive(orphan)).toBe(false);
    expect(postmaster(dataDir)).not.toBe(orphan);
    expect(await vendorCount(second.url)).toBe(vendors);

    // A second llmor on the same DATA_DIR is refused while this one runs.
    const intruder = launch(dataDir);
    expect(await intruder.exited).not.toBe(0);
    expect(intruder.output()).toContain('is in use by another llmor process');
    process.kill(second.child.pid!, 'SIGTERM');
    await second.exited;
  });

  it('after kill -9 of both, a stale postmaster.pid does not stop the next start', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const vendors = await vendorCount(first.url);
    const pid = postmaster(dataDir);
    await crash(first, dataDir);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    const second = await start(dataDir);
    expect(await vendorCount(second.url)).toBe(vendors);
    process.kill(second.child.pid!, 'SIGTERM');
    await second.exited;
  });

  it('a PostgreSQL that dies under llmor stops llmor, saying so', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    process.kill(postmaster(dataDir), 'SIGKILL');
    expect(await first.exited).toBe(70);
    expect(first.output()).toContain('the embedded PostgreSQL stopped unexpectedly (signal SIGKILL)');
    // The next start recovers the cluster.
    const second = await start(dataDir);
    expect(await vendorCount(second.url)).toBeGreaterThan(0);
    process.kill(second.child.pid!, 'SIGTERM');
    await second.exited;
  });
});
