/**
 * The request pipeline's own CPU, without sockets: cd bench && node --import tsx http/inject.ts
 *   HTTP_REQUESTS  requests per cell (default 4000)
 *   HTTP_ROUNDS    rounds (default 7); the cells of a round alternate, medians are reported
 *   HTTP_CELLS     a regular expression: only the rows whose name matches (and the bare one), e.g. to profile
 *
 * `app.inject()` runs a request through Fastify without the HTTP parser and the kernel's loopback writes,
 * which dominate (and make noisy) run.ts's figures on a loaded machine. The same process times, one request
 * after another, a bare Fastify route answering a fixed body and llmor's `GET /v1/account` signed like the
 * console (a fresh signature each request, made before the clock starts): authentication from memory, no
 * statement, so the difference is the pipeline (hooks, security headers, signature, validation, response
 * schema, error handling wiring). `GET /v1/conversations/{token}` adds X-Vendor's vendor and the page's
 * statements (on PGlite in memory unless BENCH_DATABASE=embedded, whose database CPU is another process's).
 */

import { makeConversation } from '@llmor/server/modules/completion/testing';
import Fastify from 'fastify';
import { startFakeProvider } from '../lib/fake-provider';
import { consoleSession, startBenchServer } from '../lib/llmor';
import { median, printTable } from '../lib/load';

const REQUESTS = Number(process.env.HTTP_REQUESTS ?? 4000);
const ROUNDS = Number(process.env.HTTP_ROUNDS ?? 7);

const provider = await startFakeProvider();
const { server, ctx, vendor, app } = await startBenchServer(provider.url);
const session = await consoleSession(server.url, vendor.key);
const conversation = (await makeConversation(ctx, app)).token;
const accountBody = await (
  await fetch(`${server.url}/v1/account`, { headers: session.headers('GET', '/v1/account') })
).text();
const bare = Fastify();
bare.get('/v1/account', async (_request, reply) =>
  reply.header('content-type', 'application/json; charset=utf-8').send(accountBody),
);
await bare.ready();

type Call = { server: typeof bare; path: (n: number) => string; signed: boolean };
const cells: Record<string, Call> = {
  'bare Fastify: GET /v1/account, same answer (baseline)': {
    server: bare,
    path: () => '/v1/account',
    signed: false,
  },
  'GET /v1/account (console, signed; no statement)': {
    server: server.app as unknown as typeof bare,
    path: (n) => `/v1/account?locale=en&n=${n}`,
    signed: true,
  },
  'GET /v1/conversations/{token} (console, signed)': {
    server: server.app as unknown as typeof bare,
    path: (n) => `/v1/conversations/${conversation}?locale=en&limit=${20 + (n % 30)}`,
    signed: true,
  },
};

const only = process.env.HTTP_CELLS ? new RegExp(process.env.HTTP_CELLS) : null;
for (const name of Object.keys(cells))
  if (only && !name.startsWith('bare') && !only.test(name)) delete cells[name];

/** CPU µs per request, one request after another; every answer must be 200. */
async function cell({ server: target, path, signed }: Call, total: number): Promise<number> {
  const requests = Array.from({ length: total }, (_, n) => ({
    url: path(n),
    headers: signed ? session.headers('GET', path(n)) : {},
  }));
  const before = process.cpuUsage();
  for (const request of requests) {
    const res = await target.inject({ method: 'GET', ...request });
    if (res.statusCode !== 200) throw new Error(`${request.url}: ${res.statusCode} ${res.body}`);
  }
  const { user, system } = process.cpuUsage(before);
  return (user + system) / total;
}

for (const call of Object.values(cells)) await cell(call, REQUESTS); // warm-up
const results: Record<string, number[]> = Object.fromEntries(Object.keys(cells).map((k) => [k, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, call] of Object.entries(cells)) results[name]!.push(await cell(call, REQUESTS));
}
await Promise.all([bare.close(), server.close(), provider.close()]);

const [baseline] = Object.keys(cells);
const base = median(results[baseline!]!);
console.log(`\nCPU per request through inject(): ${ROUNDS} rounds × ${REQUESTS} requests, one at a time\n`);
printTable([
  ['request', 'CPU µs / request (median)', 'minus the bare route'],
  ...Object.keys(cells).map((name) => [
    name,
    median(results[name]!).toFixed(1),
    name === baseline ? '' : `+${(median(results[name]!) - base).toFixed(1)}`,
  ]),
]);
