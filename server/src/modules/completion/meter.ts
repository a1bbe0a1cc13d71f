import { ErrorName } from '@llmor/contracts';
import type { Config } from '../../platform/config';
import { AppError } from '../../platform/errors';
import type { ReplyReservation } from '../conversations/ports';
import { type EngineSeams, ReplyError } from './types';

/**
 * What one reply may spend on providers (ADR 0021). Every provider call of a reply — a model turn, a tool
 * round, a silicon `llm.complete`, the embedding of a datastore search — is admitted first: against the
 * reply's own caps (`REPLY_MAX_PROVIDER_CALLS`, `REPLY_MAX_TOKENS`), then against the vendor's plan (each
 * call after the first is one more request; none once the period's tokens are used up). Its tokens count
 * as soon as it ends, so the next call sees them: a reply passes a limit by at most one call.
 */
export class ReplyMeter {
  private calls = 0;
  private tokens = 0;
  private readonly maxCalls: number;
  private readonly maxTokens: number;

  constructor(
    private readonly spending: EngineSeams['spending'],
    private readonly vendorId: number,
    private readonly reservation: ReplyReservation | undefined,
    config: Pick<Config, 'REPLY_MAX_PROVIDER_CALLS' | 'REPLY_MAX_TOKENS'>,
  ) {
    this.maxCalls = config.REPLY_MAX_PROVIDER_CALLS;
    this.maxTokens = config.REPLY_MAX_TOKENS;
  }

  /** Before a provider call: throws a `ReplyError` past a limit, and then the provider is not called. */
  async admit(): Promise<void> {
    if (this.calls >= this.maxCalls) {
      throw new ReplyError(
        `The reply reached its limit of ${this.maxCalls.toLocaleString('en-US')} model calls and was stopped.`,
      );
    }
    if (this.tokens >= this.maxTokens) {
      throw new ReplyError(
        `The reply reached its limit of ${this.maxTokens.toLocaleString('en-US')} tokens and was stopped.`,
      );
    }
    // The send's reservation already counted the reply's first call.
    const counted = this.calls === 0 && this.reservation !== undefined;
    this.calls += 1;
    if (counted) return;
    try {
      await this.spending.reserveCall(this.vendorId, this.reservation);
    } catch (err) {
      if (err instanceof AppError && err.name === ErrorName.PaymentRequired)
        throw new ReplyError(err.message);
      throw err;
    }
  }

  /** After a provider call: its tokens count for the reply and on the plan. */
  async spent(tokens: number): Promise<void> {
    this.counted(tokens);
    await this.spending.recordTokens(this.vendorId, tokens, this.reservation);
  }

  /** Tokens that count for the reply; the caller puts them on the plan (the reply's last statement). */
  counted(tokens: number): void {
    this.tokens += tokens;
  }
}
