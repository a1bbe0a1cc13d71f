/**
 * Start benchmark: npx tsx bench/start/run.ts
 *
 * The server as `npm start` runs it (the built bundle on plain Node, the embedded database, every role;
 * built first), on a fresh DATA_DIR
 * (first start: initdb, migrations, seed) and again on the same one (a later start): time from spawn
 * to the first answered `GET /healthz`, and resident memory after 5 s idle. Goals (docs/adr/0015-embedded-database-template.md): first
 * start ≤ 5 s, later start ≤ 2 s, idle RSS ≤ 300 MB. The web build is not part of it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const PORT = 3917;
/** Node's flags as `npm start` passes them (the root package.json), so this is the start a user gets. */
const START_FLAGS = /node (.*) server\/dist\/main\.js/
  .exec(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start)![1]!
  .split(' ');
const dataDir = mkdtempSync(join(tmpdir(), 'llmor-bench-start-'));

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

async function startOnce(): Promise<{ seconds: number; rss: number }> {
  const t0 = performance.now();
  const child: ChildProcess = spawn(process.execPath, [...START_FLAGS, 'server/dist/main.js'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: String(PORT),
      LOG_LEVEL: 'warn',
      SEED_ADMIN_PASSWORD: 'bench-password',
    },
    stdio: 'ignore',
  });
  try {
    for (;;) {
      const ok = await fetch(`http://127.0.0.1:${PORT}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode})`);
      await new Promise((r) => setTimeout(r, 25));
    }
    const seconds = (performance.now() - t0) / 1000;
    await new Promise((r) => setTimeout(r, 5000));
    return { seconds, rss: rssMb(child.pid!) };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
}

if (spawnSync('npm', ['run', 'build', '-w', 'server'], { cwd: ROOT, stdio: 'inherit' }).status !== 0) {
  throw new Error('building the server failed');
}
try {
  const first = await startOnce();
  const later = await startOnce();
  console.log('| measure | value | goal |');
  console.log('| --- | --- | --- |');
  console.log(`| first start (fresh DATA_DIR) | ${first.seconds.toFixed(2)} s | ≤ 5 s |`);
  console.log(`| later start | ${later.seconds.toFixed(2)} s | ≤ 2 s |`);
  console.log(`| idle RSS after the later start | ${later.rss.toFixed(0)} MB | ≤ 300 MB |`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
