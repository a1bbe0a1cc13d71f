/**
 * What a caller may make us store when it opens a conversation (docs/adr/0022). An embed's token is public
 * (it sits in the HTML of every page that uses the embed), so its callers are anonymous: conversations are
 * counted per visitor address and per embed, and their `parameters` are held to a smaller size.
 */
import { message } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { tooManyRequests, validationError } from '../../platform/errors';
import type { Caller } from './access';
import { StateError, type StateTarget } from './state';

const HOUR = 3600;

/** Refuses `parameters` past the caller's size limit (400 naming the field, before anything is stored). */
export function checkParametersSize(
  ctx: AppContext,
  caller: Caller,
  parameters: Record<string, unknown>,
): void {
  const max =
    caller.kind === 'embed'
      ? ctx.config.EMBED_PARAMETERS_MAX_BYTES
      : ctx.config.CONVERSATION_PARAMETERS_MAX_BYTES;
  if (Buffer.byteLength(JSON.stringify(parameters), 'utf8') > max) {
    throw validationError({ parameters: message('parametersTooLarge', { limit: max }) });
  }
}

/** For an embed's caller, counts the opening against its visitor's address (on that embed) and the embed; past either, 429. */
export async function countEmbedOpening(
  ctx: AppContext,
  caller: Caller,
  address: string | undefined,
): Promise<void> {
  if (caller.kind !== 'embed') return;
  const limits = [
    {
      key: `embed-open:${caller.embedId}:address:${address ?? 'unknown'}`,
      max: ctx.config.EMBED_CONVERSATIONS_PER_ADDRESS_PER_HOUR,
    },
    { key: `embed-open:embed:${caller.embedId}`, max: ctx.config.EMBED_CONVERSATIONS_PER_EMBED_PER_HOUR },
  ];
  for (const { key, max } of limits) {
    const hit = await ctx.rateLimiter.hit(key, max, HOUR);
    if (!hit.allowed) {
      throw tooManyRequests(
        hit.retryAfter,
        message('embedOpeningsLimited', { limit: max, count: hit.retryAfter }),
      );
    }
  }
}

/**
 * Counts a relay `set`/`patchState` against its conversation; past the per-minute limit a StateError
 * (`state_err`), so relay sockets cannot rewrite durable state without pause.
 */
export async function countStateChange(ctx: AppContext, target: StateTarget): Promise<void> {
  const max = ctx.config.RELAY_STATE_CHANGES_PER_MINUTE;
  const hit = await ctx.rateLimiter.hit(`relay-state:${target.id}`, max, 60);
  if (!hit.allowed) {
    throw new StateError(message('stateChangesLimited', { limit: max, count: hit.retryAfter }));
  }
}
