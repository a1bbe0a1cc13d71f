/**
 * llmor as real processes for the api journeys: the server as `npm start` runs it (without the web build),
 * and the root package's scripts (`npm run …`), each in its own process group, ended by `stopAll`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { expect } from 'vitest';
import { ADMIN } from './harness';

export const ROOT = resolve(import.meta.dirname, '..');

const children: ChildProcess[] = [];

export interface ServerProcess {
  child: ChildProcess;
  url: string;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts the server on `dataDir` and resolves once it prints its URL (fails if it exits before). */
export async function startServerProcess(
  dataDir: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const child = spawn(resolve(ROOT, 'node_modules/.bin/tsx'), ['server/src/main.ts'], {
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
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  let ended = false;
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => {
      ended = true;
      done(code);
    }),
  );
  await expect.poll(() => ended || /llmor is running at http/.test(output), { timeout: 60_000 }).toBe(true);
  const url = /llmor is running at (http:\/\/\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`the server exited early:\n${output}`);
  return { child, url, output: () => output, exited };
}

/** SIGTERM, as a supervisor stops it; resolves with its exit code. */
export function stopServerProcess(server: ServerProcess): Promise<number | null> {
  process.kill(server.child.pid!, 'SIGTERM');
  return server.exited;
}

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run --silent <script> -- …args` in the repository's root, as an operator types it. */
export function runScript(script: string, args: string[], env: Record<string, string>): Promise<ScriptRun> {
  const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
    cwd: ROOT,
    detached: true,
    env: { ...process.env, ...env },
  });
  children.push(child);
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

/** Kills whatever a journey left running (whole process groups). */
export function stopAll(): void {
  for (const c of children) {
    if (c.pid && c.exitCode === null && c.signalCode === null) process.kill(-c.pid, 'SIGKILL');
  }
}
