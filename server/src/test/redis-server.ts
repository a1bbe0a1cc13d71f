/** Test support: a redis-server of the test's own on a free port, to stop and start again (never the shared one). */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether `redis-server` is installed here (tests that fault Redis skip without it). */
export const hasRedisServer = spawnSync('redis-server', ['--version']).status === 0;

export interface OwnRedis {
  readonly port: number;
  readonly url: string;
  /** Kills the server (as a crash: nothing saved) and resolves once it is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty; resolves once it accepts connections. */
  start(): Promise<void>;
}

/**
 * A TCP port nothing listens on now (on loopback), below Linux's ephemeral range (32768–60999): a server the
 * test stops leaves its port free, and a port from that range can be handed meanwhile to another test's
 * `listen(0)` or outgoing connection, which the reconnecting client would then reach instead.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const probe = createServer();
    const bound = await new Promise<boolean>((resolve) => {
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => resolve(true));
    });
    if (!bound) continue;
    await new Promise((resolve) => probe.close(resolve));
    return port;
  }
}

/** Starts one; `stop()` it in the test's `afterAll` (a stopped one stays stopped). */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const own: OwnRedis = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      const started = spawn(
        'redis-server',
        ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      child = started;
      let output = '';
      await new Promise<void>((ready, fail) => {
        started.stdout!.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('Ready to accept connections')) ready();
        });
        started.once('exit', (code) => fail(new Error(`redis-server exited (${code}):\n${output}`)));
      });
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const gone = new Promise((resolve) => running.once('exit', resolve));
      // Its listener closed first (`CONFIG SET port 0`), so a client reconnecting at once is refused rather
      // than accepted by the dying process: node-redis 5.9 then sometimes reports itself ready on the dead
      // socket and its commands never answer — a crash race of the client, not what these tests measure.
      spawnSync('redis-cli', ['-p', String(port), 'config', 'set', 'port', '0'], { timeout: 2_000 });
      running.kill('SIGKILL');
      await gone;
    },
  };
  await own.start();
  return own;
}
