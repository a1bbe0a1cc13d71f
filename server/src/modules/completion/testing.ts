/**
 * Test support for the completion engine and conversations (imported by tests only): a scripted fake
 * ChatModel, a fake ToolProvider, a recording relay, and factories.
 */
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../platform/context';
import { randomToken } from '../../platform/crypto';
import { schema } from '../../platform/db';
import { RelayHub } from '../../platform/relay/hub';
import { makeApp } from '../../test/harness';
import { type ConversationRow, insertConversation } from '../conversations/repo';
import { chatModelFor } from '../models/providers/index';
import type {
  ChatModel,
  ChatRequest,
  ChatStreamEvent,
  ToolCall,
  ToolSpec,
  Usage,
} from '../models/providers/types';
import type { VendorRow } from '../vendors/repo';
import type { AppRow, VendorModelRow } from './repo';
import type { ModelResolver, ToolContext, ToolProvider, ToolResult } from './types';

/** Completion tests' model factory is the shared one. */
export { makeVendorModel } from '../../test/harness';

export type Step =
  | ChatStreamEvent
  | { type: 'delay'; ms: number }
  | { type: 'throw'; error: Error }
  /** Never yields again and ignores the abort signal: the engine must give up by itself. */
  | { type: 'hang' };

export const text = (t: string): ChatStreamEvent => ({ type: 'text', text: t });
export const call = (id: string, name: string, args: unknown = {}): ChatStreamEvent => ({
  type: 'tool_call',
  call: { id, name, arguments: args },
});
export const finish = (
  usage: Usage = { promptTokens: 10, completionTokens: 5 },
  reason: 'stop' | 'tool_calls' = 'stop',
): ChatStreamEvent => ({ type: 'finish', reason, usage });

/** A ChatModel that plays one scripted turn per request and records what it was asked. */
export class ScriptedModel implements ChatModel {
  readonly requests: Omit<ChatRequest, 'signal'>[] = [];

  constructor(private readonly turns: Step[][]) {}

  async *stream(request: ChatRequest): AsyncIterable<ChatStreamEvent> {
    const { signal: _signal, ...rest } = request;
    this.requests.push(structuredClone(rest));
    const turn = this.turns[this.requests.length - 1];
    if (!turn) throw new Error(`ScriptedModel: no turn ${this.requests.length} scripted`);
    for (const step of turn) {
      if (step.type === 'delay') await new Promise((r) => setTimeout(r, step.ms));
      else if (step.type === 'throw') throw step.error;
      else if (step.type === 'hang') await new Promise(() => {});
      else yield step;
    }
  }
}

/** Tools answered by a function per name; records the calls and the conversation each ran in. */
export class FakeTools implements ToolProvider {
  readonly calls: { call: ToolCall; conversationId: number }[] = [];

  constructor(
    private readonly specs: ToolSpec[],
    private readonly run: (call: ToolCall, tool: ToolContext) => Promise<ToolResult> | ToolResult,
  ) {}

  async list(): Promise<ToolSpec[]> {
    return this.specs;
  }

  async execute(call: ToolCall, tool: ToolContext): Promise<ToolResult> {
    this.calls.push({ call, conversationId: tool.conversation.id });
    return this.run(call, tool);
  }
}

export interface Recorded {
  token: string;
  type: string;
  data: unknown;
  opts: { except?: string; only?: string };
}

/** A relay that records what the engine and the conversation's state publish instead of sending it. */
export class RecordingRelay extends RelayHub {
  readonly events: Recorded[] = [];
  readonly states: { token: string; state: unknown }[] = [];

  override emit(
    token: string,
    type: string,
    data: unknown,
    opts: { except?: string; only?: string } = {},
  ): void {
    this.events.push({ token, type, data, opts });
  }

  override stateChanged(token: string, state: unknown): void {
    this.states.push({ token, state });
  }

  of(token: string): Recorded[] {
    return this.events.filter((e) => e.token === token);
  }

  /** Forgets what was recorded (a suite's server keeps its relay from test to test). */
  clear(): void {
    this.events.length = 0;
    this.states.length = 0;
  }
}

/**
 * The engine's models on a test server whose tests each choose theirs (`createTestServer({ engine:
 * { resolveModel: models.resolve } })`): the model or resolver last `use`d, else the installed model's
 * provider.
 */
export class ModelChoice {
  private chosen: ModelResolver | undefined;

  use(model?: ChatModel | ModelResolver): void {
    this.chosen = model === undefined || typeof model === 'function' ? model : () => model;
  }

  readonly resolve: ModelResolver = (ctx, row) => (this.chosen ?? chatModelFor)(ctx, row);
}

/** The engine's tools on a test server whose tests each choose theirs: the provider last `use`d. */
export class ToolChoice implements ToolProvider {
  constructor(private chosen: ToolProvider) {}

  use(tools: ToolProvider): void {
    this.chosen = tools;
  }

  list(...args: Parameters<ToolProvider['list']>): Promise<ToolSpec[]> {
    return this.chosen.list(...args);
  }

  execute(call: ToolCall, tool: ToolContext): Promise<ToolResult> {
    return this.chosen.execute(call, tool);
  }
}

/** An app of `type` answering with `model` (none: no completion model). */
export async function makeChatApp(
  ctx: AppContext,
  vendor: VendorRow,
  opts: { type?: string; parameters?: Record<string, unknown>; model?: VendorModelRow | null } = {},
): Promise<AppRow> {
  const app = await makeApp(ctx, vendor, {
    type: opts.type ?? 'chatbot',
    appKey: opts.type ?? 'chatbot',
    parameters: opts.parameters ?? {},
  });
  if (!opts.model) return app;
  const [row] = await ctx.db
    .update(schema.apps)
    .set({ completionVendorModelId: opts.model.id })
    .where(eq(schema.apps.id, app.id))
    .returning();
  return row!;
}

export async function makeConversation(
  ctx: AppContext,
  app: AppRow,
  opts: { parameters?: Record<string, unknown> } = {},
): Promise<ConversationRow> {
  return insertConversation(ctx.db, app.vendorId, {
    appId: app.id,
    token: randomToken(24),
    channel: 'management',
    parameters: opts.parameters ?? {},
    createdBy: null,
  });
}
