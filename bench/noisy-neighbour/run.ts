/**
 * Noisy-neighbour benchmark: npx tsx bench/noisy-neighbour/run.ts
 *   NOISY_SECONDS     length of each timed phase (default 10)
 *   NOISY_REPLIES     concurrent looping silicon replies of the noisy vendor (default 4)
 *   NOISY_MODEL_MS    how long the slow fake model takes to finish each answer (default 2000)
 *
 * On the embedded default (PGlite in memory, every role in one process), in one run
 * (docs/adr/0021-limits-inside-a-reply-and-fair-pool.md): a quiet vendor's function build (the editor's
 * Run, through the functions service: queueing for the Lua pool, the run, storing it) timed back to back,
 * first with the server idle (the baseline), then while a noisy vendor keeps the pool saturated, then idle
 * again (how much the baseline drifts within the run) — NOISY_REPLIES
 * conversations each answering message after message with a silicon script that loops on `llm.complete`
 * against an OpenAI-compatible model pointing at a fake provider that takes NOISY_MODEL_MS per answer.
 * Goal: the quiet vendor's p99 under the noise ≤ 2× its idle p99.
 */

import { findVendorModel } from '@llmor/server/modules/completion/repo';
import { makeChatApp, makeConversation } from '@llmor/server/modules/completion/testing';
import { siliconPool } from '@llmor/server/modules/functions/sandbox';
import { buildFunction } from '@llmor/server/modules/functions/service';
import { makeFunction, makeVendor } from '@llmor/server/test/harness';
import { startFakeProvider } from '../lib/fake-provider';
import { startBenchServer } from '../lib/llmor';
import { type Cell, fmt, load, printTable } from '../lib/load';

const SECONDS = Number(process.env.NOISY_SECONDS ?? 10);
const NOISY_REPLIES = Number(process.env.NOISY_REPLIES ?? 4);
const MODEL_MS = Number(process.env.NOISY_MODEL_MS ?? 2000);
const WARM_UP = 200;
const NOISY_SCRIPT = 'function on_message(ctx) while true do llm.complete("x") end end';
const BUILD_CODE = 'function run(args) local s = 0 for i = 1, 1000 do s = s + i end return s end';

const provider = await startFakeProvider();
const { server, ctx, vendor: noisy, app: chatbot } = await startBenchServer(provider.url);
const model = await findVendorModel(ctx.db, noisy.id, chatbot.completionVendorModelId!);
const silicon = await makeChatApp(ctx, noisy, {
  type: 'silicon',
  parameters: { silicon: NOISY_SCRIPT },
  model,
});

const quiet = await makeVendor(ctx);
const fn = await makeFunction(ctx, quiet);
await siliconPool().ready();

async function build(): Promise<boolean> {
  const r = await buildFunction(ctx, quiet.id, fn.id, { code: BUILD_CODE });
  return r.data.status === 1;
}

const timeBuilds = (): Promise<Cell> => load(1, build, { seconds: SECONDS });

await load(1, build, { perCaller: WARM_UP });
const idle = await timeBuilds();

// The noisy vendor: each conversation answers one message after another, every reply looping on the
// slow model until the reply's limits stop it.
provider.pauseAfterFirstMs = MODEL_MS;
let stopping = false;
let noisyReplies = 0;
const loops = Array.from({ length: NOISY_REPLIES }, async () => {
  const conversation = await makeConversation(ctx, silicon);
  while (!stopping) {
    await ctx.completion.start(ctx, { app: silicon, conversation, content: 'again' });
    noisyReplies += 1;
  }
});
// Saturated: the noisy vendor's runs hold what they may of the pool and the rest of them wait.
while (siliconPool().stats().queued < NOISY_REPLIES - 1) await new Promise((r) => setTimeout(r, 10));
const saturated = siliconPool().stats();
const answeredBefore = provider.counts.answered;
const noisyCell = await timeBuilds();
const modelCalls = provider.counts.answered - answeredBefore;

stopping = true;
await ctx.completion.close();
await Promise.all(loops);
const idleAgain = await timeBuilds();
await server.close();
await provider.close();

console.log(
  `\nA quiet vendor's function build back to back for ${SECONDS} s per phase, idle and while a noisy vendor's ${NOISY_REPLIES} silicon replies loop on a ${MODEL_MS} ms model\n`,
);
printTable([
  ['phase', 'builds', 'builds/s', 'p50 ms', 'p99 ms', 'errors'],
  ...(
    [
      ['idle (baseline)', idle],
      ['noisy neighbour', noisyCell],
      ['idle again', idleAgain],
    ] as const
  ).map(([name, c]) => [name, String(c.calls), fmt(c.rps), fmt(c.p50), fmt(c.p99), String(c.errors)]),
]);
console.log('');
printTable([
  ['measure', 'value', 'goal'],
  ['p99 noisy / idle', `${(noisyCell.p99 / idle.p99).toFixed(2)}×`, '≤ 2×'],
  ['p50 noisy / idle', `${(noisyCell.p50 / idle.p50).toFixed(2)}×`, ''],
]);
console.log(
  `\nPool when the noisy phase began: ${saturated.busy} of ${saturated.size} workers busy, ${saturated.queued} runs waiting; the noisy vendor's model calls during it: ${modelCalls}; noisy replies finished in all: ${noisyReplies}`,
);
