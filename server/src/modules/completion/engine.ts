import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@llmor/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../platform/context';
import { conflict, paymentRequired } from '../../platform/errors';
import type { Metrics } from '../../platform/metrics';
import type { RelayHub } from '../../platform/relay/hub';
import { annotateSpan, inSpan, type TraceContext } from '../../platform/tracing';
import type { ReplyEvent, ReplyOutcome, ReplyRequest, ReplyReservation } from '../conversations/ports';
import { RelaySink } from '../conversations/relay-sink';
import {
  insertMessage,
  type MessageRow,
  type NewMessage,
  releaseReplyLease,
  releaseStaleReplyLeases,
  renewReplyLeases,
} from '../conversations/repo';
import { chatModelFor } from '../models/providers/index';
import { type ChatModel, ProviderError } from '../models/providers/types';
import { chatResponder, oneshotResponder } from './chat';
import { ContextCache, type KeptContext, keptRange } from './context-cache';
import { contextWindow, HISTORY_MAX_MESSAGES } from './input';
import { ReplyMeter } from './meter';
import { CompletionMetrics, outcomeOf } from './metrics';
import { claimReplyLease, type FinalUsage, finishReply, type LeaseClaimed } from './repo';
import { siliconResponder } from './silicon';
import { functionTools } from './tools';
import {
  type EngineSeams,
  type KnowledgePort,
  type ModelResolver,
  noKnowledge,
  ReplyError,
  type Responder,
  type ToolProvider,
  type Turn,
} from './types';

/** How long stopped replies get to store what they have (ADR 0025); the stop's deadline allows for it. */
const SHUTDOWN_WAIT_MS = 5_000;
export const UNEXPECTED_ERROR_TEXT = 'The reply could not be completed because of an unexpected error.';

const RESOLVED_MODELS_MAX = 500;
/** The stored messages a reply reads before the user's (its context, before the token budget). */
const CONTEXT_HISTORY = HISTORY_MAX_MESSAGES - 1;

/**
 * The models module's provider layer, one client per installed model: building it (opening the sealed
 * key, the SDK's provider and its stream schemas) cost more than the rest of a reply's own work. Keyed by
 * everything the client is made of, so a changed row gets a new one.
 */
function providerModels(metrics: CompletionMetrics): ModelResolver {
  const resolved = new LRUCache<string, ChatModel>({ max: RESOLVED_MODELS_MAX });
  return (ctx, row) => {
    const key = [row.id, row.modelKey, row.provider, row.secretEnc, JSON.stringify(row.parameters)].join(
      '\n',
    );
    let model = resolved.get(key);
    if (!model) {
      model = metrics.instrument(row.provider ?? 'unknown', chatModelFor(ctx, row));
      resolved.set(key, model);
    }
    return model;
  };
}

/** A reply whose lease its first statement took: what `run` answers it with. */
interface ClaimedReply {
  request: ReplyRequest;
  claimed: LeaseClaimed;
  /** The context this process kept, updated by the claim's read. */
  context: KeptContext;
  /** The request the reply was counted as, if it was. */
  reservation: ReplyReservation | undefined;
  signal: AbortSignal;
  trace: TraceContext;
}

interface Running {
  controller: AbortController;
  done: Promise<unknown>;
}

const BUSY_TEXT = 'A reply is still being generated in this conversation. Wait for it to finish.';
/** Stored in a conversation whose reply's process died (its lease was found stale, ADR 0025). */
export const INTERRUPTED_TEXT = 'The reply was interrupted (the server stopped).';
/**
 * A reply's lease lasts this long and its instance renews it every `LEASE_RENEW_MS` while the reply runs:
 * a lease that lapsed belongs to an instance that died, so another one takes the conversation over within
 * 5 s of the death; a live instance loses it only if no renewal lands for 4 s (an event loop stalled that
 * long, or a database that slow), far beyond a GC pause (ADR 0055, amending ADR 0025).
 */
const LEASE_MS = 5_000;
const LEASE_RENEW_MS = 1_000;

/** What an engine is built with: its collaborators, given once (the server's, or a test server's fakes). */
export interface EngineOptions {
  /** Publishes each reply's events to its conversation's room. */
  relay: RelayHub;
  /** Where replies and provider calls are counted for `/metrics` (none: a private registry). */
  metrics?: Metrics;
  /** Where a reply's provider calls and tokens count (billing); none: nowhere, every reply allowed. */
  spending?: EngineSeams['spending'];
  /** The app's datastores (retrieval for chatbots, `datastore.search` in Lua); none: no datastores. */
  knowledge?: KnowledgePort;
  /** The app's tools; default its installed functions, run in the Lua sandbox (tools.ts). */
  tools?: ToolProvider;
  /** Installed model → ChatModel; default the models module's providers, one client per model. */
  resolveModel?: ModelResolver;
}

/** Without billing (engine tests) calls and tokens count nowhere. */
const countedNowhere: EngineSeams['spending'] = {
  reserveCall: async () => {},
  recordTokens: async () => {},
  refusedReply: async () =>
    paymentRequired('The plan allows no more requests this period.', ErrorCode.USAGE_LIMIT_REACHED),
};

/** One responder per app type (a strategy per type; silicon plugs in here). */
const RESPONDERS: Record<string, Responder> = {
  chatbot: chatResponder,
  generic: chatResponder,
  oneshot: oneshotResponder,
  silicon: siliconResponder,
};

/**
 * Answers user messages. One reply at a time per conversation, on any instance (a map in this process,
 * a lease on the conversation row across processes): a second send while one runs answers 409. Every
 * reply ends with its `finished` and `ended` events, whatever happened, and is bounded by
 * `COMPLETION_TIMEOUT_MS`, which aborts the provider request.
 *
 * Its collaborators (`EngineOptions`) are given to the constructor and fixed from then on: a test passes
 * its fakes through `createTestServer`.
 */
export class CompletionEngine implements EngineSeams {
  /** Replies and provider calls as `/metrics` shows them (docs/adr/0035-metrics.md). */
  readonly metrics: CompletionMetrics;
  private readonly relay: RelayHub;
  readonly resolveModel: ModelResolver;
  readonly tools: ToolProvider;
  readonly knowledge: KnowledgePort;
  readonly spending: EngineSeams['spending'];
  /** This process's id on the reply leases it holds (ADR 0025). */
  readonly instanceId: string = randomUUID();
  /** Each conversation's context as its last reply here left it (docs/adr/0050). */
  private readonly contexts = new ContextCache(CONTEXT_HISTORY);
  private readonly running = new Map<number, Running>();
  /** Renews this instance's leases while any reply runs. */
  private heartbeat: NodeJS.Timeout | undefined;
  /** The renewal under way: one at a time, so a slow database does not pile them up on the pool. */
  private renewing: Promise<void> | undefined;

  constructor(opts: EngineOptions) {
    this.metrics = new CompletionMetrics(opts.metrics, () => this.running.size);
    this.relay = opts.relay;
    this.resolveModel = opts.resolveModel ?? providerModels(this.metrics);
    this.tools = opts.tools ?? functionTools;
    this.knowledge = opts.knowledge ?? noKnowledge;
    this.spending = opts.spending ?? countedNowhere;
  }

  isRunning(conversationId: number): boolean {
    return this.running.has(conversationId);
  }

  /**
   * Stores the user's message and answers it. Throws 409 at once if a reply is already running in this
   * conversation. The promise resolves with what the reply did when it is stored and announced; it rejects
   * only if the user's message itself cannot be stored.
   */
  start(ctx: AppContext, request: ReplyRequest): Promise<ReplyOutcome> {
    const id = request.conversation.id;
    if (this.running.has(id)) {
      throw conflict(BUSY_TEXT);
    }
    const controller = new AbortController();
    const entry: Running = { controller, done: Promise.resolve() };
    this.running.set(id, entry);
    this.beat(ctx);
    const done = inSpan('reply', replySpanAttributes(request), request.trace, (trace) =>
      this.leaseAndRun(ctx, request, controller.signal, trace),
    ).finally(() => {
      if (this.running.get(id) === entry) this.running.delete(id);
      this.beat(ctx);
    });
    entry.done = done;
    return done;
  }

  /** Keeps the heartbeat running exactly while replies run. */
  private beat(ctx: AppContext): void {
    if (this.running.size === 0) {
      clearInterval(this.heartbeat);
      this.heartbeat = undefined;
    } else {
      this.heartbeat ??= setInterval(() => {
        this.renewing ??= renewReplyLeases(ctx.db, this.instanceId, LEASE_MS)
          .catch((err: unknown) => ctx.log.error({ err }, 'could not renew the reply leases'))
          .finally(() => {
            this.renewing = undefined;
          });
      }, LEASE_RENEW_MS).unref();
    }
  }

  /**
   * Lets go of the reply leases of processes that died mid-reply, storing `INTERRUPTED_TEXT` in each of
   * those conversations. `all` when no other process can hold one (the embedded database at start).
   */
  async releaseStaleLeases(ctx: AppContext, opts: { all: boolean }): Promise<void> {
    const released = await releaseStaleReplyLeases(ctx.db, INTERRUPTED_TEXT, opts);
    if (released.length > 0) {
      ctx.log.warn({ conversations: released }, `released ${released.length} interrupted replies' leases`);
    }
  }

  /**
   * The same rule across instances: the conversation's reply lease in the database (409 if held), taken
   * in the statement that reads the messages before the new one (the context's history) and, for a reply
   * sent through `startReply`, counts its request against the plan (402 past it, nothing taken or stored;
   * docs/adr/0046). A lapsed lease (its instance died) is released first, leaving the interrupted reply's
   * notice; the request counted with the held lease is not counted again. The statement reads only the
   * messages after the context this process kept, once it verified it (docs/adr/0050).
   */
  private async leaseAndRun(
    ctx: AppContext,
    request: ReplyRequest,
    signal: AbortSignal,
    trace: TraceContext,
  ): Promise<ReplyOutcome> {
    const { vendorId, id } = request.conversation;
    const kept = this.contexts.get(vendorId, id);
    const lease = { holder: this.instanceId, ms: LEASE_MS, history: CONTEXT_HISTORY, kept: keptRange(kept) };
    const posted: NewMessage = { role: 'user', creator: 'user', message: request.content };
    const { reserve } = request;
    const claim = (counted: boolean) =>
      claimReplyLease(ctx.db, {
        vendorId,
        conversationId: id,
        appId: request.app.id,
        lease,
        posted,
        reserve: counted ? undefined : reserve,
      });
    let claimed = await claim(false);
    if (claimed === 'refused') throw await this.spending.refusedReply(vendorId, reserve!);
    if (!claimed) {
      const conversation = { vendorId, id };
      const released = await releaseStaleReplyLeases(ctx.db, INTERRUPTED_TEXT, { all: false, conversation });
      if (released.length > 0) claimed = await claim(true);
    }
    if (!claimed || claimed === 'refused') throw conflict(BUSY_TEXT);
    const reservation = reserve && { periodStart: reserve.period.start };
    try {
      this.metrics.context(!kept ? 'none' : claimed.verified ? 'used' : 'stale');
      const context = this.contexts.window(vendorId, id, kept, claimed.earlier, claimed.verified);
      return await this.run(ctx, { request, claimed, context, reservation, signal, trace });
    } catch (err) {
      await this.release(ctx, vendorId, id);
      throw err;
    }
  }

  private release(ctx: AppContext, vendorId: number, conversationId: number) {
    return releaseReplyLease(ctx.db, vendorId, conversationId, this.instanceId).catch((err: unknown) => {
      ctx.log.error({ err, conversation: conversationId }, 'could not release the reply lease');
      return null;
    });
  }

  /**
   * Stops the engine: lets running replies finish for up to `drainMs` (logging how many it waits for), then
   * stops the rest; each still stores its partial text and error message and sends its end events. A
   * serving process drains for `SHUTDOWN_DRAIN_MS` (server.ts, ADR 0055); test servers stop replies at once.
   */
  async close(log?: FastifyBaseLogger, drainMs = 0): Promise<void> {
    const settled = (ms: number) =>
      Promise.race([
        Promise.allSettled([...this.running.values()].map((r) => r.done)),
        new Promise((resolve) => setTimeout(resolve, ms).unref()),
      ]);
    if (drainMs > 0 && this.running.size > 0) {
      log?.info(
        `waiting for ${plural(this.running.size, 'reply', 'replies')} to finish (at most ${drainMs / 1000} s)…`,
      );
      await settled(drainMs);
    }
    const all = [...this.running.values()];
    if (all.length === 0) return;
    if (drainMs > 0) log?.warn(`stopping ${plural(all.length, 'reply', 'replies')} still running`);
    for (const r of all)
      r.controller.abort(new ReplyError('The server is shutting down; the reply was stopped.'));
    await settled(SHUTDOWN_WAIT_MS);
  }

  private async run(
    ctx: AppContext,
    { request, claimed, context, reservation, signal, trace }: ClaimedReply,
  ): Promise<ReplyOutcome> {
    const { app, conversation } = request;
    const { token } = conversation;
    const startedAt = Date.now();
    const measured = this.metrics.reply(conversation.channel);
    const userMessage = claimed.posted;
    const outcome: ReplyOutcome = {
      messages: [userMessage],
      text: '',
      usage: { promptTokens: 0, completionTokens: 0 },
      error: null,
    };
    const kept = (row: MessageRow) => {
      outcome.messages.push(row);
      if (row.role === 'assistant') outcome.text += row.message ?? '';
    };
    const store = async (message: NewMessage) => {
      const row = await insertMessage(ctx.db, conversation.vendorId, conversation.id, message);
      kept(row);
      return row;
    };
    /** What the reply's last statement stores with the lease's release (`finishReply`). */
    const last: { messages: NewMessage[]; usage?: FinalUsage } = { messages: [] };
    // The conversation's room first, then the request's own sinks.
    const sinks = [new RelaySink(this.relay, token, request.posterSocket), ...(request.sinks ?? [])];
    const emit = (event: ReplyEvent) => {
      if (event.kind === 'text') measured.firstText();
      for (const sink of sinks) sink.event(event);
    };

    const timeoutMs = ctx.config.COMPLETION_TIMEOUT_MS;
    const timeout = new AbortController();
    const timer = setTimeout(
      () =>
        timeout.abort(
          new ReplyError(`The model did not finish its answer within ${timeoutMs / 1000} seconds.`),
        ),
      timeoutMs,
    );
    timer.unref();
    const turnSignal = AbortSignal.any([signal, timeout.signal]);

    emit({ kind: 'started' });
    emit({ kind: 'user_input', message: userMessage });
    let result: Parameters<typeof measured.end>[0] = 'ok';
    try {
      const history = contextWindow([...context.messages, userMessage]);
      const meter = new ReplyMeter(this.spending, conversation.vendorId, reservation, ctx.config);
      const turn: Turn = {
        ctx,
        engine: this,
        app,
        conversation,
        history,
        userMessage,
        installed: claimed.installed,
        model: request.model,
        reservation,
        instructions: request.instructions,
        meter,
        usage: outcome.usage,
        signal: turnSignal,
        trace,
        emit,
        debug: (data) => emit({ kind: 'debug', data }),
        custom: (type, data) => emit({ kind: 'custom', type, data }),
        store,
        conclude: (message, usage) => {
          last.messages.push(message);
          if (!usage) return;
          const tokens = usage.record.tokensPrompt! + usage.record.tokensCompletion!;
          meter.counted(tokens);
          // The plan's tokens go with the last write when the request was reserved (its period is known).
          last.usage = reservation
            ? { ...usage, plan: { periodStart: reservation.periodStart, tokens } }
            : usage;
        },
      };
      turn.debug({ app_type: app.type });
      const responder = RESPONDERS[app.type];
      if (!responder) throw new ReplyError(`Apps of type '${app.type}' cannot answer messages.`);
      await responder(turn);
    } catch (err) {
      result = outcomeOf(err, { timedOut: timeout.signal.aborted, stopped: signal.aborted });
      const text = errorText(err, turnSignal);
      if (text === UNEXPECTED_ERROR_TEXT)
        ctx.log.error({ err, conversation: conversation.id }, 'completion failed');
      outcome.error = text;
      last.messages = [{ role: 'error', creator: 'system', message: text }];
      last.usage = undefined;
    }
    try {
      outcome.state = await this.finish(ctx, request, last, kept);
      if (last.usage && !last.usage.plan) {
        const { tokensPrompt, tokensCompletion } = last.usage.record;
        await this.spending.recordTokens(conversation.vendorId, tokensPrompt! + tokensCompletion!);
      }
    } catch (err) {
      ctx.log.error({ err, conversation: conversation.id }, 'could not store the reply');
      result = 'error';
      outcome.error = UNEXPECTED_ERROR_TEXT;
      const failure: NewMessage = { role: 'error', creator: 'system', message: UNEXPECTED_ERROR_TEXT };
      outcome.state = await this.finish(ctx, request, { messages: [failure] }, kept).catch(
        (storeErr: unknown) => {
          ctx.log.error({ err: storeErr }, 'could not store the error message');
          return this.release(ctx, conversation.vendorId, conversation.id).then((r) => r?.state);
        },
      );
    } finally {
      clearTimeout(timer);
      measured.end(result);
      annotateSpan(trace, { 'llmor.reply.outcome': result }, outcome.error ?? undefined);
      emit({ kind: 'debug', data: { took_ms: Date.now() - startedAt } });
      emit({ kind: 'finished' });
      emit({ kind: 'ended' });
    }
    // What this reply stored, so the next one reads nothing new (or only what others stored since).
    this.contexts.append(conversation.vendorId, conversation.id, context, outcome.messages);
    return outcome;
  }

  /** The reply's last statement; answers the state as the lease was let go (undefined: not ours any more). */
  private async finish(
    ctx: AppContext,
    request: ReplyRequest,
    last: { messages: NewMessage[]; usage?: FinalUsage },
    kept: (row: MessageRow) => void,
  ): Promise<unknown> {
    const { vendorId, id } = request.conversation;
    const done = await finishReply(ctx.db, {
      vendorId,
      conversationId: id,
      holder: this.instanceId,
      stored: last.messages,
      usage: last.usage,
    });
    for (const row of done.messages) kept(row);
    return done.released?.state;
  }
}

/** What a reply's span says of it: ids and kinds, never the message or a token (docs/adr/0040-traces.md). */
function replySpanAttributes({ app, conversation }: ReplyRequest) {
  return {
    'llmor.vendor.id': conversation.vendorId,
    'llmor.app.id': app.id,
    'llmor.app.type': app.type,
    'llmor.conversation.id': conversation.id,
    'llmor.conversation.channel': conversation.channel,
  };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The error-role text for a failed reply: user-facing messages as they are, anything else generic. */
function errorText(err: unknown, signal: AbortSignal): string {
  if (signal.aborted && signal.reason instanceof ReplyError) return signal.reason.message;
  if (err instanceof ReplyError) return err.message;
  if (err instanceof ProviderError) return `The model could not answer: ${err.message}`;
  return UNEXPECTED_ERROR_TEXT;
}
