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
 * The load generator, the fake provider and the server share the process and the machine's cores, so
 * the absolute figures are a floor; the overhead (llmor minus direct, per reply) is what to read.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, getClient } from '@llmor/server/modules/clients/service';
import { findVendorModel } from '@llmor/server/modules/completion/repo';
import { makeChatApp, makeConversation } from '@llmor/server/modules/completion/testing';
import { installModel } from '@llmor/server/modules/models/service';
import { loadConfig } from '@llmor/server/platform/config';
import { schema } from '@llmor/server/platform/db/index';
import { startServer } from '@llmor/server/server';

const SECONDS = Number(process.env.REACH_SECONDS ?? 4);
const CONCURRENCY = [1, 8, 32];
const WARM_UP_CALLS = 20;
const REPLY = ['Hello ', 'from ', 'the ', 'fake ', 'provider.'];

/** An OpenAI chat completions server that answers every request at once, streamed like OpenAI. */
async function startFakeProvider(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(500).end('unexpected request');
        return;
      }
      const { stream, stream_options } = JSON.parse(body) as {
        stream?: boolean;
        stream_options?: { include_usage?: boolean };
      };
      const base = { id: 'chatcmpl-fake', created: 0, model: 'fake' };
      const usage = { prompt_tokens: 12, completion_tokens: REPLY.length, total_tokens: 12 + REPLY.length };
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            ...base,
            object: 'chat.completion',
            choices: [
              { index: 0, message: { role: 'assistant', content: REPLY.join('') }, finish_reason: 'stop' },
            ],
            usage,
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      let out = chunk({ role: 'assistant', content: '' }, null);
      for (const piece of REPLY) out += chunk({ content: piece }, null);
      out += chunk({}, 'stop');
      if (stream_options?.include_usage) {
        out += `data: ${JSON.stringify({ ...base, object: 'chat.completion.chunk', choices: [], usage })}\n\n`;
      }
      res.end(`${out}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

interface Cell {
  calls: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : Number.NaN;

/** `callers` closed loops, each calling `call(worker)` back to back for SECONDS. */
async function load(callers: number, call: (worker: number) => Promise<boolean>): Promise<Cell> {
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: callers }, async (_, worker) => {
      while (performance.now() < deadline) {
        const t0 = performance.now();
        const ok = await call(worker).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    calls: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

/** One HTTP call (fetch, keep-alive) read to its end; true on the expected status. */
async function call(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  status = 200,
): Promise<boolean> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  await res.text();
  return res.status === status;
}

const provider = await startFakeProvider();
const server = await startServer(
  loadConfig({ DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'warn', SEED_ADMIN_PASSWORD: 'bench-password' }),
);
try {
  const { ctx } = server;
  const [vendor] = await ctx.db.select().from(schema.vendors).limit(1);
  const [admin] = await ctx.db.select().from(schema.users).limit(1);
  const model = await installModel(ctx, vendor!, admin!.id, 'openai-compatible-chat', {
    base_url: provider.url,
    model: 'fake',
    api_key: 'sk-bench',
  });
  const app = await makeChatApp(ctx, vendor!, { model: await findVendorModel(ctx.db, vendor!.id, model.id) });
  const client = await createClient(ctx, vendor!.id, app.id, admin!.id, {
    name: 'bench',
    active: true,
    request_rate_limit: null,
    request_rate_interval: null,
  });
  const token = client.full_token;
  const question = { role: 'user', content: 'Hello, how are you?' };

  // One conversation per caller for X-VendorToken sends (a conversation answers one message at a time).
  const clientHeaders = { 'x-vendortoken': token, 'x-vendor': vendor!.key };
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
      call(
        `${provider.url}/chat/completions`,
        { authorization: 'Bearer sk-bench' },
        {
          model: 'fake',
          messages: [question],
          stream: true,
          stream_options: { include_usage: true },
        },
      ),
    'POST /v1/openai/chat/completions': () =>
      call(
        `${server.url}/v1/openai/chat/completions`,
        { authorization: `Bearer ${token}` },
        {
          model: 'app',
          messages: [question],
        },
      ),
    'POST /v1/conversations/{token} (X-VendorToken)': (worker) =>
      call(`${server.url}/v1/conversations/${conversations[worker]}`, clientHeaders, {
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
    for (const n of CONCURRENCY) results[name][n] = await load(n, run);
  }

  const fmt = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
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
  const counted = (await getClient(ctx, vendor!.id, app.id, client.id)).requets_count;
  console.log(`\ncalls made with the client's token: ${made}; counted on the client: ${counted}`);
} finally {
  await server.close();
  await provider.close();
}
