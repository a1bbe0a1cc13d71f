/**
 * The embedded PostgreSQL as llmor supervises it (ADR 0036), with real processes: SIGTERM stops both, a
 * kill -9 of llmor (its PostgreSQL left running) or of both (a stale `postmaster.pid`) is recovered on the
 * next start, and a second llmor on the DATA_DIR is refused (a PostgreSQL that dies under llmor:
 * database-faults.test.ts).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive } from '@llmor/server/platform/db/lock';
import { afterAll, describe, expect, it } from 'vitest';
import { signedClient } from '../harness';
import {
  crash,
  killServerProcesses,
  launchServerProcess,
  newDataDir,
  postmaster,
  startServerProcess,
} from './server-process';

afterAll(killServerProcesses);

/** The server on `dataDir`. */
const start = (dataDir: string) => startServerProcess({ DATA_DIR: dataDir });

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
    first.signal('SIGTERM');
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
    await crash(first);
    // Its own process group: the kill did not reach it.
    expect(isAlive(orphan)).toBe(true);

    const second = await start(dataDir);
    expect(second.output()).toContain('stopped the server a killed llmor left running');
    expect(isAlive(orphan)).toBe(false);
    expect(postmaster(dataDir)).not.toBe(orphan);
    expect(await vendorCount(second.url)).toBe(vendors);

    // A second llmor on the same DATA_DIR is refused while this one runs.
    const intruder = launchServerProcess({ DATA_DIR: dataDir });
    expect(await intruder.exited).not.toBe(0);
    expect(intruder.output()).toContain('is in use by another llmor process');
    second.signal('SIGTERM');
    await second.exited;
  });

  it('an orphan that does not stop (SIGSTOP) is killed with its processes by the next start, which serves the same data', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const vendors = await vendorCount(first.url);
    const orphan = postmaster(dataDir);
    await crash(first);
    // Neither a fast nor an immediate shutdown reaches a stopped process: only SIGKILL does.
    process.kill(orphan, 'SIGSTOP');

    const second = await start(dataDir);
    expect(second.output()).toContain('stopped the server a killed llmor left running');
    await expect.poll(() => isAlive(orphan)).toBe(false);
    expect(await vendorCount(second.url)).toBe(vendors);
    second.signal('SIGTERM');
    await second.exited;
  }, 120_000);

  it('after kill -9 of both, a stale postmaster.pid does not stop the next start', async () => {
    const dataDir = newDataDir();
    const first = await start(dataDir);
    const vendors = await vendorCount(first.url);
    const pid = postmaster(dataDir);
    await crash(first);
    process.kill(pid, 'SIGKILL');
    await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
    expect(existsSync(join(dataDir, 'postgres', 'postmaster.pid'))).toBe(true);

    const second = await start(dataDir);
    expect(await vendorCount(second.url)).toBe(vendors);
    second.signal('SIGTERM');
    await second.exited;
  });
});
