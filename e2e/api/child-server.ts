/**
 * The real server as `npm start` runs it (without the web build), as a child in its own process group, for the
 * journeys that kill processes (ADR 0036, 0054). Call `cleanUp` in `afterAll`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isAlive } from '@llmor/server/platform/db/lock';
import { expect } from 'vitest';
import { ADMIN } from '../harness';

const ROOT = resolve(import.meta.dirname, '../..');
const dataDirs: string[] = [];
const children: ChildProcess[] = [];
const postmasters: number[] = [];

/** Kills every server and PostgreSQL these helpers started and removes their data directories. */
export function cleanUp(): void {
  for (const c of children) {
    if (c.pid && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
  }
  for (const pid of postmasters) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
}

export function newDataDir(parent = tmpdir()): string {
  const dir = mkdtempSync(join(parent, 'llmor-embedded-'));
  dataDirs.push(dir);
  return dir;
}

/** The PostgreSQL server's pid as its `postmaster.pid` names it. */
export function postmaster(dataDir: string): number {
  const pid = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  postmasters.push(pid);
  return pid;
}

export interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the server on `dataDir` with `env` added, in its own process group. */
export function launch(dataDir: string, env: Record<string, string> = {}): Started {
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
      ...env,
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

/** Launches the server and waits until it serves; fails with its output if it exits first. */
export async function start(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<Started & { url: string }> {
  const started = launch(dataDir, env);
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
export async function crash(started: Started, dataDir: string): Promise<void> {
  const holder = Number(readFileSync(join(dataDir, 'llmor.lock'), 'utf8'));
  process.kill(-started.child.pid!, 'SIGKILL');
  await started.exited;
  await expect.poll(() => isAlive(holder), { timeout: 10_000 }).toBe(false);
}

/** SIGTERM, and the exit code once the server is gone. */
export async function stop(started: Started): Promise<number | null> {
  process.kill(started.child.pid!, 'SIGTERM');
  return started.exited;
}
