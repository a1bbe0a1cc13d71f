/**
 * Conversation benchmark: npx tsx bench/conversation/run.ts
 *   CONVERSATION_REPLIES   replies per overhead cell (default 320, split between the callers)
 *   CONVERSATION_HISTORY_SENDS console sends of each kind in the history part (default 200)
 *   CONVERSATION_SQL_TRACE=1 also prints the SQL statements of one console send
 *   CONVERSATION_PARTS     which parts run (default: all of `overhead,first-chunk,realistic,history,long-answer,observability`; e.g. one part to profile)
 *   CONVERSATION_PROFILE   a file name: a CPU profile of the realistic part's relay cell only (the process holds the
 *                          load generator, the relay clients and the fake provider too; `http/areas.ts` reads it),
 *                          and <file>.alone.1.cpuprofile of the llmor in a child process of the same part (or,
 *                          with `long-answer` alone, of its paced 105-chunk cell without a relay client)
 *
 * On the embedded default (PGlite in memory, every role in one process), in one run:
 *
 * 1. llmor's overhead per reply (docs/adr/0018-reply-overhead.md): a chatbot app answering with an OpenAI-compatible model that
 *    points at a local fake provider answering at once. At 1, 8 and 32 concurrent conversations (closed
 *    loops, a fixed number of replies each) p50/p99 of the provider called directly with the request llmor
 *    makes (baseline) and of console sends — `POST /v1/conversations/{token}` over HTTP, signed like the web
 *    console — each caller in its own conversation, a fresh one every CONVERSATION_LENGTH replies (the
 *    context grows with it up to the window, so its length is held fixed). Also the SQL statements per send.
 *    Goals: overhead p50 ≤ 5 ms, p99 ≤ 15 ms at 8 concurrent.
 * 2. First chunk: the fake provider writes its first chunk, pauses, then the rest; a socket.io client
 *    joined to the conversation times `completion_stream` from the provider's first SSE byte (at 1 and 8
 *    concurrent conversations); the provider read directly by fetch is the baseline. Goal: ≤ 5 ms.
 *    2b. The same with a realistic provider (first token after 300 ms, then 20 chunks 20 ms apart) at 32
 *    conversations at once (`realistic`), llmor in this process and then alone in a child process (its
 *    event loop and garbage collector not shared with the 32 clients and the provider). Goal: overhead p50
 *    ≤ 2 ms, p99 ≤ 10 ms.
 * 3. Reply time against history length: the offline demo model with no delay (only llmor's own work
 *    timed) through the completion engine, a fresh conversation against one holding 1,000 stored
 *    messages (goal ≤ 1.5×); and console sends over HTTP as the caller times them, against the fake
 *    provider, alternating between the two kinds of conversation (CONVERSATION_HISTORY_SENDS each,
 *    default 200), before and after analyzing `messages` (goal ≤ 1.1×).
 * 4. Long answer: CPU per reply of console sends and of the provider called directly, with answers of 5
 *    and of 500 streamed chunks (one caller); llmor's CPU per streamed chunk is the difference of the
 *    differences over the 495 extra chunks. Goal: ≤ 0.1 ms. 4b. The same as a console user meets it
 *    (`pacedChunksPart`): chunks 2 ms apart, each read alone, with and without a relay client joined, llmor
 *    alone in a child process; beside it two floors in a child of their own, a bare reader of the same stream
 *    and the same reader relaying each piece to a socket.io client.
 * 5. Metrics and traces (docs/adr/0035-metrics.md, docs/adr/0040-traces.md): console sends at 8 concurrent
 *    against this server (no METRICS_TOKEN, no traces), a twin with METRICS_TOKEN, and a third with
 *    METRICS_TOKEN and traces exported over OTLP to a local receiver that keeps nothing, in rotating rounds;
 *    CPU per reply and p50 of each, the median of the rounds' ratios against the first, one scrape to check
 *    every reply was counted. Goals: < 3 % with metrics on and traces off, < 10 % with both on.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { Session as Inspector } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { RelayMessageType, RelayServerEvent, relayMessage } from '@llmor/contracts';
import { CompletionMetrics } from '@llmor/server/modules/completion/metrics';
import { makeChatApp, makeConversation } from '@llmor/server/modules/completion/testing';
import type { ChatModel } from '@llmor/server/modules/models/providers/types';
import type { Database } from '@llmor/server/platform/db/index';
import { registerDatabaseMetrics, schema } from '@llmor/server/platform/db/index';
import { StatementTimer } from '@llmor/server/platform/db/statements';
import { createMetrics, registerMetrics } from '@llmor/server/platform/metrics';
import { startTracing } from '@llmor/server/platform/tracing';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { io } from 'socket.io-client';
import { nextMessage } from '../lib/child';
import { directStreamBody, FAKE_REPLY, LONG_REPLY_CHUNKS, startFakeProvider } from '../lib/fake-provider';
import {
  consoleSession,
  countQueries,
  databaseServerCpuMs,
  relayClient,
  startBenchServer,
} from '../lib/llmor';
import { type Cell, fmt, load, median, percentile, postJson, printTable } from '../lib/load';

const REPLIES = Number(process.env.CONVERSATION_REPLIES ?? 320);
const CONCURRENCY = [1, 8, 32];
/** Replies per conversation in the overhead cells (then the caller moves to a fresh conversation). */
const CONVERSATION_LENGTH = 20;
const WARM_UP = 30;
const FIRST_CHUNK_SENDS = 60;
const FIRST_CHUNK_CONCURRENCY = [1, 8];
/** The fake provider's pause after its first chunk in the first-chunk part. */
const FIRST_CHUNK_PAUSE_MS = 25;
/** A realistic model's pace: the first token after 300 ms, then 20 chunks 20 ms apart. */
const REALISTIC_PACING = { firstMs: 300, chunkMs: 20 };
const REALISTIC_CHUNKS = 21;
const REALISTIC_CONVERSATIONS = 32;
const REALISTIC_SENDS = 10;
const HISTORY_REPLIES = 40;
/** Console sends of each kind in the history part (many: the difference measured is under a millisecond). */
const HISTORY_SENDS = Number(process.env.CONVERSATION_HISTORY_SENDS ?? 200);
const HISTORY = 1_000;
const LONG_ANSWER_REPLIES = 60;
const METRICS_ROUNDS = 6;
const METRICS_CONCURRENCY = 8;
const PARTS = new Set(
  (
    process.env.CONVERSATION_PARTS ?? 'overhead,first-chunk,realistic,history,long-answer,observability'
  ).split(','),
);

const provider = await startFakeProvider();
const { server, ctx, vendor, app } = await startBenchServer(provider.url, {
  SEND_RATE_PER_MINUTE: '1000000',
  // The realistic part joins 32 relay clients from one address.
  RELAY_SOCKETS_PER_ADDRESS: '64',
});
const queries = countQueries(ctx.db);
const session = await consoleSession(server.url, vendor.key);

type Session = Awaited<ReturnType<typeof consoleSession>>;

/** A console send to the server at `baseUrl`: `POST /v1/conversations/{token}`, signed, read to its end. */
function sendTo(baseUrl: string, signedIn: Session, token: string, content: string): Promise<boolean> {
  const path = `/v1/conversations/${token}`;
  return postJson(`${baseUrl}${path}`, signedIn.headers('POST', path), { content });
}

const send = (token: string, content: string) => sendTo(server.url, session, token, content);

/** The provider called directly with the streamed request llmor makes. */
function direct(content: string): Promise<boolean> {
  return postJson(
    `${provider.url}/chat/completions`,
    { authorization: 'Bearer sk-bench' },
    directStreamBody(content),
  );
}

async function conversations(n: number): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < n; i++) tokens.push((await makeConversation(ctx, app)).token);
  return tokens;
}

/** 1. Overhead per reply: direct and console sends at each concurrency, and the SQL statements per send. */
async function overheadPart(): Promise<void> {
  const directCells: Record<number, Cell> = {};
  const sendCells: Record<number, Cell> = {};
  let queriesPerSend = 0;
  let databaseMsPerSend = 0;
  /** The embedded PostgreSQL's CPU per send, by callers (BENCH_DATABASE=embedded). */
  const serverCpuPerSend: Record<number, number> = {};
  for (const n of CONCURRENCY) {
    const perCaller = Math.ceil(REPLIES / n);
    directCells[n] = await load(n, (w, i) => direct(`question ${w}-${i}`), { perCaller });
    const pool: string[][] = [];
    for (let w = 0; w < n; w++) pool.push(await conversations(Math.ceil(perCaller / CONVERSATION_LENGTH)));
    const before = { ...queries };
    const serverCpu = databaseServerCpuMs();
    sendCells[n] = await load(
      n,
      (w, i) => send(pool[w]![Math.floor(i / CONVERSATION_LENGTH)]!, `question ${w}-${i}`),
      { perCaller },
    );
    if (serverCpu !== null) serverCpuPerSend[n] = (databaseServerCpuMs()! - serverCpu) / sendCells[n].calls;
    if (n === 1) {
      queriesPerSend = (queries.n - before.n) / sendCells[n].calls;
      databaseMsPerSend = (queries.ms - before.ms) / sendCells[n].calls;
    }
  }

  console.log(
    `\nOverhead per reply: ${REPLIES} replies per cell, a fresh conversation every ${CONVERSATION_LENGTH} replies\n`,
  );
  const rows = [['caller', 'concurrent', 'replies/s', 'p50 ms', 'p99 ms', 'CPU ms / reply', 'errors']];
  for (const [name, cells] of [
    ['provider directly (streamed)', directCells],
    ['console send `POST /v1/conversations/{token}`', sendCells],
  ] as const) {
    for (const n of CONCURRENCY) {
      const c = cells[n]!;
      rows.push([name, String(n), fmt(c.rps), fmt(c.p50), fmt(c.p99), c.cpuMs.toFixed(2), String(c.errors)]);
    }
  }
  printTable(rows);
  console.log('');
  printTable([
    ['llmor overhead per reply (send minus direct)', ...CONCURRENCY.map(String), 'goal (8)'],
    ['p50', ...CONCURRENCY.map((n) => `${fmt(sendCells[n]!.p50 - directCells[n]!.p50)} ms`), '≤ 5 ms'],
    ['p99', ...CONCURRENCY.map((n) => `${fmt(sendCells[n]!.p99 - directCells[n]!.p99)} ms`), '≤ 15 ms'],
    // Everything shares one thread, so a closed loop of n callers waits about n × this per reply.
    [
      'CPU per reply',
      ...CONCURRENCY.map((n) => `${(sendCells[n]!.cpuMs - directCells[n]!.cpuMs).toFixed(2)} ms`),
      '',
    ],
    ...(serverCpuPerSend[1] === undefined
      ? []
      : [
          [
            '+ PostgreSQL CPU per reply',
            ...CONCURRENCY.map((n) => `${serverCpuPerSend[n]!.toFixed(2)} ms`),
            '',
          ],
        ]),
  ]);
  console.log(
    `\nPer console send (1 caller): ${queriesPerSend.toFixed(1)} SQL statements, ${databaseMsPerSend.toFixed(2)} ms waiting for the database`,
  );
}

/**
 * The provider read directly by fetch, `n` callers sending `sends` requests each (after 3 warm-up calls):
 * how long after the provider wrote its first SSE byte the reader had it, sorted.
 */
async function directFirstChunks(n: number, sends: number, label: string): Promise<number[]> {
  const latencies: number[] = [];
  await load(
    n,
    async (w, i) => {
      const content = `${label} ${n}-${w}-${i}`;
      const res = await fetch(`${provider.url}/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer sk-bench' },
        body: JSON.stringify(directStreamBody(content)),
      });
      const reader = res.body!.getReader();
      await reader.read();
      const at = performance.now();
      while (!(await reader.read()).done) {}
      if (i >= 3) latencies.push(at - provider.firstByteAt.get(content)!);
      return true;
    },
    { perCaller: sends + 3 },
  );
  return latencies.sort((a, b) => a - b);
}

/**
 * The llmor the relay clients send to and listen on: this process's server (beside the load generator, the
 * clients and the fake provider), or one alone in a child process (`lib/server-child.ts`), whose CPU is read
 * from it (`cpuMs`: its CPU time so far).
 */
interface Target {
  url: string;
  session: Session;
  conversations(n: number): Promise<string[]>;
  cpuMs?: () => Promise<number>;
  /** Starts (true) or stops and writes (false) the child's CPU profile; with CONVERSATION_PROFILE only. */
  profiling?: (on: boolean) => Promise<void>;
  stop?: () => Promise<void>;
}

const inProcess: Target = { url: server.url, session, conversations };

/** llmor in a child process of its own, on this process's fake provider, with `n` conversations. */
async function childTarget(n: number): Promise<Target> {
  const child = fork(fileURLToPath(new URL('../lib/server-child.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      PROVIDER_URL: provider.url,
      CONVERSATIONS: String(n),
      // The child profiles itself when asked (`profiling`): <CONVERSATION_PROFILE>.alone.1.cpuprofile.
      HTTP_PROFILE: process.env.CONVERSATION_PROFILE && `${process.env.CONVERSATION_PROFILE}.alone`,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const ready = await nextMessage<{ url: string; vendorKey: string; conversations: string[] }>(
    child,
    'ready',
  );
  const unused = [...ready.conversations];
  return {
    url: ready.url,
    session: await consoleSession(ready.url, ready.vendorKey),
    conversations: async (count) => {
      if (count > unused.length) throw new Error('the child opened too few conversations');
      return unused.splice(0, count);
    },
    cpuMs: async () => {
      const reply = nextMessage<{ micros: number }>(child, 'cpu');
      child.send({ type: 'cpu' });
      return (await reply).micros / 1000;
    },
    profiling: async (on: boolean) => {
      const reply = nextMessage(child, on ? 'profile' : 'profiled');
      child.send({ type: on ? 'profile' : 'profiled' });
      await reply;
    },
    stop: async () => {
      child.send({ type: 'stop' });
      await once(child, 'exit');
    },
  };
}

/**
 * `n` conversations, each with a socket.io client joined, sending `sends` messages each (after 3 warm-up
 * sends): how long after the provider wrote its first SSE byte each client had the first
 * `completion_stream`, sorted, and the load's cell (CPU per send: the target's when it is a child).
 */
async function relayFirstChunks(
  n: number,
  sends: number,
  label: string,
  target: Target = inProcess,
): Promise<{ latencies: number[]; cell: Cell }> {
  const tokens = await target.conversations(n);
  const sockets = await Promise.all(
    tokens.map((token) => relayClient(target.url, token, target.session.headers)),
  );
  const firstChunkAt = new Map<string, number>();
  const waiting: (string | null)[] = tokens.map(() => null);
  for (const [w, socket] of sockets.entries()) {
    socket.on(RelayServerEvent.message, (raw: string) => {
      const { type } = relayMessage.parse(JSON.parse(raw));
      const content = waiting[w];
      if (type !== RelayMessageType.completionStream || !content || firstChunkAt.has(content)) return;
      firstChunkAt.set(content, performance.now());
    });
  }
  const latencies: number[] = [];
  const cpuBefore = await target.cpuMs?.();
  const cell = await load(
    n,
    async (w, i) => {
      const content = `${label} ${n}-${w}-${i}`;
      waiting[w] = content;
      const ok = await sendTo(target.url, target.session, tokens[w]!, content);
      waiting[w] = null;
      const sent = provider.firstByteAt.get(content);
      const received = firstChunkAt.get(content);
      if (!ok || sent === undefined || received === undefined) return false;
      if (i >= 3) latencies.push(received - sent);
      return true;
    },
    { perCaller: sends + 3 },
  );
  if (target.cpuMs) cell.cpuMs = ((await target.cpuMs()) - cpuBefore!) / cell.calls;
  for (const socket of sockets) socket.close();
  return { latencies: latencies.sort((a, b) => a - b), cell };
}

/** 2. First chunk: the provider's first SSE byte → fetch directly, and → llmor → a relay client. */
async function firstChunkPart(): Promise<void> {
  provider.pauseAfterFirstMs = FIRST_CHUNK_PAUSE_MS;
  const directFirst = await directFirstChunks(1, FIRST_CHUNK_SENDS, 'direct first chunk');
  const relayFirst: Record<number, number[]> = {};
  for (const n of FIRST_CHUNK_CONCURRENCY) {
    relayFirst[n] = (await relayFirstChunks(n, Math.ceil(FIRST_CHUNK_SENDS / n), 'first chunk')).latencies;
  }
  provider.pauseAfterFirstMs = 0;

  console.log(
    `\nFirst chunk: provider's first SSE byte → the client has it (the provider pauses ${FIRST_CHUNK_PAUSE_MS} ms after it)\n`,
  );
  printTable([
    ['path', 'concurrent', 'p50 ms', 'p99 ms', 'goal'],
    [
      'provider → fetch directly (baseline)',
      '1',
      fmt(percentile(directFirst, 50)),
      fmt(percentile(directFirst, 99)),
      '',
    ],
    ...FIRST_CHUNK_CONCURRENCY.map((n) => [
      'provider → llmor → socket.io `completion_stream`',
      String(n),
      fmt(percentile(relayFirst[n]!, 50)),
      fmt(percentile(relayFirst[n]!, 99)),
      '≤ 5 ms',
    ]),
  ]);
}

/** `work` under the CPU profiler when `file` is set (written there), else `work` alone. */
async function profiled<T>(file: string | undefined, work: () => Promise<T>): Promise<T> {
  if (!file) return work();
  const profiler = new Inspector();
  profiler.connect();
  await profiler.post('Profiler.enable');
  await profiler.post('Profiler.setSamplingInterval', { interval: 200 });
  await profiler.post('Profiler.start');
  try {
    return await work();
  } finally {
    const { profile } = await profiler.post('Profiler.stop');
    writeFileSync(file, JSON.stringify(profile));
    profiler.disconnect();
  }
}

/**
 * 2b. First token with a realistic provider: 32 conversations at once, each with a relay client joined,
 * against the same provider read directly by 32 fetch callers; the overhead is the difference.
 */
async function realisticPart(): Promise<void> {
  provider.pacing = REALISTIC_PACING;
  provider.chunks = REALISTIC_CHUNKS;
  const n = REALISTIC_CONVERSATIONS;
  const direct = await directFirstChunks(n, REALISTIC_SENDS, 'realistic direct');
  const here = await profiled(process.env.CONVERSATION_PROFILE, () =>
    relayFirstChunks(n, REALISTIC_SENDS, 'realistic'),
  );
  const child = await childTarget(n);
  const profile = process.env.CONVERSATION_PROFILE ? child.profiling : undefined;
  await profile?.(true);
  const alone = await relayFirstChunks(n, REALISTIC_SENDS, 'realistic alone', child);
  await profile?.(false);
  await child.stop?.();
  provider.pacing = null;
  provider.chunks = FAKE_REPLY.length;
  const at = (sorted: number[], p: number) => percentile(sorted, p);
  console.log(
    `\nFirst token, realistic provider (first chunk after ${REALISTIC_PACING.firstMs} ms, then ${REALISTIC_CHUNKS - 1} chunks ${REALISTIC_PACING.chunkMs} ms apart), ${n} conversations at once, ${REALISTIC_SENDS} sends each\n`,
  );
  const row = (path: string, { latencies, cell }: { latencies: number[]; cell: Cell }) => [
    path,
    fmt(at(latencies, 50)),
    fmt(at(latencies, 99)),
    `${fmt(at(latencies, 50) - at(direct, 50))} / ${fmt(at(latencies, 99) - at(direct, 99))} ms`,
    cell.cpuMs.toFixed(2),
    '≤ 2 / ≤ 10 ms',
  ];
  printTable([
    ['path', 'p50 ms', 'p99 ms', 'overhead p50 / p99', 'CPU ms / send', 'goal'],
    ['provider → fetch directly (baseline)', fmt(at(direct, 50)), fmt(at(direct, 99)), '', '', ''],
    row('provider → llmor → socket.io `completion_stream` (all in this process)', here),
    row('the same, llmor in a process of its own (CPU: its own)', alone),
  ]);
}

/** 3. Reply time against history length: the offline demo model through the engine alone. */
async function historyPart(): Promise<void> {
  const [demoModel] = await ctx.db
    .insert(schema.vendorModels)
    .values({
      vendorId: vendor.id,
      modelKey: 'builtin-offline-demo',
      name: 'Demo',
      type: 'chat_completion',
      provider: 'builtin',
    })
    .returning();
  const demoApp = await makeChatApp(ctx, vendor, { model: demoModel! });
  /** Median reply time through the engine, after a few warm-up replies. */
  async function replyTimes(conversation: Awaited<ReturnType<typeof makeConversation>>): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < HISTORY_REPLIES + 5; i++) {
      const t0 = performance.now();
      await ctx.completion.start(ctx, {
        app: demoApp,
        conversation,
        content: `Question number ${i}, please answer.`,
      });
      if (i >= 5) times.push(performance.now() - t0);
    }
    return median(times);
  }
  /**
   * Console sends over HTTP as the caller times them (the fake provider's app), alternating send by send
   * between a fresh conversation (a new one every CONVERSATION_LENGTH sends) and `long`, so a drift in the
   * machine's load falls on both: the median time of each, and the process's CPU per send of each.
   */
  async function sendTimes(long: string) {
    const kinds = {
      fresh: { times: [] as number[], cpuMs: 0 },
      long: { times: [] as number[], cpuMs: 0 },
    };
    let fresh = '';
    for (let i = 0; i < HISTORY_SENDS + 5; i++) {
      if (i % CONVERSATION_LENGTH === 0) fresh = (await makeConversation(ctx, app)).token;
      for (const kind of i % 2 ? (['long', 'fresh'] as const) : (['fresh', 'long'] as const)) {
        const cpu = process.cpuUsage();
        const t0 = performance.now();
        if (!(await send(kind === 'long' ? long : fresh, `Question number ${i}, please answer.`)))
          throw new Error('send failed');
        const { user, system } = process.cpuUsage(cpu);
        if (i >= 5) {
          kinds[kind].times.push(performance.now() - t0);
          kinds[kind].cpuMs += (user + system) / 1000 / HISTORY_SENDS;
        }
      }
    }
    return {
      fresh: { ms: median(kinds.fresh.times), cpuMs: kinds.fresh.cpuMs },
      long: { ms: median(kinds.long.times), cpuMs: kinds.long.cpuMs },
    };
  }
  const withHistory = async (target: typeof app) => {
    const long = await makeConversation(ctx, target);
    await ctx.db.insert(schema.messages).values(
      Array.from({ length: HISTORY }, (_, i) => ({
        vendorId: vendor.id,
        conversationId: long.id,
        role: i % 2 ? 'assistant' : 'user',
        creator: i % 2 ? 'system' : 'user',
        message: `${i % 2 ? 'You said: an earlier question' : 'An earlier question'} ${i}. `.repeat(4),
      })),
    );
    return long;
  };
  const fresh = await replyTimes(await makeConversation(ctx, demoApp));
  const atHistory = await replyTimes(await withHistory(demoApp));
  const long = (await withHistory(app)).token;
  // Right after the bulk insert the planner still has the statistics of a table without these messages.
  const stale = await sendTimes(long);
  // What autovacuum's analyze does in a running database once a table has grown (docs/adr/0026-messages-contract.md
  // "Amended 2026-11-25: a lean reply path").
  await ctx.db.execute(sql`analyze ${schema.messages}`);
  const sends = await sendTimes(long);

  console.log('\nReply time against history length (offline demo model, the engine alone)\n');
  const at = `at ${HISTORY.toLocaleString('en')} stored messages`;
  const sendRows = (label: string, measured: typeof sends) => [
    [
      `console send over HTTP, fresh conversation (median, baseline)${label}`,
      `${measured.fresh.ms.toFixed(2)} ms`,
      `${measured.fresh.cpuMs.toFixed(2)} ms`,
      '',
    ],
    [
      `console send ${at} (median)${label}`,
      `${measured.long.ms.toFixed(2)} ms`,
      `${measured.long.cpuMs.toFixed(2)} ms`,
      '',
    ],
    [
      'ratio',
      `${(measured.long.ms / measured.fresh.ms).toFixed(2)}×`,
      `${(measured.long.cpuMs / measured.fresh.cpuMs).toFixed(2)}×`,
      '≤ 1.1×',
    ],
  ];
  printTable([
    ['measure', 'value', 'CPU / send', 'goal'],
    ['reply, fresh conversation (median, baseline)', `${fresh.toFixed(2)} ms`, '', ''],
    [`reply ${at} (median)`, `${atHistory.toFixed(2)} ms`, '', ''],
    ['ratio', `${(atHistory / fresh).toFixed(2)}×`, '', '≤ 1.5×'],
    ...sendRows(', statistics analyzed', sends),
    ...sendRows(', statistics before the insert', stale),
  ]);
}

/** 4. Long answer: llmor's CPU per streamed chunk (one caller, 5 against 500 chunks). */
async function longAnswerPart(): Promise<void> {
  const cpu: Record<number, { direct: Cell; send: Cell }> = {};
  for (const chunks of [FAKE_REPLY.length, LONG_REPLY_CHUNKS]) {
    provider.chunks = chunks;
    const pool = await conversations(Math.ceil(LONG_ANSWER_REPLIES / CONVERSATION_LENGTH));
    const perCaller = LONG_ANSWER_REPLIES;
    cpu[chunks] = {
      direct: await load(1, (_, i) => direct(`long ${chunks} ${i}`), { perCaller }),
      send: await load(1, (_, i) => send(pool[Math.floor(i / CONVERSATION_LENGTH)]!, `long ${chunks} ${i}`), {
        perCaller,
      }),
    };
  }
  provider.chunks = FAKE_REPLY.length;
  const overhead = (chunks: number) => cpu[chunks]!.send.cpuMs - cpu[chunks]!.direct.cpuMs;
  const short = FAKE_REPLY.length;
  console.log(`\nLong answer: CPU per reply, one caller, ${LONG_ANSWER_REPLIES} replies per cell\n`);
  printTable([
    ['answer', 'direct CPU ms', 'console send CPU ms', 'llmor CPU ms / reply', 'send p50 ms'],
    ...[short, LONG_REPLY_CHUNKS].map((chunks) => [
      `${chunks} chunks`,
      cpu[chunks]!.direct.cpuMs.toFixed(2),
      cpu[chunks]!.send.cpuMs.toFixed(2),
      overhead(chunks).toFixed(2),
      fmt(cpu[chunks]!.send.p50),
    ]),
  ]);
  const perChunk = (overhead(LONG_REPLY_CHUNKS) - overhead(short)) / (LONG_REPLY_CHUNKS - short);
  console.log(`\nllmor CPU per streamed chunk: ${perChunk.toFixed(3)} ms (goal ≤ 0.1 ms)`);
  await pacedChunksPart();
}

/** A socket.io client of the bare reader's relay (`lib/stream-reader-child.ts`), counting what it hears. */
async function bareRelayClient(url: string): Promise<{ received: number; close(): void }> {
  const socket = io(url, { transports: ['websocket'], forceNew: true });
  const client = { received: 0, close: () => socket.close() };
  socket.on('chunk', () => {
    client.received += 1;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  return client;
}

/** Chunks of the paced long answer; `PACED_CHUNK_MS` apart, each arrives in a read of its own. */
const PACED_CHUNKS = 105;
const PACED_CHUNK_MS = 2;
const PACED_REPLIES = 20;
const PACED_ROUNDS = 4;

/**
 * 4b. The CPU a streamed chunk costs as a console user meets it: the provider writes its chunks
 * `PACED_CHUNK_MS` apart (so llmor reads, parses and relays each alone, where the zero-latency answers above
 * arrive in a few reads), with and without a relay client joined to the conversation, llmor alone in a
 * child process whose own CPU is read. One caller, `PACED_REPLIES` replies a cell in `PACED_ROUNDS` rounds
 * of alternating order, after warm-ups of the long answer.
 */
async function pacedChunksPart(): Promise<void> {
  // Two warm-ups, then a conversation for each of the 4 llmor cells of every round.
  const target = await childTarget(2 + 4 * PACED_ROUNDS);
  const reader = fork(fileURLToPath(new URL('../lib/stream-reader-child.ts', import.meta.url)), {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { url: readerRelayUrl } = await nextMessage<{ url: string }>(reader, 'ready');
  /**
   * The bare reader's CPU per answer of `chunks` (the same streamed request llmor makes); `relay`: each piece
   * also emitted to a socket.io client connected to the reader (the floor under a relayed chunk).
   */
  const floorPerReply = async (chunks: number, relay: boolean) => {
    provider.chunks = chunks;
    const socket = relay ? await bareRelayClient(readerRelayUrl) : null;
    const answer = nextMessage<{ cpuMs: number }>(reader, 'read');
    const body = directStreamBody(`paced floor ${chunks}`);
    reader.send({
      type: 'read',
      url: `${provider.url}/chat/completions`,
      body,
      replies: PACED_REPLIES,
      relay,
    });
    const { cpuMs } = await answer;
    if (socket && socket.received < chunks * PACED_REPLIES) {
      throw new Error(`the bare relay's client heard ${socket.received} pieces of ${chunks * PACED_REPLIES}`);
    }
    socket?.close();
    return cpuMs;
  };
  const cpuPerReply = async (chunks: number, joined: boolean) => {
    provider.chunks = chunks;
    const [token] = await target.conversations(1);
    const socket = joined ? await relayClient(target.url, token!, target.session.headers) : null;
    // CONVERSATION_PROFILE: the long cell without a client is profiled (<file>.alone.<n>.cpuprofile).
    const profile = process.env.CONVERSATION_PROFILE && chunks === PACED_CHUNKS && !joined;
    if (profile) await target.profiling!(true);
    const before = await target.cpuMs!();
    const cell = await load(1, (_, i) => sendTo(target.url, target.session, token!, `paced ${chunks} ${i}`), {
      perCaller: PACED_REPLIES,
    });
    const cpu = ((await target.cpuMs!()) - before) / cell.calls;
    if (profile) await target.profiling!(false);
    socket?.close();
    if (cell.errors) throw new Error(`${cell.errors} paced sends failed`);
    return cpu;
  };
  try {
    provider.pacing = { firstMs: 0, chunkMs: PACED_CHUNK_MS };
    // Warm-ups of the long answer itself, with and without a client: a cell of 20 replies is too short to
    // carry V8's tiering of the per-chunk code (its compiler threads' CPU counted as llmor's).
    await cpuPerReply(PACED_CHUNKS, true);
    await cpuPerReply(PACED_CHUNKS, false);
    await floorPerReply(PACED_CHUNKS, true);
    // The cells in rounds, every other round in reverse order, so none always runs last (a V8 memory
    // reducer's collection after a burst lands on whichever cell runs then); each cell's mean of its rounds.
    type Kind = 'floor' | 'relayFloor' | 'alone' | 'joined';
    type Length = 'short' | 'long';
    const kinds = ['floor', 'relayFloor', 'alone', 'joined'] as const;
    const cells: [Kind, Length][] = kinds.flatMap((kind) =>
      (['short', 'long'] as const).map((length): [Kind, Length] => [kind, length]),
    );
    const cpu = Object.fromEntries(kinds.map((kind) => [kind, { short: 0, long: 0 }])) as Record<
      Kind,
      Record<Length, number>
    >;
    for (let round = 0; round < PACED_ROUNDS; round++) {
      for (const [kind, length] of round % 2 ? [...cells].reverse() : cells) {
        const chunks = length === 'short' ? FAKE_REPLY.length : PACED_CHUNKS;
        const ms =
          kind === 'floor' || kind === 'relayFloor'
            ? await floorPerReply(chunks, kind === 'relayFloor')
            : await cpuPerReply(chunks, kind === 'joined');
        cpu[kind][length] += ms / PACED_ROUNDS;
      }
    }
    const perChunk = ({ short, long }: { short: number; long: number }) =>
      (long - short) / (PACED_CHUNKS - FAKE_REPLY.length);
    console.log(
      `\nLong answer, paced: chunks ${PACED_CHUNK_MS} ms apart, llmor alone in a child process (its CPU only), one caller, ${PACED_REPLIES} replies per cell in each of ${PACED_ROUNDS} rounds\n`,
    );
    printTable([
      [
        'answer',
        'bare reader CPU ms (floor)',
        'llmor CPU ms / reply, no relay client',
        'bare reader relaying to a client (floor)',
        'llmor with a relay client joined',
      ],
      ...(['short', 'long'] as const).map((length) => [
        `${length === 'short' ? FAKE_REPLY.length : PACED_CHUNKS} chunks`,
        ...(['floor', 'alone', 'relayFloor', 'joined'] as const).map((kind) => cpu[kind][length].toFixed(2)),
      ]),
      [
        "CPU per streamed chunk (llmor's goal ≤ 0.1 ms)",
        ...(['floor', 'alone', 'relayFloor', 'joined'] as const).map((kind) =>
          perChunk(cpu[kind]).toFixed(3),
        ),
      ],
      [
        "llmor's own per chunk (minus its floor)",
        '',
        (perChunk(cpu.alone) - perChunk(cpu.floor)).toFixed(3),
        '',
        (perChunk(cpu.joined) - perChunk(cpu.relayFloor)).toFixed(3),
      ],
    ]);
  } finally {
    provider.pacing = null;
    provider.chunks = FAKE_REPLY.length;
    await target.stop?.();
    reader.disconnect();
  }
}

/**
 * The engine's own recording for one reply, alone: its timing (first text, end) and one provider call of
 * 20 chunks through the instrumented model, minus the same call through the bare model. In ms.
 */
async function engineRecordingMs(): Promise<number> {
  const bare: ChatModel = {
    async *stream() {
      for (let i = 0; i < 20; i++) yield { type: 'text', text: 'chunk' };
      yield { type: 'finish', reason: 'stop', usage: { promptTokens: 10, completionTokens: 20 } };
    },
  };
  const metrics = new CompletionMetrics();
  const instrumented = metrics.instrument('openai-compatible', bare);
  const replies = 20_000;
  const run = async (model: ChatModel, measured: boolean) => {
    const started = performance.now();
    for (let i = 0; i < replies; i++) {
      const reply = measured ? metrics.reply('management') : null;
      for await (const event of model.stream({ messages: [] })) if (event.type === 'text') reply?.firstText();
      reply?.end('ok');
    }
    return (performance.now() - started) / replies;
  };
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) rounds.push((await run(instrumented, true)) - (await run(bare, false)));
  return median(rounds);
}

/**
 * What METRICS_TOKEN adds to one console send, alone (ms): the HTTP request's recording (a route on a bare
 * Fastify with `registerMetrics` and the token, minus the same without it, through `inject`) and five
 * statements' timing (the listener `registerDatabaseMetrics` sets, with the wrapper's two clock reads).
 */
async function metricsRecordingMs(): Promise<{ http: number; statements: number }> {
  const server = async (token: string | undefined) => {
    const app = Fastify();
    registerMetrics(app, createMetrics(), token);
    app.post('/v1/conversations/:token', async () => ({ ok: true }));
    await app.ready();
    return app;
  };
  const recorded = await server('bench');
  const bare = await server(undefined);
  const requests = 5_000;
  const cpuPerRequest = async (app: typeof bare) => {
    const cpu = process.cpuUsage();
    for (let i = 0; i < requests; i++) {
      await app.inject({ method: 'POST', url: '/v1/conversations/abc', payload: { content: 'x' } });
    }
    const { user, system } = process.cpuUsage(cpu);
    return (user + system) / 1000 / requests;
  };
  const http: number[] = [];
  for (let r = 0; r < 5; r++) http.push((await cpuPerRequest(recorded)) - (await cpuPerRequest(bare)));
  await recorded.close();
  await bare.close();

  const timer = new StatementTimer();
  const target = { query: async (_sql: string) => null };
  const bareQuery = target.query;
  timer.wrap(target, 'query');
  registerDatabaseMetrics(createMetrics(), { statements: timer } as unknown as Database, {
    statements: true,
  });
  const sends = 20_000;
  const run = async (query: (sql: string) => Promise<null>) => {
    const started = performance.now();
    for (let i = 0; i < sends; i++) for (let s = 0; s < 5; s++) await query('select 1');
    return (performance.now() - started) / sends;
  };
  const statements: number[] = [];
  for (let r = 0; r < 5; r++) statements.push((await run(target.query)) - (await run(bareQuery)));
  return { http: median(http), statements: median(statements) };
}

/**
 * A local OTLP/HTTP receiver that reads each export and answers an empty success, as a collector does;
 * it keeps nothing. Counts requests and bytes so the run shows the spans were sent.
 */
async function startOtlpReceiver() {
  const counts = { requests: 0, bytes: 0, unexpected: 0 };
  const receiver = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        counts.unexpected++;
        res.writeHead(404).end();
        return;
      }
      counts.requests++;
      counts.bytes += bytes;
      res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const { port } = receiver.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    counts,
    close: () => new Promise<void>((resolve) => receiver.close(() => resolve())),
  };
}

type Side = 'off' | 'metrics' | 'traced';

/**
 * 5. What metrics and traces cost: the same sends against this server (no METRICS_TOKEN, no traces), a twin
 * with METRICS_TOKEN, and a third with METRICS_TOKEN and traces exported over OTLP to a local receiver;
 * rounds rotate the order. Tracing is process-wide, so it is started for the traced side's cells only, and
 * the export of the spans left when it stops is counted in that cell's CPU.
 */
async function observabilityPart(): Promise<void> {
  const metricsToken = 'bench-metrics-token-0123456789';
  const receiver = await startOtlpReceiver();
  const tracingEnv = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url };
  const twinEnv = { SEND_RATE_PER_MINUTE: '1000000', METRICS_TOKEN: metricsToken };
  const metricsTwin = await startBenchServer(provider.url, twinEnv);
  // Built while tracing is on, so it registers its HTTP spans.
  let tracing = await startTracing({ env: tracingEnv });
  const tracedTwin = await startBenchServer(provider.url, twinEnv);
  await tracing?.close();
  try {
    const twinSide = async (twin: typeof metricsTwin) => ({
      url: twin.server.url,
      session: await consoleSession(twin.server.url, twin.vendor.key),
      open: () => makeConversation(twin.ctx, twin.app),
    });
    const sides = {
      off: { url: server.url, session, open: () => makeConversation(ctx, app) },
      metrics: await twinSide(metricsTwin),
      traced: await twinSide(tracedTwin),
    };
    const perCaller = Math.ceil(REPLIES / 2 / METRICS_CONCURRENCY);
    const sends = async (side: Side, round: number) => {
      const { url, session: signedIn, open } = sides[side];
      const pool: string[][] = [];
      for (let w = 0; w < METRICS_CONCURRENCY; w++) {
        const owned: string[] = [];
        for (let c = 0; c < Math.ceil(perCaller / CONVERSATION_LENGTH); c++) owned.push((await open()).token);
        pool.push(owned);
      }
      return load(
        METRICS_CONCURRENCY,
        (w, i) =>
          sendTo(
            url,
            signedIn,
            pool[w]![Math.floor(i / CONVERSATION_LENGTH)]!,
            `observed ${round} ${w}-${i}`,
          ),
        { perCaller },
      );
    };
    const cell = async (side: Side, round: number): Promise<Cell> => {
      if (side !== 'traced') return sends(side, round);
      tracing = await startTracing({ env: tracingEnv });
      const measured = await sends(side, round);
      const cpu = process.cpuUsage();
      await tracing?.close();
      const { user, system } = process.cpuUsage(cpu);
      return { ...measured, cpuMs: measured.cpuMs + (user + system) / 1000 / measured.calls };
    };
    await cell('metrics', -1); // the twins' warm-up
    await cell('traced', -1);
    const order: Side[] = ['off', 'metrics', 'traced'];
    const cells: Record<Side, Cell>[] = [];
    for (let round = 0; round < METRICS_ROUNDS; round++) {
      // Rotating which side goes first, so a drift in the machine's load falls on every side.
      const rotated = [...order.slice(round % 3), ...order.slice(0, round % 3)];
      const measured = {} as Record<Side, Cell>;
      for (const side of rotated) measured[side] = await cell(side, round);
      cells.push(measured);
    }
    const scraped = await fetch(`${metricsTwin.server.url}/metrics`, {
      headers: { authorization: `Bearer ${metricsToken}` },
    }).then((r) => r.text());
    const counted = [...scraped.matchAll(/^llmor_replies_total\{[^}]*\} (\d+)$/gm)].reduce(
      (sum, m) => sum + Number(m[1]),
      0,
    );
    const sent = cells.reduce((sum, c) => sum + c.metrics.calls, 0) + perCaller * METRICS_CONCURRENCY;
    const tracedReplies = cells.reduce((sum, c) => sum + c.traced.calls, 0) + perCaller * METRICS_CONCURRENCY;
    const ratio = (side: Side, pick: (c: Cell) => number) =>
      median(cells.map((c) => pick(c[side]) / pick(c.off)));
    const pct = (r: number) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)} %`;
    console.log(
      `\nMetrics and traces: console sends at ${METRICS_CONCURRENCY} concurrent, ${METRICS_ROUNDS} rotating rounds of ${perCaller * METRICS_CONCURRENCY} replies per side\n`,
    );
    printTable([
      [
        '',
        'off: CPU ms / reply',
        'metrics',
        'metrics + traces',
        'off: p50 ms',
        'metrics',
        'metrics + traces',
        'errors',
      ],
      ...cells.map((c, i) => [
        `round ${i + 1}`,
        ...order.map((side) => c[side].cpuMs.toFixed(2)),
        ...order.map((side) => fmt(c[side].p50)),
        String(order.reduce((sum, side) => sum + c[side].errors, 0)),
      ]),
    ]);
    console.log('');
    printTable([
      ["against off (median of the rounds' ratios)", 'CPU per reply', 'p50', 'goal'],
      [
        'metrics on, traces off',
        pct(ratio('metrics', (c) => c.cpuMs)),
        pct(ratio('metrics', (c) => c.p50)),
        '< 3 %',
      ],
      [
        'metrics and traces on',
        pct(ratio('traced', (c) => c.cpuMs)),
        pct(ratio('traced', (c) => c.p50)),
        '< 10 %',
      ],
    ]);
    console.log(
      `\nThe scrape counted ${counted} of ${sent} replies (${scraped.length.toLocaleString('en-US')} bytes); ` +
        `the receiver took ${receiver.counts.requests} exports, ${(receiver.counts.bytes / tracedReplies).toFixed(0)} bytes per traced reply` +
        (receiver.counts.unexpected ? `, and refused ${receiver.counts.unexpected} requests` : ''),
    );
    const recording = await engineRecordingMs();
    const cpuOff = median(cells.map((c) => c.off.cpuMs));
    console.log(
      `The engine's recording alone: ${(recording * 1000).toFixed(1)} µs per reply (20 chunks), ` +
        `${((recording / cpuOff) * 100).toFixed(2)} % of a send's CPU with metrics off (${cpuOff.toFixed(2)} ms)`,
    );
    const metricsAlone = await metricsRecordingMs();
    const perSend = recording + metricsAlone.http + metricsAlone.statements;
    console.log(
      `METRICS_TOKEN's recording alone: the HTTP request ${(metricsAlone.http * 1000).toFixed(1)} µs, five statements ` +
        `${(metricsAlone.statements * 1000).toFixed(1)} µs; with the engine's, ${((perSend / cpuOff) * 100).toFixed(2)} % of a send's CPU (goal < 3 %)`,
    );
  } finally {
    await metricsTwin.server.close();
    await tracedTwin.server.close();
    await receiver.close();
  }
}

try {
  const warm = await conversations(2);
  // Warm-up (JIT, the provider's client, prepared statements) for every part.
  for (let i = 0; i < WARM_UP; i++) {
    await direct(`warm-up ${i}`);
    await send(warm[Math.floor(i / CONVERSATION_LENGTH)]!, `warm-up ${i}`);
  }
  if (process.env.CONVERSATION_SQL_TRACE) {
    const [traced] = await conversations(1);
    queries.trace = new Map();
    const sends = 10;
    for (let i = 0; i < sends; i++) await send(traced!, `traced ${i}`);
    console.log(`SQL of a console send (mean of ${sends}): ms, statement`);
    for (const [text, { n, ms }] of queries.trace) {
      console.log(`  ${(ms / sends).toFixed(2)} ms${n === sends ? '' : ` (${n}×)`}  ${text}`);
    }
    queries.trace = null;
  }

  if (PARTS.has('overhead')) await overheadPart();
  if (PARTS.has('first-chunk')) await firstChunkPart();
  if (PARTS.has('realistic')) await realisticPart();
  if (PARTS.has('history')) await historyPart();
  if (PARTS.has('long-answer')) await longAnswerPart();
  if (PARTS.has('observability')) await observabilityPart();
  if (provider.counts.unexpected) {
    throw new Error(`the fake provider refused ${provider.counts.unexpected} requests`);
  }
} finally {
  await server.close();
  await provider.close();
}
