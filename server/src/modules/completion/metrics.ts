import { Counter, Gauge, Histogram } from 'prom-client';
import { createMetrics, LATENCY_BUCKETS, type Metrics } from '../../platform/metrics';
import { type ChatModel, ProviderError } from '../models/providers/types';
import { ReplyError } from './types';

/**
 * What the engine records about replies and the provider calls they make (docs/adr/0035-metrics.md).
 * Labels: the conversation's channel, the reply's outcome, the provider's catalogue name — never a vendor,
 * an app or a conversation.
 */
export type ReplyOutcomeLabel = 'ok' | 'provider_error' | 'rejected' | 'timeout' | 'stopped' | 'error';

export class CompletionMetrics {
  private readonly replies: Counter<'channel' | 'outcome'>;
  private readonly replyDuration: Histogram<'channel' | 'outcome'>;
  private readonly firstToken: Histogram<'channel'>;
  private readonly providerCalls: Counter<'provider' | 'outcome'>;
  private readonly providerDuration: Histogram<'provider'>;
  private readonly providerTokens: Counter<'provider' | 'kind'>;
  private readonly contexts: Counter<'kept'>;

  /** Without a registry (an engine built alone, in tests) the figures are kept and exposed nowhere. */
  constructor(registry: Metrics = createMetrics(), running: () => number = () => 0) {
    const registers = [registry];
    this.replies = new Counter({
      name: 'llmor_replies_total',
      help: 'Replies finished, by conversation channel and outcome.',
      labelNames: ['channel', 'outcome'],
      registers,
    });
    this.replyDuration = new Histogram({
      name: 'llmor_reply_duration_seconds',
      help: "A reply's whole time: context, every model turn and tool round, storing.",
      labelNames: ['channel', 'outcome'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.firstToken = new Histogram({
      name: 'llmor_reply_first_token_seconds',
      help: "Time from a reply's start to its first streamed text.",
      labelNames: ['channel'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    new Gauge({
      name: 'llmor_replies_running',
      help: 'Replies this process is generating now.',
      registers,
      collect() {
        this.set(running());
      },
    });
    this.providerCalls = new Counter({
      name: 'llmor_provider_calls_total',
      help: 'Model calls to providers, by provider and outcome (ok, aborted, or the error kind).',
      labelNames: ['provider', 'outcome'],
      registers,
    });
    this.providerDuration = new Histogram({
      name: 'llmor_provider_call_duration_seconds',
      help: 'Time of one streamed model call, from request to its last event.',
      labelNames: ['provider'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.contexts = new Counter({
      name: 'llmor_reply_contexts_total',
      help:
        'Reply contexts by what this process kept of them: used (only newer messages read), none (the window read), ' +
        'stale (kept but no longer whole: the window read).',
      labelNames: ['kept'],
      registers,
    });
    this.providerTokens = new Counter({
      name: 'llmor_provider_tokens_total',
      help: 'Tokens providers reported, by provider and kind (prompt, completion).',
      labelNames: ['provider', 'kind'],
      registers,
    });
  }

  /** Starts timing one reply; `firstText` once its first text streams, `end` with its outcome. */
  reply(channel: string): { firstText(): void; end(outcome: ReplyOutcomeLabel): void } {
    const started = performance.now();
    let streamed = false;
    const seconds = () => (performance.now() - started) / 1000;
    return {
      firstText: () => {
        if (streamed) return;
        streamed = true;
        this.firstToken.observe({ channel }, seconds());
      },
      end: (outcome) => {
        this.replies.inc({ channel, outcome });
        this.replyDuration.observe({ channel, outcome }, seconds());
      },
    };
  }

  /** A reply's context read: after the one kept (`used`), or the whole window (docs/adr/0050). */
  context(kept: 'used' | 'none' | 'stale'): void {
    this.contexts.inc({ kept });
  }

  /** The model with each streamed call counted and timed, and its reported tokens added up. */
  instrument(provider: string, model: ChatModel): ChatModel {
    const calls = this.providerCalls;
    const duration = this.providerDuration;
    const tokens = this.providerTokens;
    return {
      async *stream(request) {
        const started = performance.now();
        let outcome = 'aborted';
        try {
          for await (const event of model.stream(request)) {
            if (event.type === 'finish') {
              outcome = 'ok';
              tokens.inc({ provider, kind: 'prompt' }, event.usage.promptTokens);
              tokens.inc({ provider, kind: 'completion' }, event.usage.completionTokens);
            }
            yield event;
          }
        } catch (err) {
          outcome = err instanceof ProviderError ? err.kind : 'error';
          throw err;
        } finally {
          calls.inc({ provider, outcome });
          duration.observe({ provider }, (performance.now() - started) / 1000);
        }
      },
    };
  }
}

/** A failed reply's outcome label: its timeout or the server's stop first, else what was thrown. */
export function outcomeOf(err: unknown, signal: { timedOut: boolean; stopped: boolean }): ReplyOutcomeLabel {
  if (signal.timedOut) return 'timeout';
  if (signal.stopped) return 'stopped';
  if (err instanceof ProviderError) return 'provider_error';
  if (err instanceof ReplyError) return 'rejected';
  return 'error';
}
