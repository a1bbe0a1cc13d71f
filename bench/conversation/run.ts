/**
 * Conversation benchmark: npx tsx bench/conversation/run.ts
 *
 * On the embedded default (PGlite in memory, the offline demo model with no delay, so only llmor's own
 * work is timed): the time of a reply through the completion engine (store the user's message, read the
 * context, stream, store the answer) in a fresh conversation, against the same in a conversation that
 * already holds 1,000 stored messages — in one run. Goal (issue 14): ≤ 1.5×.
 */

import { makeChatApp, makeConversation } from '@llmor/server/modules/completion/testing';
import { loadConfig } from '@llmor/server/platform/config';
import { schema } from '@llmor/server/platform/db/index';
import { startServer } from '@llmor/server/server';

const REPLIES = 40;
const HISTORY = 1_000;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

const server = await startServer(
  loadConfig({ DATA_DIR: 'memory://', PORT: '0', LOG_LEVEL: 'warn', SEED_ADMIN_PASSWORD: 'bench-password' }),
);
try {
  const { ctx } = server;
  const [vendor] = await ctx.db.select().from(schema.vendors).limit(1);
  const [model] = await ctx.db
    .insert(schema.vendorModels)
    .values({
      vendorId: vendor!.id,
      modelKey: 'builtin-offline-demo',
      name: 'Demo',
      type: 'chat_completion',
      provider: 'builtin',
    })
    .returning();
  const app = await makeChatApp(ctx, vendor!, { model: model! });

  /** Median reply time over REPLIES sends, after a few warm-up replies. */
  async function replyTimes(conversation: Awaited<ReturnType<typeof makeConversation>>): Promise<number> {
    const times: number[] = [];
    for (let i = 0; i < REPLIES + 5; i++) {
      const t0 = performance.now();
      await ctx.completion.start(ctx, { app, conversation, content: `Question number ${i}, please answer.` });
      if (i >= 5) times.push(performance.now() - t0);
    }
    return median(times);
  }

  const fresh = await replyTimes(await makeConversation(ctx, app));
  const long = await makeConversation(ctx, app);
  await ctx.db.insert(schema.messages).values(
    Array.from({ length: HISTORY }, (_, i) => ({
      vendorId: vendor!.id,
      conversationId: long.id,
      role: i % 2 ? 'assistant' : 'user',
      creator: i % 2 ? 'system' : 'user',
      message: `${i % 2 ? 'You said: an earlier question' : 'An earlier question'} ${i}. `.repeat(4),
    })),
  );
  const atHistory = await replyTimes(long);

  const rows = [
    ['measure', 'value', 'goal'],
    ['reply, fresh conversation (median, baseline)', `${fresh.toFixed(2)} ms`, ''],
    [`reply at ${HISTORY.toLocaleString('en')} stored messages (median)`, `${atHistory.toFixed(2)} ms`, ''],
    ['ratio', `${(atHistory / fresh).toFixed(2)}×`, '≤ 1.5×'],
  ];
  const [head, ...body] = rows;
  console.log(`| ${head!.join(' | ')} |`);
  console.log(`| ${head!.map(() => '---').join(' | ')} |`);
  for (const r of body) console.log(`| ${r.join(' | ')} |`);
} finally {
  await server.close();
}
