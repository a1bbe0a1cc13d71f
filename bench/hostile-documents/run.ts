/**
 * Hostile documents benchmark: npx tsx bench/hostile-documents/run.ts (`npm run bench -- hostile-documents`)
 *   HOSTILE_SCALE             size of the files, 1 = the audit's full size (default 1)
 *   HOSTILE_FILES             comma-separated file names to run (default: all, see the table's first column)
 *   HOSTILE_DEADLINE_SECONDS  how long an upload may stay unanswered before the server is called stalled,
 *                             killed and started again for the next file (default 120)
 *   HOSTILE_IDLE_SECONDS      length of the idle baseline before each file (default 5)
 *   HOSTILE_SEND_EVERY_MS     vendor B's pace: one send, then this pause (default 100)
 *   HOSTILE_SERVER            `built` (default): the server's code as `npm run build -w server` makes it (run
 *                             first), with its parse thread `dist/document-parse-worker.js`; `sources`: under tsx
 *   BENCH_DATABASE            `embedded` (default here: the product's default, a PostgreSQL process of its own),
 *                             `pglite` (in memory, SQL on the serving thread) or `server` (bench/lib/llmor.ts)
 *   HOSTILE_CPU_PROF          a directory: each server child writes a V8 CPU profile of its serving thread there
 *
 * For each file of `server/src/test/hostile-documents.ts` (ADR 0053), and before them two normal files (a
 * 53 MB PDF of 200 pages as in bench/knowledge, and a Markdown handbook) — the import speed the limits must
 * keep —: a fresh llmor in a child process (`server-child.ts`: two vendors, the embedded PostgreSQL), first idle
 * for HOSTILE_IDLE_SECONDS (the baseline), then while vendor A uploads the file
 * (`POST /v1/datastores/{id}/docs/upload`, raw body, as the console sends it). Both phases sample
 * `GET /healthz` every 50 ms, vendor B's conversation send on the offline demo model in a paced loop, the
 * child's peak RSS (its VmHWM, every 50 ms) and this runner's own event-loop delay (its probes wait on it
 * too). A child that exits is reported as crashed; one that has not answered by the deadline as stalled;
 * either way the next file gets a new server. Figures are ratios of the upload phase to the idle phase of
 * the same server; nothing is asserted.
 */
import { type ChildProcess, execFileSync, fork } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { HOSTILE_DOCUMENTS } from '@llmor/server/test/hostile-documents';
import { largePdf } from '@llmor/server/test/large-pdf';
import { nextMessage } from '../lib/child';
import { consoleSession } from '../lib/llmor';
import { fmt, percentile, printTable } from '../lib/load';

const SCALE = Number(process.env.HOSTILE_SCALE ?? 1);
const ONLY = process.env.HOSTILE_FILES?.split(',').map((name) => name.trim());
const DEADLINE_MS = Number(process.env.HOSTILE_DEADLINE_SECONDS ?? 120) * 1000;
const IDLE_MS = Number(process.env.HOSTILE_IDLE_SECONDS ?? 5) * 1000;
const SEND_EVERY_MS = Number(process.env.HOSTILE_SEND_EVERY_MS ?? 100);
const PROBE_EVERY_MS = 50;
const FROM_SOURCES = process.env.HOSTILE_SERVER === 'sources';
const DATABASE = process.env.BENCH_DATABASE ?? 'embedded';
const CPU_PROFILES = process.env.HOSTILE_CPU_PROF;
/** How long requests in flight when a phase ends may take to answer before they count as failed. */
const SETTLE_GRACE_MS = 5_000;
/** How long a child may take to stop (its embedded PostgreSQL with it) before it is killed. */
const STOP_MS = 15_000;

/**
 * The server child as production runs the server: `npm run build -w server` (main.js's code and the parse
 * thread's `dist/document-parse-worker.js`), and `server-child.ts` bundled by esbuild with the build's own
 * options (scripts/build.mjs: our TypeScript bundled, npm packages imported). The bundle lives in
 * `server/.cache/` so the server finds its root, its migrations and `dist/` from it, as main.js does.
 */
function builtChild(): string {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' });
  const manifests = ['server/package.json', 'bench/package.json'].map(
    (path) => JSON.parse(readFileSync(`${root}${path}`, 'utf8')) as Record<string, Record<string, string>>,
  );
  const external = manifests
    .flatMap((m) => [...Object.keys(m.dependencies ?? {}), ...Object.keys(m.optionalDependencies ?? {})])
    .filter((name) => !name.startsWith('@llmor/'));
  const outfile = `${root}server/.cache/bench-hostile-server-child.mjs`;
  const esbuild = createRequire(`${root}server/package.json`)('esbuild') as typeof import('esbuild');
  esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./server-child.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: [...external, 'pg-native'],
    logLevel: 'warning',
  });
  return outfile;
}

const childScript = FROM_SOURCES
  ? fileURLToPath(new URL('./server-child.ts', import.meta.url))
  : builtChild();

interface BenchFile {
  name: string;
  mode: string;
  what: string;
  file(scale: number): Buffer | Promise<Uint8Array>;
}

/** A handbook of `sections` headed sections of a few sentences each. */
function handbook(sections: number): Buffer {
  const parts: string[] = ['# Staff handbook\n'];
  for (let i = 1; i <= sections; i++) {
    parts.push(
      `## Section ${i}\n\nGlaciers, rivers and trains: paragraph ${i} says what staff do on day ${i}. ` +
        'Holidays are booked in the console two weeks ahead; expenses within the month.\n',
    );
  }
  return Buffer.from(parts.join('\n'));
}

const NORMAL: BenchFile[] = [
  {
    name: 'normal-handbook.pdf',
    mode: 'pdf',
    what: 'normal: 53 MB PDF, 200 pages of text and an unused filler stream',
    file: (scale) =>
      largePdf({ bytes: Math.round(53_000_000 * scale), pages: Math.max(1, Math.round(200 * scale)) }),
  },
  {
    name: 'normal-handbook.md',
    mode: 'markdown',
    what: 'normal: Markdown handbook of 5,000 sections (≈0.9 MB)',
    file: (scale) => handbook(Math.max(1, Math.round(5_000 * scale))),
  },
];

const files = [...NORMAL, ...HOSTILE_DOCUMENTS].filter((f) => !ONLY || ONLY.includes(f.name));

interface Server {
  child: ChildProcess;
  url: string;
  exited: Promise<unknown>;
  /** Signed headers for the uploading vendor (A) and the neighbour (B). */
  uploader: Awaited<ReturnType<typeof consoleSession>>;
  neighbour: Awaited<ReturnType<typeof consoleSession>>;
  datastoreId: number;
  conversation: string;
}

async function startServer(): Promise<Server> {
  const child = fork(childScript, {
    execArgv: [
      ...(FROM_SOURCES ? ['--import', 'tsx'] : []),
      ...(CPU_PROFILES ? ['--cpu-prof', `--cpu-prof-dir=${CPU_PROFILES}`] : []),
    ],
    env: { ...process.env, BENCH_DATABASE: DATABASE },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = once(child, 'exit');
  const ready = await Promise.race([
    nextMessage<{
      url: string;
      uploader: { id: number; key: string; appId: number };
      neighbour: { key: string; conversation: string };
    }>(child, 'ready'),
    exited.then(() => {
      throw new Error('the bench server exited while starting');
    }),
  ]);
  const uploader = await consoleSession(ready.url, ready.uploader.key);
  const path = `/v1/vendors/${ready.uploader.id}/apps/${ready.uploader.appId}/datastores`;
  const created = await fetch(`${ready.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...uploader.headers('POST', path) },
    body: JSON.stringify({ name: 'kb' }),
  });
  if (created.status !== 201) throw new Error(`datastore: ${created.status} ${await created.text()}`);
  return {
    child,
    url: ready.url,
    exited,
    uploader,
    neighbour: await consoleSession(ready.url, ready.neighbour.key),
    datastoreId: ((await created.json()) as { data: { id: number } }).data.id,
    conversation: ready.neighbour.conversation,
  };
}

async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return;
  // Asked first, so its embedded PostgreSQL stops with it and its CPU profile is written; a server still
  // parsing may not get to its disconnect handler: it is killed.
  server.child.disconnect();
  await Promise.race([server.exited, sleep(STOP_MS)]);
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  await server.exited;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts the child's peak resident set (VmHWM) again from its present size (`5` to clear_refs, Linux
 * ≥ 4.0), so a phase's peak is its own, not the start's.
 */
function resetPeakRss(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Gone already: its last peak stands.
  }
}

/** The child's peak resident set since the last reset (VmHWM) in MB; null once it is gone. */
function peakRssMb(pid: number): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

interface Samples {
  healthz: number[];
  healthzFailed: number;
  sends: number[];
  sendsFailed: number;
  /** Why requests failed (status and body, or the client's error), with how many. */
  failures: Map<string, number>;
  peakRssMb: number;
  /**
   * The longest this runner's own event loop was held (ms): the probes' times include it, since the same
   * loop sends the upload's body.
   */
  runnerDelayMaxMs: number;
}

/**
 * Samples the server until `phase` settles: `GET /healthz` every 50 ms (the next one 50 ms after the last
 * answered, so a stall is one long sample; a failure counts with its time), vendor B's sends in a paced
 * loop, the child's peak RSS. Requests stop when the phase does (the deadline at the latest); those in flight
 * then are awaited (SETTLE_GRACE_MS) and counted.
 */
async function sampled<T>(server: Server, phase: Promise<T>): Promise<{ result: T; samples: Samples }> {
  const samples: Samples = {
    healthz: [],
    healthzFailed: 0,
    sends: [],
    sendsFailed: 0,
    failures: new Map(),
    peakRssMb: 0,
    runnerDelayMaxMs: 0,
  };
  let done = false;
  // Ends the requests still waiting after the phase and its grace (a stalled server's): each counts as
  // failed, with how long it waited.
  const settled = new AbortController();
  /** Times one request; `ok` answers null when it was answered well, else why not. */
  const timed = async (ok: () => Promise<string | null>, into: number[], failed: (why: string) => void) => {
    const t0 = performance.now();
    const problem = await ok().catch((err: Error) => `${err.name}: ${err.message}`);
    into.push(performance.now() - t0);
    if (problem !== null) failed(problem);
  };
  const failure = (why: string) => samples.failures.set(why, (samples.failures.get(why) ?? 0) + 1);
  const answer = async (res: Response) => {
    const body = await res.text();
    return res.ok ? null : `${res.status} ${body.slice(0, 120)}`;
  };
  const signal = () => AbortSignal.any([settled.signal, AbortSignal.timeout(DEADLINE_MS)]);
  const probeHealth = async () => {
    while (!done) {
      await timed(
        async () => {
          return answer(await fetch(`${server.url}/healthz`, { signal: signal() }));
        },
        samples.healthz,
        (why) => {
          samples.healthzFailed++;
          failure(`/healthz: ${why}`);
        },
      );
      await sleep(PROBE_EVERY_MS);
    }
  };
  const path = `/v1/conversations/${server.conversation}`;
  const send = async () => {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...server.neighbour.headers('POST', path) },
      body: JSON.stringify({ content: 'What are the opening hours?' }),
      signal: signal(),
    });
    return answer(res);
  };
  const neighbourSends = async () => {
    while (!done) {
      await timed(send, samples.sends, (why) => {
        samples.sendsFailed++;
        failure(`B's send: ${why}`);
      });
      await sleep(SEND_EVERY_MS);
    }
  };
  const watchRss = async () => {
    resetPeakRss(server.child.pid!);
    while (!done) {
      samples.peakRssMb = Math.max(samples.peakRssMb, peakRssMb(server.child.pid!) ?? 0);
      await sleep(PROBE_EVERY_MS);
    }
  };
  const runnerDelay = monitorEventLoopDelay({ resolution: 10 });
  runnerDelay.enable();
  const probes = [probeHealth(), neighbourSends(), watchRss()];
  try {
    return { result: await phase, samples };
  } finally {
    done = true;
    // A request in flight when the phase ends is a sample of it: it is answered and counted. Only one still
    // waiting after the grace (a stalled server's) is ended, as failed.
    const grace = setTimeout(() => settled.abort(), SETTLE_GRACE_MS);
    await Promise.all(probes);
    clearTimeout(grace);
    runnerDelay.disable();
    samples.runnerDelayMaxMs = runnerDelay.max / 1e6;
    samples.healthz.sort((a, b) => a - b);
    samples.sends.sort((a, b) => a - b);
  }
}

interface Answer {
  outcome: string;
  ms: number;
}

/** Vendor A uploads the file: its status (and a refusal's message), crashed, or stalled at the deadline. */
async function upload(server: Server, file: BenchFile, bytes: Uint8Array): Promise<Answer> {
  const path = `/v1/datastores/${server.datastoreId}/docs/upload?mode=${file.mode}&name=${encodeURIComponent(file.name)}`;
  const died = new AbortController();
  void server.exited.then(() => died.abort());
  const t0 = performance.now();
  try {
    const res = await fetch(`${server.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream', ...server.uploader.headers('POST', path) },
      body: bytes,
      signal: AbortSignal.any([died.signal, AbortSignal.timeout(DEADLINE_MS)]),
    });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status === 200) return { outcome: '200', ms };
    const message = (JSON.parse(body) as { message?: string }).message ?? body;
    return { outcome: `${res.status}: ${message.slice(0, 80)}`, ms };
  } catch (err) {
    const ms = performance.now() - t0;
    // The child's exit may come a moment after the connection it dropped.
    await Promise.race([server.exited, sleep(1000)]);
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      return { outcome: `crashed (${server.child.signalCode ?? `exit ${server.child.exitCode}`})`, ms };
    }
    if ((err as Error).name === 'TimeoutError')
      return { outcome: `stalled: no answer in ${DEADLINE_MS / 1000} s`, ms };
    return { outcome: `failed: ${(err as Error).message}`, ms };
  }
}

const size = (bytes: number) =>
  bytes < 1e6 ? `${(bytes / 1e3).toFixed(1)} KB` : `${(bytes / 1e6).toFixed(1)} MB`;
const ratio = (during: number, idle: number) => `${(during / idle).toFixed(1)}×`;
const p99 = (values: number[]) => percentile(values, 99);

const rows: string[][] = [
  [
    'file',
    'size',
    'answer',
    'answered in s',
    '/healthz p99 ms idle → upload',
    '/healthz max ms (failed)',
    "B's send p99 ms idle → upload",
    "B's sends failed",
    'peak RSS MB idle → upload',
    "runner's loop delay max ms",
  ],
];
for (const file of files) {
  const bytes = await file.file(SCALE);
  const server = await startServer();
  try {
    const idle = await sampled(server, sleep(IDLE_MS));
    console.log(`${file.name}: uploading ${size(bytes.length)}`);
    const { result: answer, samples } = await sampled(server, upload(server, file, bytes));
    rows.push([
      file.name,
      size(bytes.length),
      answer.outcome,
      (answer.ms / 1000).toFixed(1),
      `${fmt(p99(idle.samples.healthz))} → ${fmt(p99(samples.healthz))} (${ratio(p99(samples.healthz), p99(idle.samples.healthz))})`,
      `${fmt(samples.healthz.at(-1) ?? Number.NaN)} (${samples.healthzFailed})`,
      `${fmt(p99(idle.samples.sends))} → ${fmt(p99(samples.sends))} (${ratio(p99(samples.sends), p99(idle.samples.sends))})`,
      `${samples.sendsFailed} of ${samples.sends.length}`,
      `${fmt(idle.samples.peakRssMb)} → ${fmt(samples.peakRssMb)} (${ratio(samples.peakRssMb, idle.samples.peakRssMb)})`,
      `${fmt(idle.samples.runnerDelayMaxMs)} → ${fmt(samples.runnerDelayMaxMs)}`,
    ]);
    console.log(`${file.name}: ${answer.outcome} in ${(answer.ms / 1000).toFixed(1)} s`);
    for (const [phase, { failures }] of [
      ['idle', idle.samples],
      ['upload', samples],
    ] as const) {
      for (const [why, n] of failures) console.log(`${file.name}, ${phase}: ${n} × ${why}`);
    }
  } finally {
    await stopServer(server);
  }
}

console.log(
  `\nEach file uploaded once by vendor A to a fresh server (${FROM_SOURCES ? 'from sources under tsx' : 'built'}, database ${DATABASE}) at scale ${SCALE} (deadline ${DEADLINE_MS / 1000} s), beside the same server idle for ${IDLE_MS / 1000} s before it; /healthz every ${PROBE_EVERY_MS} ms, vendor B sending every ${SEND_EVERY_MS} ms\n`,
);
printTable(rows);
console.log('');
printTable([['file', 'what'], ...files.map((f) => [f.name, f.what])]);
