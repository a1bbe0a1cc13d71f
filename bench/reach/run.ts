/**
 * Reach benchmark: npx tsx bench/reach/run.ts   (REACH_SECONDS sets the seconds per cell, 4 by default)
 *
 * llmor's overhead per reply for outside callers, in one run on the embedded default (PGlite in memory,
 * every role in one process): a local fake OpenAI provider that answers at once (a streamed reply of a
 * few chunks with usage) stands behind a chatbot app. At 1, 8 and 32 concurrent callers, each a closed
 * loop for a fixed time, it measures requests/s and p50/p99 latency of
 *   - the provider called directly (the baseline: the same streamed request llmor makes),
 *   - `POST /v1/openai/chat/completions` (stateless: every call stores a new api conversation),
 *   - `POST /v1/conversations/{token}` with `X-VendorToken` + `X-Vendor` (one conversation per caller),
 *   - the completion engine alone (`completion.start`, no HTTP, no caller check), which splits the
 *     overhead into the engine's share (store, context, provider stream, usage, answer) and the request's.
 * Then a long answer: CPU per call of a streamed `POST /v1/openai/chat/completions` (`stream: true`, read to
 * `[DONE]`) and of the provider called directly, with answers of 5 and of 500 chunks at one caller; llmor's
 * CPU per streamed chunk is the difference of the differences over the extra chunks (goal ≤ 0.1 ms).
 * Last, the first token with a realistic provider (first chunk after 300 ms, then 20 chunks 20 ms apart):
 * 32 OpenAI SDK streams at once through `POST /v1/openai/chat/completions`, against the same SDK reading the
 * provider directly; the overhead is the difference (goal p50 ≤ 2 ms, p99 ≤ 10 ms).
 * The load generator, the fake provider and the server share the process and the machine's cores, so
 * the absolute figures are a floor; the overhead (llmor minus direct, per reply) is what to read.
 */

import { createClient, getClient } from '@llmor/server/modules/clients/service';
import { makeConversation } from '@llmor/server/modules/completion/testing';
import OpenAI from 'openai';
import { directStreamBody, FAKE_REPLY, LONG_REPLY_CHUNKS, startFakeProvider } from '../lib/fake-provider';
import { startBenchServer } from '../lib/llmor';
import { type Cell, fmt, load, percentile, postJson } from '../lib/load';

const SECONDS = Number(process.env.REACH_SECONDS ?? 4);
const CONCURRENCY = [1, 8, 32];
const WARM_UP_CALLS = 20;
const LONG_ANSWER_CALLS = 60;
/** A realistic model's pace, as in bench/conversation: the first token after 300 ms, then 20 chunks 20 ms apart. */
const REALISTIC_PACING = { firstMs: 300, chunkMs: 20 };
const REALISTIC_CHUNKS = 21;
const REALISTIC_CALLERS = 32;
const REALISTIC_CALLS = 10;

/**
 * `REALISTIC_CALLERS` OpenAI SDK streams at once (after 3 warm-up calls each), each read to its end: how long
 * after the provider wrote its first SSE byte the SDK yielded the first text, sorted.
 */
async function sdkFirstTokens(
  provider: Awaited<ReturnType<typeof startFakeProvider>>,
  sdk: OpenAI,
  model: string,
  label: string,
): Promise<number[]> {
  const latencies: number[] = [];
  await load(
    REALISTIC_CALLERS,
    async (w, i) => {
      const content = `${label} ${w}-${i}`;
      const stream = await sdk.chat.completions.create({
        model,
        messages: [{ role: 'user', content }],
        stream: true,
      });
      let at: number | undefined;
      for await (const part of stream) {
        if (at === undefined && part.choices[0]?.delta?.content) at = performance.now();
      }
      const sent = provider.firstByteAt.get(content);
      if (at === undefined || sent === undefined) return false;
      if (i >= 3) latencies.push(at - sent);
      return true;
    },
    { perCaller: REALISTIC_CALLS + 3 },
  );
  return latencies.sort((a, b) => a - b);
}

const provider = await startFakeProvider();
const { server, ctx, vendor, admin, app } = await startBenchServer(provider.url);
try {
  const client = await createClient(ctx, vendor.id, app.id, admin.id, {
    name: 'bench',
    active: true,
    request_rate_limit: null,
    request_rate_interval: null,
  });
  const token = client.full_token;
  const question = { role: 'user', content: 'Hello, how are you?' };

  // One conversation per caller for X-VendorToken sends (a conversation answers one message at a time).
  const clientHeaders = { 'x-vendortoken': token, 'x-vendor': vendor.key };
  const conversations: string[] = [];
  for (let i = 0; i < Math.max(...CONCURRENCY); i++) {
    const res = await fetch(`${server.url}/v1/conversations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...clientHeaders },
      body: JSON.stringify({ vendor_app_id: app.id, vendor_channel: 'api' }),
    });
    conversations.push(((await res.json()) as { data: { token: string } }).data.token);
  }
  const engineConversations: Awaited<ReturnType<typeof makeConversation>>[] = [];
  for (let i = 0; i < Math.max(...CONCURRENCY); i++) {
    engineConversations.push(await makeConversation(ctx, app));
  }

  const modes: Record<string, (worker: number) => Promise<boolean>> = {
    'provider directly (streamed)': () =>
      postJson(
        `${provider.url}/chat/completions`,
        { authorization: 'Bearer sk-bench' },
        directStreamBody(question.content),
      ),
    'POST /v1/openai/chat/completions': () =>
      postJson(
        `${server.url}/v1/openai/chat/completions`,
        { authorization: `Bearer ${token}` },
        {
          model: 'app',
          messages: [question],
        },
      ),
    'POST /v1/conversations/{token} (X-VendorToken)': (worker) =>
      postJson(`${server.url}/v1/conversations/${conversations[worker]}`, clientHeaders, {
        content: question.content,
      }),
    'completion engine alone (no HTTP)': async (worker) => {
      const conversation = engineConversations[worker]!;
      await ctx.completion.start(ctx, { app, conversation, content: question.content });
      return true;
    },
  };

  // Warm-up: JIT, connection pools, prepared statements.
  for (const run of Object.values(modes)) for (let i = 0; i < WARM_UP_CALLS; i++) await run(0);

  const results: Record<string, Record<number, Cell>> = {};
  for (const [name, run] of Object.entries(modes)) {
    results[name] = {};
    for (const n of CONCURRENCY) results[name][n] = await load(n, run, { seconds: SECONDS });
  }

  console.log(`| caller | concurrent | requests/s | p50 ms | p99 ms | errors |`);
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const [name, cells] of Object.entries(results)) {
    for (const n of CONCURRENCY) {
      const c = cells[n]!;
      console.log(`| ${name} | ${n} | ${fmt(c.rps)} | ${fmt(c.p50)} | ${fmt(c.p99)} | ${c.errors} |`);
    }
  }
  const direct = results['provider directly (streamed)']!;
  console.log('\n| llmor overhead per reply (p50 minus direct p50) | 1 | 8 | 32 |');
  console.log('| --- | --- | --- | --- |');
  for (const name of Object.keys(modes).slice(1)) {
    const cells = CONCURRENCY.map((n) => `${fmt(results[name]![n]!.p50 - direct[n]!.p50)} ms`);
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
  // Calls made with the client's token: the conversations opened, the warm-up and the two client modes.
  const made =
    conversations.length +
    ['POST /v1/openai/chat/completions', 'POST /v1/conversations/{token} (X-VendorToken)']
      .map((name) => WARM_UP_CALLS + CONCURRENCY.reduce((sum, n) => sum + results[name]![n]!.calls, 0))
      .reduce((a, b) => a + b, 0);
  const counted = (await getClient(ctx, vendor.id, app.id, client.id)).requets_count;
  console.log(`\ncalls made with the client's token: ${made}; counted on the client: ${counted}`);

  // Long answer: the SDK stream's CPU per chunk.
  const streamed = () =>
    postJson(
      `${server.url}/v1/openai/chat/completions`,
      { authorization: `Bearer ${token}` },
      { model: 'app', messages: [question], stream: true },
    );
  const long: Record<number, { direct: Cell; streamed: Cell }> = {};
  for (const chunks of [FAKE_REPLY.length, LONG_REPLY_CHUNKS]) {
    provider.chunks = chunks;
    long[chunks] = {
      direct: await load(1, modes['provider directly (streamed)']!, { perCaller: LONG_ANSWER_CALLS }),
      streamed: await load(1, streamed, { perCaller: LONG_ANSWER_CALLS }),
    };
  }
  provider.chunks = FAKE_REPLY.length;
  const overhead = (chunks: number) => long[chunks]!.streamed.cpuMs - long[chunks]!.direct.cpuMs;
  console.log(
    `\n| answer (1 caller, ${LONG_ANSWER_CALLS} calls) | direct CPU ms | streamed OpenAI-compatible CPU ms | llmor CPU ms / call | errors |`,
  );
  console.log('| --- | --- | --- | --- | --- |');
  for (const chunks of [FAKE_REPLY.length, LONG_REPLY_CHUNKS]) {
    const c = long[chunks]!;
    console.log(
      `| ${chunks} chunks | ${c.direct.cpuMs.toFixed(2)} | ${c.streamed.cpuMs.toFixed(2)} | ${overhead(chunks).toFixed(2)} | ${c.streamed.errors} |`,
    );
  }
  const perChunk =
    (overhead(LONG_REPLY_CHUNKS) - overhead(FAKE_REPLY.length)) / (LONG_REPLY_CHUNKS - FAKE_REPLY.length);
  console.log(`\nllmor CPU per streamed chunk (SDK stream): ${perChunk.toFixed(3)} ms (goal ≤ 0.1 ms)`);

  provider.pacing = REALISTIC_PACING;
  provider.chunks = REALISTIC_CHUNKS;
  const directFirst = await sdkFirstTokens(
    provider,
    new OpenAI({ apiKey: 'sk-bench', baseURL: provider.url, maxRetries: 0 }),
    'fake',
    'realistic direct',
  );
  const llmorFirst = await sdkFirstTokens(
    provider,
    new OpenAI({ apiKey: token, baseURL: `${server.url}/v1/openai`, maxRetries: 0 }),
    'app',
    'realistic',
  );
  provider.pacing = null;
  provider.chunks = FAKE_REPLY.length;
  const at = (sorted: number[], p: number) => fmt(percentile(sorted, p));
  console.log(
    `\n| first token, realistic provider, ${REALISTIC_CALLERS} OpenAI SDK streams at once | p50 ms | p99 ms | goal (overhead) |`,
  );
  console.log('| --- | --- | --- | --- |');
  console.log(`| provider directly (baseline) | ${at(directFirst, 50)} | ${at(directFirst, 99)} | |`);
  console.log(`| \`POST /v1/openai/chat/completions\` | ${at(llmorFirst, 50)} | ${at(llmorFirst, 99)} | |`);
  console.log(
    `| overhead | ${fmt(percentile(llmorFirst, 50) - percentile(directFirst, 50))} | ${fmt(percentile(llmorFirst, 99) - percentile(directFirst, 99))} | ≤ 2 / ≤ 10 ms |`,
  );
} finally {
  await server.close();
  await provider.close();
}
