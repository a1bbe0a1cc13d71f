import type { AppContext } from '../../platform/context';
import type { AppRow, Identity, SessionPort } from '../../platform/http/identity';
import type { TraceContext } from '../../platform/tracing';
import type { PlanTerms, ReplyTerms } from '../billing/service';
import type { VendorModelRow } from '../models/repo';
import type { Caller, ClientCaller, EmbedCaller } from './access';
import type { ConversationRow, MessageRow } from './repo';

export type { AppRow };

/**
 * One reply, as the channel that received the user's message asks it of the engine (`replies.start`):
 * declared once, read from `startReply` to the responders. It is declared here, below the completion
 * module that answers it, because conversations may not import completion (docs/ARCHITECTURE.md).
 * An optional field is absent when it does not apply or is not known; no field uses null.
 */
export interface ReplyRequest {
  app: AppRow;
  conversation: ConversationRow;
  /** The user's message. */
  content: string;
  /** socket.id of the poster's relay connection (header X-Relay-Socket): it learns the input was its own. */
  posterSocket?: string;
  /** Also hear the reply's events, after its conversation's room (the OpenAI stream; docs/flows.md). */
  sinks?: readonly ReplySink[];
  /** Count the reply's request against these terms in its first write; its tokens count in that period (docs/adr/0046). */
  reserve?: ReplyTerms;
  /** The caller's own instructions for this reply only, read after the app's prompt (ADR 0024). */
  instructions?: string;
  /**
   * The app's completion model when the request read it with the app; absent, the responder reads it by
   * the app's `completionVendorModelId` (an app without one has none).
   */
  model?: VendorModelRow;
  /** The trace of the request that sent the message: the reply's span goes under it (tracing on). */
  trace?: TraceContext;
}

/**
 * What a reply did, as the engine answers it, so callers need not read it back (docs/adr/0026).
 */
export interface ReplyOutcome {
  /** What the send stored, oldest first: the user's message, then the reply's (assistant, tool, error). */
  messages: MessageRow[];
  /** The answer's text as it streamed: its assistant messages' text, joined. */
  text: string;
  /** The tokens of the reply's model requests. */
  usage: { promptTokens: number; completionTokens: number };
  /** The error message the reply stored when it failed, else null. */
  error: string | null;
  /** The conversation's state when the reply ended; undefined when it could not be read with the lease. */
  state?: unknown;
}

/**
 * What a reply says as it runs, in order, to each of its sinks (docs/flows.md): the engine's one event
 * type. Every reply begins with `started` and `user_input` and ends with `finished` then `ended`, whatever
 * happened; a failed reply's error is in its outcome. The relay sink (`relay-sink.ts`) is the only one that
 * knows the relay's message types.
 */
export type ReplyEvent =
  /** The reply began, before any model request. */
  | { kind: 'started' }
  /** The user's message as stored: the room hears it (the poster already has it). */
  | { kind: 'user_input'; message: MessageRow }
  /** A piece of the answer's text, as the model streams it. */
  | { kind: 'text'; chunk: string }
  /** A tool call of the model (or a silicon script's function call), before it runs. */
  | { kind: 'tool_call_begin'; id: string; name: string; arguments: unknown }
  /** The call's result; `status` 1 success, negative failures (docs/reference/api.md "Functions"). */
  | { kind: 'tool_call_end'; id: string; name: string; result: unknown; status: number }
  /** A round of tool calls is done: the model is asked again. */
  | { kind: 'iteration'; iteration: number }
  /** Debug data the console shows (model, tokens, passages, timings), merged into what it has. */
  | { kind: 'debug'; data: Record<string, unknown> }
  /** A script's own message (Lua `relay.emit(type, data)`): any type but the engine's. */
  | { kind: 'custom'; type: string; data: unknown }
  /** The reply's answer (or its error) is stored. */
  | { kind: 'finished' }
  /** Nothing more comes. */
  | { kind: 'ended' };

/** Hears every event of one reply, synchronously and in order; it runs inside the reply, so never throws. */
export interface ReplySink {
  event(event: ReplyEvent): void;
}

/**
 * What conversations need from modules above them, provided by the composition root
 * (`start/context.ts`): the apps they belong to and the engine that answers them. Conversations import
 * neither, so the module graph stays acyclic (completion and functions build on conversations, not the
 * other way round).
 */
export interface ConversationPorts {
  apps: {
    /** The greeting a new conversation opens with, in the caller's locale, or null. */
    greeting(app: AppRow, locale: string | undefined): string | null;
  };
  replies: {
    /**
     * Stores the user's message and answers it; resolves with what the reply did when it is stored. Throws
     * a conflict at once if a reply already runs in this conversation; rejects with the plan's refusal
     * (402), or a conflict if another instance's reply holds the lease, before anything is stored or sent.
     */
    start(ctx: AppContext, request: ReplyRequest): Promise<ReplyOutcome>;
    /** Stops every running reply (server shutdown). */
    close(): Promise<void>;
  };
  /** The vendor's plan, asked before every reply (`sendMessage`). */
  spending: SpendingPort;
  /** Verifies the console's session on relay sockets. */
  sessions: SessionPort;
  /** Who a relay socket speaks for, checked as the HTTP pipeline checks it (modules/clients wires it). */
  relayCallers: RelayCallerPort;
}

/**
 * Resolves a relay socket's credentials to a conversation caller on every `join`, so a revocation since
 * the handshake holds. Failures are AppErrors (their message reaches the socket as `state_err`).
 */
export interface RelayCallerPort {
  /** A signed-in console user acting in `vendorId`, or null when they may not (not a member, inactive). */
  user(identity: Identity, vendorId: number): Promise<Caller | null>;
  /** An API client by its token and its vendor's key (no request is counted against its rate limit). */
  client(token: string, vendorKey: string): Promise<ClientCaller>;
  /** A web embed by its token, from a page of `origin`, for a visitor at `address`. */
  embed(token: string, origin: string | undefined, address: string): Promise<EmbedCaller>;
}

/**
 * The vendor's plan, asked before a reply runs (the billing module provides it; without billing every
 * send is allowed). The reply's first write counts its request atomically against `replyTerms`; past the
 * requests or tokens limit it counts nothing and the reply rejects with `refusedReply`
 * (`paymentRequired(…, 60)`), before any provider is called (docs/adr/0046).
 */
export interface SpendingPort {
  /** `plan`: the plan in force as the request read it with the conversation (`requireConversationWithApp`). */
  replyTerms(vendorId: number, plan?: PlanTerms | null): Promise<ReplyTerms>;
  /** Why a reply's request was not counted against `terms` (402 code 60). */
  refusedReply(vendorId: number, terms: ReplyTerms): Promise<Error>;
  /** Throws what a refused reply would past the limits, counting nothing (before opening a conversation). */
  assertReplyRoom(vendorId: number): Promise<void>;
  /**
   * Counts a reply's further provider call as one more request of the reservation's period (the engine,
   * before each call after the first; ADR 0021), by the same rule as the reply's first write.
   */
  reserveCall(vendorId: number, reservation?: ReplyReservation): Promise<void>;
  /**
   * Adds a reply's tokens to the vendor's usage (the completion engine, after each model request): to the
   * period of its reservation, else (a reply not sent through `startReply`) to the current one.
   */
  recordTokens(vendorId: number, tokens: number, reservation?: ReplyReservation): Promise<void>;
}

/** A request counted against the plan: the period it was counted in. */
export interface ReplyReservation {
  periodStart: Date;
}

export type ConversationContext = AppContext & ConversationPorts;
