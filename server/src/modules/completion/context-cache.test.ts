import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import { createMetrics, type Metrics } from '../../platform/metrics';
import { createTestServer, makeVendor, type TestServer } from '../../test/harness';
import type { ConversationRow } from '../conversations/repo';
import { listMessages } from '../conversations/repo';
import type { VendorRow } from '../vendors/repo';
import { ContextCache } from './context-cache';
import { CompletionEngine } from './engine';
import { chatInput, contextWindow, HISTORY_MAX_MESSAGES } from './input';
import type { AppRow } from './repo';
import {
  call,
  FakeTools,
  finish,
  makeChatApp,
  makeConversation,
  makeVendorModel,
  ScriptedModel,
  type Step,
  text,
} from './testing';

/**
 * The reply's context kept between replies (docs/adr/0050-reply-context-kept-between-replies.md): what the
 * model is given stays the conversation's newest window as the database holds it, whatever the process kept.
 */
let server: TestServer;
let vendor: VendorRow;
let app: AppRow;

beforeAll(async () => {
  server = await createTestServer();
  vendor = await makeVendor(server.ctx);
  app = await makeChatApp(server.ctx, vendor, {
    parameters: { system_prompt: 'Be brief.' },
    model: await makeVendorModel(server.ctx, vendor),
  });
});
afterAll(() => server?.close());

/** An engine of its own (as another process has), its figures in its own registry. */
function engine(turns: Step[][]) {
  const registry = createMetrics();
  const model = new ScriptedModel(turns);
  const made = new CompletionEngine({
    relay: server.ctx.relay,
    metrics: registry,
    resolveModel: () => model,
    tools: new FakeTools(
      [{ name: 'lookup', description: 'Looks up', parameters: { type: 'object' } }],
      () => ({ result: { found: true }, status: 1 }),
    ),
  });
  return { engine: made, model, kept: () => contextsByKept(registry) };
}

async function contextsByKept(registry: Metrics): Promise<Record<string, number>> {
  const metric = await registry.getSingleMetric('llmor_reply_contexts_total')?.get();
  return Object.fromEntries((metric?.values ?? []).map((v) => [v.labels.kept, v.value]));
}

/** A conversation of `count` stored messages, with answered tool calls among them. */
async function longConversation(count: number): Promise<ConversationRow> {
  const conversation = await makeConversation(server.ctx, app);
  await server.ctx.db.insert(schema.messages).values(
    Array.from({ length: count }, (_, i) => {
      const base = { vendorId: vendor.id, conversationId: conversation.id };
      if (i % 10 === 3)
        return {
          ...base,
          role: 'assistant',
          creator: 'system',
          message: '',
          functionCalls: [{ id: `old${i}`, name: 'lookup', arguments: { n: i, deep: { list: [1, 'two'] } } }],
        };
      if (i % 10 === 4)
        return {
          ...base,
          role: 'tool',
          creator: 'system',
          message: `{"n":${i}}`,
          functionResponse: `old${i - 1}`,
        };
      return {
        ...base,
        role: i % 2 ? 'assistant' : 'user',
        creator: i % 2 ? 'system' : 'user',
        message: `stored message ${i}`,
      };
    }),
  );
  return conversation;
}

/** What the model must be given for the user's message `postedId`: the newest window the database holds. */
async function promptFromDatabase(conversation: ConversationRow, postedId: number) {
  const all = await listMessages(server.ctx.db, vendor.id, conversation.id);
  const upTo = all.filter((m) => m.id <= postedId).slice(-HISTORY_MAX_MESSAGES);
  return chatInput(app.parameters, contextWindow(upTo));
}

type Made = ReturnType<typeof engine>;

/** A send through `made`; its first model request's messages and what the database says they must be. */
async function send(made: Made, conversation: ConversationRow, content: string) {
  const first = made.model.requests.length;
  const outcome = await made.engine.start(server.ctx, { app, conversation, content });
  expect(outcome.error).toBeNull();
  return {
    given: made.model.requests[first]!.messages,
    expected: await promptFromDatabase(conversation, outcome.messages[0]!.id),
  };
}

const answer = (t: string): Step[] => [text(t), finish()];
const toolRound: Step[] = [call('c-new', 'lookup', { q: 1 }), finish(undefined, 'tool_calls')];

describe('the reply context kept between replies', () => {
  it('gives the model the newest window of a long conversation on every send, reading only the new rows after the first', async () => {
    const conversation = await longConversation(500);
    const made = engine([
      answer('One.'),
      toolRound,
      answer('Two, after a tool.'),
      answer('Three.'),
      answer('Four.'),
    ]);
    for (const content of ['First?', 'Second?', 'Third?', 'Fourth?']) {
      const { given, expected } = await send(made, conversation, content);
      expect(given).toEqual(expected);
      expect(given.at(-1)).toEqual({ role: 'user', content });
    }
    // The first send read the window; the others only what followed the context kept.
    expect(await made.kept()).toEqual({ none: 1, used: 3 });
  });

  it('reads the whole window again when a message was committed late inside the kept range', async () => {
    const conversation = await longConversation(300);
    // An id taken now and its message committed after the next send, as a slow writer's would be.
    const result = await server.ctx.db.execute(
      sql`select nextval(pg_get_serial_sequence('messages', 'id'))::integer as id`,
    );
    const lateId = (result as unknown as { rows: { id: number }[] }).rows[0]!.id;
    const made = engine([answer('One.'), answer('Two.'), answer('Three.')]);
    expect((await send(made, conversation, 'First?')).given.at(-2)).toEqual({
      role: 'assistant',
      content: 'stored message 299',
    });
    await server.ctx.db.insert(schema.messages).values({
      id: lateId,
      vendorId: vendor.id,
      conversationId: conversation.id,
      role: 'assistant',
      creator: 'system',
      message: 'committed late',
    });

    const { given, expected } = await send(made, conversation, 'Second?');
    expect(given).toEqual(expected);
    expect(given.map((m) => m.content)).toContain('committed late');
    expect(await made.kept()).toEqual({ none: 1, stale: 1 });
    // Kept again from the window read: the next send reads only what followed.
    const third = await send(made, conversation, 'Third?');
    expect(third.given).toEqual(third.expected);
    expect(await made.kept()).toEqual({ none: 1, stale: 1, used: 1 });
  });

  it('gives complete prompts when two processes alternate sends on one conversation', async () => {
    const conversation = await longConversation(250);
    const a = engine([answer('A1'), toolRound, answer('A2'), answer('A3')]);
    const b = engine([answer('B1'), answer('B2'), toolRound, answer('B3')]);
    for (const [made, content] of [
      [a, 'to A 1'],
      [b, 'to B 1'],
      [a, 'to A 2'],
      [b, 'to B 2'],
      [a, 'to A 3'],
      [b, 'to B 3'],
    ] as const) {
      const { given, expected } = await send(made, conversation, content);
      expect(given, content).toEqual(expected);
    }
    // Each read what the other stored after the context it kept, and nothing more.
    expect(await a.kept()).toEqual({ none: 1, used: 2 });
    expect(await b.kept()).toEqual({ none: 1, used: 2 });
  });
});

describe('ContextCache', () => {
  const message = (id: number, chars: number) => ({
    id,
    role: 'user',
    message: 'x'.repeat(chars),
    functionCalls: [],
    functionResponse: null,
  });

  it('keeps the newest `history` messages, and evicts the least recently used past its byte bound', () => {
    const cache = new ContextCache(3, 8_000);
    const first = cache.window(1, 1, undefined, [message(1, 10), message(2, 10)], true);
    expect([first.from, first.through]).toEqual([0, 2]);
    cache.append(1, 1, first, [message(5, 10), message(6, 10)]);
    const kept = cache.get(1, 1)!;
    expect(kept.messages.map((m) => m.id)).toEqual([2, 5, 6]);
    expect([kept.from, kept.through]).toEqual([2, 6]);
    // Not after what it holds: dropped rather than guessed at.
    cache.append(1, 1, kept, [message(4, 10)]);
    expect(cache.get(1, 1)).toBeUndefined();

    // ~2 KB a message: two conversations of one message fit 8 KB; a third of two evicts the least recently
    // used (11: 10 was just read).
    for (const conversation of [10, 11]) cache.window(1, conversation, undefined, [message(1, 1000)], true);
    expect(cache.get(1, 10)).toBeDefined();
    cache.window(1, 12, undefined, [message(1, 1000), message(2, 1000)], true);
    expect([cache.get(1, 10), cache.get(1, 11), cache.get(1, 12)].map(Boolean)).toEqual([true, false, true]);
    // A context larger than the whole bound is not kept, and evicts nothing.
    cache.window(1, 13, undefined, [message(1, 3000), message(2, 3000)], true);
    expect([cache.get(1, 10), cache.get(1, 12), cache.get(1, 13)].map(Boolean)).toEqual([true, true, false]);
  });
});
