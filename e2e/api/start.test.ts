/**
 * The README's `npm start`, as a process manager runs it: it prints the URL, serves, and stops cleanly on
 * SIGINT or SIGTERM sent to the npm process itself (not to a terminal's whole process group).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
let dataDir = '';
let child: ChildProcess | undefined;

afterEach(() => {
  // The whole group: npm, its shell and the server, whatever the test left running.
  if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function start(): Promise<{ url: string; exited: Promise<number | null> }> {
  dataDir = mkdtempSync(join(tmpdir(), 'llmor-start-'));
  // detached: its own process group, so only the signal we send reaches it.
  child = spawn('npm', ['start'], {
    cwd: ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: '0',
      DATA_DIR: dataDir,
      SEED_ADMIN_PASSWORD: 'start-test-pw',
      LOG_LEVEL: 'warn',
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

describe('npm start', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`serves, then stops and frees the port on ${signal} to the npm process`, async () => {
      const { url, exited } = await start();
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
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
