/**
 * Server CPU per signed request against the same route unsigned, measured in one run.
 * The server runs in a child pinned to core 0; the load generator (autocannon) runs here on core 1.
 * CPU per request = the child's CPU time over a fixed number of requests. Rounds alternate so drift
 * (JIT warm-up, GC, the other core's noise) hits both sides alike; the median ratio is reported.
 */
import { execFileSync, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { encodeAccessToken, signingMessage } from '@llmor/contracts';
import { hmacSha256Hex } from '@llmor/server/platform/crypto';
import autocannon from 'autocannon';
import { nextMessage } from '../lib/child';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 10;

function pin(pid: number, core: number) {
  try {
    execFileSync('taskset', ['-cp', String(core), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export async function runSigningBench(): Promise<{ rows: string[][]; ratio: number }> {
  const child = fork(fileURLToPath(new URL('./server-child.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const pinned = pin(child.pid!, 0) && pin(process.pid, 1);
  const next = <T>(type: string) => nextMessage<T>(child, type);
  const { port } = await next<{ port: number }>('ready');
  const base = `http://127.0.0.1:${port}`;
  const cpu = async () => {
    const reply = next<{ micros: number }>('cpu');
    child.send({ type: 'cpu' });
    return (await reply).micros;
  };

  // A session signed in as the seeded admin; its header stays valid for the 300 s window.
  const session = (await (await fetch(`${base}/v1/auth/session`, { method: 'POST' })).json()) as {
    token: string;
    secret: string;
  };
  const header = (method: string, path: string) => {
    const ts = Math.floor(Date.now() / 1000);
    return encodeAccessToken(
      session.token,
      ts,
      hmacSha256Hex(session.secret, signingMessage(method, path, ts)),
    );
  };
  const signin = await fetch(`${base}/v1/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-accesstoken': header('POST', '/v1/auth/signin') },
    body: JSON.stringify({ identifier: 'admin@llmor.local', secret: 'bench-password' }),
  });
  if (signin.status !== 200) throw new Error(`bench sign-in failed: ${signin.status}`);

  /** `fresh`: every request has its own target and so its own signature (nothing remembered helps). */
  const load = async (path: string, signed: boolean, fresh = false) => {
    let n = 0;
    const before = await cpu();
    const result = await autocannon({
      url: base + path,
      connections: CONNECTIONS,
      amount: REQUESTS,
      headers: signed ? { 'x-accesstoken': header('GET', path) } : {},
      requests: fresh
        ? [
            {
              setupRequest: (req: autocannon.Request) => {
                req.path = `${path}?n=${n++}`;
                req.headers = signed ? { 'x-accesstoken': header('GET', req.path) } : {};
                return req;
              },
            },
          ]
        : undefined,
    });
    const after = await cpu();
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${path}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    return { cpuPerRequest: (after - before) / REQUESTS, rps: result.requests.average };
  };

  await load('/v1/bench/echo-public', false); // warm-up
  await load('/v1/bench/echo', true);
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  const rows = [['case', 'unsigned µs/request', 'signed µs/request', 'signed / unsigned']];
  let ratio = 0;
  for (const fresh of [false, true]) {
    const unsigned: number[] = [];
    const signed: number[] = [];
    const ratios: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const u = await load('/v1/bench/echo-public', false, fresh);
      const s = await load('/v1/bench/echo', true, fresh);
      unsigned.push(u.cpuPerRequest);
      signed.push(s.cpuPerRequest);
      ratios.push(s.cpuPerRequest / u.cpuPerRequest);
    }
    if (!fresh) ratio = median(ratios);
    rows.push([
      fresh
        ? 'a fresh signature on every request (worst case)'
        : 'one client re-sending within a second (header reused)',
      median(unsigned).toFixed(1),
      median(signed).toFixed(1),
      `${median(ratios).toFixed(3)}×`,
    ]);
  }
  child.send({ type: 'stop' });
  rows.push([
    `${ROUNDS} rounds × ${REQUESTS} requests, ${CONNECTIONS} connections`,
    pinned ? 'server on core 0' : 'not pinned',
    pinned ? 'load on core 1' : '',
    'median',
  ]);
  return { ratio, rows };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows } = await runSigningBench();
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}
