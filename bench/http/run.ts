/**
 * HTTP pipeline benchmark: cd bench && BENCH_DATABASE=embedded node --import tsx http/run.ts
 *   HTTP_REQUESTS  requests per GET cell (default 3000); sends are a tenth of it
 *   HTTP_ROUNDS    rounds (default 5); the cells of a round alternate, medians are reported
 *   HTTP_CALLERS   concurrent callers (default 4)
 *   HTTP_CELLS     a regular expression: only the rows whose name matches (and their bare rows), e.g. to profile one
 *   HTTP_PROFILE   a file name: the server's CPU profiles of the measured cells of llmor (not the bare rows), one
 *                  <file>.<n>.cpuprofile per cell (open one in Chrome's DevTools; areas.ts breaks them down together)
 *
 * The server's CPU per request of what the request pipeline costs around a service (ADR 0044): the servers
 * run in a child (`lib/server-child.ts`) whose CPU time is read before and after each cell, so the load generator
 * and the fake provider (here) are not counted; with BENCH_DATABASE=embedded the database's own CPU is
 * another process's and not counted either (on PGlite in memory it is the child's).
 *   - bare Fastify (no plugin, hook or schema) answering the same body as `GET /v1/account`: the baseline;
 *   - `GET /v1/account` signed like the console (a fresh signature each request): the pipeline alone, no
 *     statement (the session is in memory) and no X-Vendor;
 *   - bare Fastify answering the same body as the next row;
 *   - `GET /v1/conversations/{token}` signed like the console (a fresh signature each request, X-Vendor);
 *   - a console send `POST /v1/conversations/{token}` (a fresh conversation every 20 sends);
 *   - `POST /v1/openai/chat/completions` with an API client's key (stateless: a new conversation each call).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { nextMessage } from '../lib/child';
import { startFakeProvider } from '../lib/fake-provider';
import { consoleSession } from '../lib/llmor';
import { median, printTable } from '../lib/load';

const REQUESTS = Number(process.env.HTTP_REQUESTS ?? 3000);
const ROUNDS = Number(process.env.HTTP_ROUNDS ?? 5);
const CALLERS = Number(process.env.HTTP_CALLERS ?? 4);
const SENDS = Math.ceil(REQUESTS / 10);
const CONVERSATION_LENGTH = 20;

const provider = await startFakeProvider();
/** Each caller sends in conversations of its own (a conversation answers one message at a time). */
const conversationsPerCaller = Math.ceil(((ROUNDS + 1) * SENDS) / CALLERS / CONVERSATION_LENGTH) + 2;
const conversationsNeeded = 1 + CALLERS * conversationsPerCaller;
const child = fork(fileURLToPath(new URL('../lib/server-child.ts', import.meta.url)), {
  execArgv: ['--import', 'tsx'],
  env: { ...process.env, PROVIDER_URL: provider.url, CONVERSATIONS: String(conversationsNeeded) },
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const next = <T>(type: string) => nextMessage<T>(child, type);
const ready = await next<{
  url: string;
  bareUrl: string;
  vendorKey: string;
  apiKey: string;
  conversations: string[];
}>('ready');
const cpu = async () => {
  const reply = next<{ micros: number }>('cpu');
  child.send({ type: 'cpu' });
  return (await reply).micros;
};
const ask = async (type: string) => {
  const reply = next(type);
  child.send({ type });
  await reply;
};
const session = await consoleSession(ready.url, ready.vendorKey);
const [getToken, ...sendTokens] = ready.conversations;
const getPath = (n: number) => `/v1/conversations/${getToken}?locale=en&limit=${20 + (n % 30)}`;

// The bare routes answer what the real ones do.
for (const [url, path] of [
  ['/v1/account', '/v1/account'],
  ['/v1/conversations/:token', getPath(0)],
] as const) {
  const real = await fetch(ready.url + path, { headers: session.headers('GET', path) });
  if (real.status !== 200) throw new Error(`GET ${path}: ${real.status} ${await real.text()}`);
  child.send({ type: 'bare', url, body: await real.text() });
  await next('bare');
}

const sends = Array.from({ length: CALLERS }, () => 0);
/** `n`: the cell's request number; `caller`: which closed loop calls. */
const calls: Record<string, (n: number, caller: number) => Promise<Response>> = {
  'bare Fastify: GET /v1/account, same answer (baseline)': () => fetch(`${ready.bareUrl}/v1/account`),
  'GET /v1/account (console, signed; no statement)': (n) => {
    const path = `/v1/account?locale=en&n=${n}`;
    return fetch(ready.url + path, { headers: session.headers('GET', path) });
  },
  'bare Fastify: GET /v1/conversations/{token}, same answer': (n) => fetch(ready.bareUrl + getPath(n)),
  'GET /v1/conversations/{token} (console, signed)': (n) =>
    fetch(ready.url + getPath(n), { headers: session.headers('GET', getPath(n)) }),
  'POST /v1/conversations/{token} (console send)': (_n, caller) => {
    const k = caller * conversationsPerCaller + Math.floor(sends[caller]!++ / CONVERSATION_LENGTH);
    const path = `/v1/conversations/${sendTokens[k]}`;
    return fetch(ready.url + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...session.headers('POST', path) },
      body: JSON.stringify({ content: 'Hello, how are you?' }),
    });
  },
  'POST /v1/openai/chat/completions (API client)': () =>
    fetch(`${ready.url}/v1/openai/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${ready.apiKey}` },
      body: JSON.stringify({ model: 'app', messages: [{ role: 'user', content: 'Hello, how are you?' }] }),
    }),
};
const isSend = (name: string) => name.startsWith('POST');
const only = process.env.HTTP_CELLS ? new RegExp(process.env.HTTP_CELLS) : null;
for (const name of Object.keys(calls))
  if (only && !name.startsWith('bare') && !only.test(name)) delete calls[name];

/** CPU µs of the child per request, CALLERS closed loops; every answer must be 200. */
async function cell(name: string, total: number): Promise<number> {
  let n = 0;
  let failed = '';
  const before = await cpu();
  await Promise.all(
    Array.from({ length: CALLERS }, async (_, caller) => {
      for (let i = n++; i < total; i = n++) {
        const res = await calls[name]!(i, caller);
        const text = await res.text();
        if (res.status !== 200) failed ||= `${name}: ${res.status} ${text}`;
      }
    }),
  );
  const after = await cpu();
  if (failed) throw new Error(failed);
  return (after - before) / total;
}

for (const name of Object.keys(calls)) await cell(name, isSend(name) ? SENDS : REQUESTS); // warm-up
const results: Record<string, number[]> = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
const ratios: Record<string, number[]> = Object.fromEntries(Object.keys(calls).map((k) => [k, []]));
/** Each row is compared with the bare row above it, measured in the same round. */
const isBare = (name: string) => name.startsWith('bare');
for (let round = 0; round < ROUNDS; round++) {
  let base = 0;
  for (const name of Object.keys(calls)) {
    const profiled = process.env.HTTP_PROFILE && !isBare(name);
    if (profiled) await ask('profile');
    const us = await cell(name, isSend(name) ? SENDS : REQUESTS);
    if (profiled) await ask('profiled');
    results[name]!.push(us);
    if (isBare(name)) base = us;
    else ratios[name]!.push(us / base);
  }
}
const exited = new Promise((resolve) => child.once('exit', resolve));
child.send({ type: 'stop' });
await exited;
await provider.close();

console.log(
  `\nServer CPU per request: ${ROUNDS} rounds, ${REQUESTS} GETs / ${SENDS} sends per cell, ${CALLERS} callers\n`,
);
printTable([
  ['request', 'CPU µs / request (median)', '× the bare row above (median of rounds)'],
  ...Object.keys(calls).map((name) => [
    name,
    median(results[name]!).toFixed(0),
    isBare(name) ? '' : `${median(ratios[name]!).toFixed(2)}×`,
  ]),
]);
