import type { DocumentSource, SearchHit } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import type { TraceContext } from '../../platform/tracing';
import type { ReplyEvent, ReplyReservation, SpendingPort } from '../conversations/ports';
import type { ConversationRow, MessageRow, NewMessage } from '../conversations/repo';
import type { InstalledFunctionRow } from '../functions/repo';
import type { ChatModel, ToolCall, ToolSpec } from '../models/providers/types';
import type { ContextMessage } from './input';
import type { ReplyMeter } from './meter';
import type { AppRow, FinalUsage, VendorModelRow } from './repo';

/** Turns an installed model into something that streams; default `chatModelFor` of the models module. */
export type ModelResolver = (ctx: AppContext, model: VendorModelRow) => ChatModel | Promise<ChatModel>;

/** What a tool execution sees: the conversation it runs in (for its state) and a way to talk to the room. */
export interface ToolContext {
  ctx: AppContext;
  app: AppRow;
  conversation: ConversationRow;
  signal: AbortSignal;
  /** The reply's trace: the tool's span goes under it. */
  trace?: TraceContext;
  /** A message of the script's own to the conversation's room (Lua `relay.emit`). */
  emit(type: string, data: unknown): void;
}

/** `status` follows the function-run codes of docs/reference/api.md "Functions": 1 success, negative failures. */
export interface ToolResult {
  result: unknown;
  status: number;
}

/**
 * Where an app's tools come from. The default (`tools.ts`) offers the app's installed functions and
 * runs them in the Lua sandbox; `noTools` offers none.
 */
export interface ToolProvider {
  /** `installed`: the app's installed functions as the reply's lease statement read them. */
  list(ctx: AppContext, app: AppRow, installed?: InstalledFunctionRow[]): Promise<ToolSpec[]>;
  execute(call: ToolCall, tool: ToolContext): Promise<ToolResult>;
}

export const noTools: ToolProvider = {
  list: async () => [],
  execute: async (call) => ({ result: { error: `Unknown function '${call.name}'` }, status: -1 }),
};

/** A passage retrieved from one of the app's datastores for a reply. */
export interface Passage {
  datastore: string;
  id: number;
  text: string;
  score: number;
  /** Where the document came from (file, page, headings, URL); null when it was not imported from a file. */
  source: DocumentSource | null;
}

/**
 * What replies know: the app's datastores (the datastores module's `ReplyKnowledge`, given to the engine in
 * start/context.ts). Each query embedding is a provider call of the reply, admitted and counted by its
 * `meter` (ADR 0021).
 */
export interface KnowledgePort {
  /** The best `k` passages for `query` across the named datastores of the app (all when `names` is null). */
  retrieve(query: KnowledgeQuery & { names: string[] | null; signal: AbortSignal }): Promise<Passage[]>;
  /** Hits of one datastore of the app by name (Lua `datastore.search`); null when it has none of that name. */
  search(query: KnowledgeQuery & { name: string }): Promise<SearchHit[] | null>;
}

/** A reply's question to the app's datastores: its query embedding is admitted and counted by `meter`. */
interface KnowledgeQuery {
  app: AppRow;
  query: string;
  k: number;
  meter: ReplyMeter;
  trace: TraceContext;
}

const DATASTORES_UNAVAILABLE_TEXT = 'Datastores are not available in this server';

export const noKnowledge: KnowledgePort = {
  retrieve: async () => [],
  search: async () => {
    throw new Error(DATASTORES_UNAVAILABLE_TEXT);
  },
};

/** The engine's replaceable parts a responder calls (`CompletionEngine` holds them). */
export interface EngineSeams {
  readonly resolveModel: ModelResolver;
  readonly tools: ToolProvider;
  readonly knowledge: KnowledgePort;
  /** Where a reply's provider calls and tokens count against the vendor's plan (billing, wired by the server). */
  readonly spending: Pick<SpendingPort, 'reserveCall' | 'recordTokens' | 'refusedReply'>;
}

/** One user message being answered. Responders store what they produce and stream through `emit`. */
export interface Turn {
  ctx: AppContext;
  engine: EngineSeams;
  app: AppRow;
  conversation: ConversationRow;
  /** The newest stored messages within the context window (input.ts), oldest first, the new user message last. */
  history: ContextMessage[];
  userMessage: MessageRow;
  /** The app's installed functions, read with the lease (the default tools). */
  installed?: InstalledFunctionRow[];
  /** `ReplyRequest.model`: the app's completion model when the request read it with the app. */
  model?: VendorModelRow;
  /** The request the reply was counted as, if it was sent through `startReply`. */
  reservation?: ReplyReservation;
  /** The caller's instructions for this reply (`withInstructions` places them after the app's prompt). */
  instructions?: string | undefined;
  /** Admits each provider call of the reply and counts its tokens (ADR 0021). */
  meter: ReplyMeter;
  /** The reply's tokens so far, across its model requests (the reply's outcome reports them). */
  usage: { promptTokens: number; completionTokens: number };
  signal: AbortSignal;
  /** The reply's span context: provider calls, tool runs and searches go under it (tracing on). */
  trace: TraceContext;
  /** Tells the reply's sinks (its conversation's room first) what the reply does. */
  emit(event: ReplyEvent): void;
  /** Merges into the debug data the console shows (a `debug` event). */
  debug(data: Record<string, unknown>): void;
  /** A script's own message to the room (a `custom` event; what a tool's `emit` sends). */
  custom(type: string, data: unknown): void;
  store(message: NewMessage): Promise<MessageRow>;
  /**
   * The reply's last message and its last model request's usage: stored when the responder returns, in
   * one statement with the lease's release (`finishReply`). A responder calls it last, at most once.
   */
  conclude(message: NewMessage, usage?: FinalUsage): void;
}

/** Answers a turn for one app type (a strategy per type: chat, oneshot, silicon). */
export type Responder = (turn: Turn) => Promise<void>;

/** A failure whose message is written for the console user, stored as an error-role message as-is. */
export class ReplyError extends Error {
  override name = 'ReplyError';
}
