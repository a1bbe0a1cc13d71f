/**
 * Start benchmark: npx tsx bench/start/run.ts
 *
 * The server as `npm start` runs it (the built bundle on plain Node, the embedded database, every role;
 * built first), on a fresh DATA_DIR
 * (first start: initdb, migrations, seed) and again on the same one (a later start): time from spawn
 * to the first answered `GET /healthz`, and resident memory after 5 s idle: Node's RSS, and the embedded
 * PostgreSQL's proportional share (PSS: its processes share their buffers) beside it (ADR 0036). Goals
 * (docs/adr/0015-embedded-database-template.md): first start ≤ 5 s, later start ≤ 2 s, idle memory ≤ 300 MB.
 * The web build is not part of it.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** The embedded PostgreSQL's memory: the PSS of its postmaster and of the processes it started. */
function postgresPssMb(): number {
  const postmaster = Number(readFileSync(join(dataDir, 'postgres', 'postmaster.pid'), 'utf8').split('\n')[0]);
  let kb = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (Number(entry) !== postmaster && parent !== postmaster) continue;
      kb += Number(/Pss:\s+(\d+)/.exec(readFileSync(`/proc/${entry}/smaps_rollup`, 'utf8'))![1]);
    } catch {
      // a backend that ended meanwhile
    }
  }
  return kb / 1024;
}

async function startOnce(): Promise<{ seconds: number; rss: number; postgres: number }> {
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
    return { seconds, rss: rssMb(child.pid!), postgres: postgresPssMb() };
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
  console.log(
    `| idle memory after the later start: Node RSS + PostgreSQL PSS | ${later.rss.toFixed(0)} + ${later.postgres.toFixed(0)} MB | ≤ 300 MB |`,
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
