/**
 * Slack's Events API endpoint of one llmor app: the request is verified with the Slack app's signing
 * secret (v0), then mentions and direct messages are acknowledged at once and answered by a job
 * (`reply.ts`), so Slack gets its answer well within its 3 s.
 */
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { hmacSha256Hex, safeEqualHex } from '../../platform/crypto';
import { badRequest, unauthorized } from '../../platform/errors';
import { SLACK_REPLY_JOB, type SlackReplyData } from './reply';
import * as repo from './repo';
import { openCredentials, type SlackContext } from './service';

/** Slack's window for a request's timestamp; older (or future) requests are replays. */
const SIGNATURE_WINDOW_SECONDS = 300;
const SIGNATURE_PATTERN = /^v0=([0-9a-f]{64})$/;
const REFUSED = 'The Slack signature of this request cannot be verified.';

/** `X-Slack-Signature` v0: HMAC-SHA256 of `v0:{timestamp}:{raw body}`, compared in constant time. */
export function verifySlackSignature(
  signingSecret: string,
  headers: { timestamp: unknown; signature: unknown },
  rawBody: string,
  nowSeconds: number,
): boolean {
  const { timestamp, signature } = headers;
  if (typeof timestamp !== 'string' || !/^\d{1,12}$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > SIGNATURE_WINDOW_SECONDS) return false;
  const given = typeof signature === 'string' ? SIGNATURE_PATTERN.exec(signature) : null;
  if (!given) return false;
  return safeEqualHex(given[1]!, hmacSha256Hex(signingSecret, `v0:${timestamp}:${rawBody}`));
}

const slackMessageEvent = z.object({
  type: z.string(),
  user: z.string().optional(),
  bot_id: z.string().optional(),
  subtype: z.string().optional(),
  text: z.string().optional(),
  channel: z.string().optional(),
  channel_type: z.string().optional(),
  ts: z.string().optional(),
  thread_ts: z.string().optional(),
});

/** The envelopes Slack posts (Events API); other types are acknowledged and ignored. */
const slackEnvelope = z.discriminatedUnion('type', [
  z.object({ type: z.literal('url_verification'), challenge: z.string().min(1).max(500) }),
  z.object({
    type: z.literal('event_callback'),
    event_id: z.string().min(1).max(100),
    api_app_id: z.string().optional(),
    event: slackMessageEvent,
  }),
  z.object({ type: z.literal('app_rate_limited') }),
]);

export type SlackEventAnswer = { challenge: string } | { ok: true };

/** What to answer, if anything: a mention or a direct message from a person, with the bot's mention removed. */
function replyRequest(
  event: z.infer<typeof slackMessageEvent>,
  botUserId: string | null,
): Omit<SlackReplyData, 'vendorId' | 'appId'> | null {
  const direct = event.type === 'message' && event.channel_type === 'im';
  if (event.type !== 'app_mention' && !direct) return null;
  // Never the bot itself, other bots, or edits, joins and other message subtypes.
  if (event.bot_id || event.subtype || !event.user || event.user === botUserId) return null;
  if (!event.channel || !event.ts) return null;
  const text = (event.text ?? '').replace(/<@[A-Z0-9]+(\|[^>]*)?>/g, (mention) =>
    botUserId && mention.startsWith(`<@${botUserId}`) ? '' : mention,
  );
  if (text.trim() === '') return null;
  return { channel: event.channel, threadTs: event.thread_ts ?? event.ts, text: text.trim() };
}

/**
 * One request to `POST /v1/slack/events/{appId}`. Unknown or unconfigured apps, missing, stale or wrong
 * signatures answer 401; an envelope that is not Slack's answers 400; nothing is stored for either.
 */
export async function receiveEvent(
  ctx: SlackContext & AppContext,
  appId: number,
  request: { rawBody: string | undefined; body: unknown; timestamp: unknown; signature: unknown },
): Promise<SlackEventAnswer> {
  const row = await repo.findIntegrationByCapability(ctx.db, appId);
  const credentials = row?.isConfigured ? openCredentials(ctx, row) : null;
  if (!row || !credentials || request.rawBody === undefined) throw unauthorized(REFUSED);
  const now = Math.floor(Date.now() / 1000);
  if (!verifySlackSignature(credentials.signingSecret, request, request.rawBody, now))
    throw unauthorized(REFUSED);

  const parsed = slackEnvelope.safeParse(request.body);
  if (!parsed.success) throw badRequest('The body is not a Slack event this endpoint takes.');
  const envelope = parsed.data;
  if (envelope.type === 'url_verification') return { challenge: envelope.challenge };
  if (envelope.type !== 'event_callback') return { ok: true };
  if (envelope.api_app_id && envelope.api_app_id !== row.slackAppId)
    throw badRequest('The event is for another Slack app.');
  if (!credentials.botToken) throw badRequest('The Slack app is not installed in a workspace yet.');

  const reply = replyRequest(envelope.event, row.slackBotUserId);
  if (!reply) return { ok: true };
  // Slack retries an event it thinks was not taken (same event_id): the first one is answered, once.
  if (!(await repo.claimEvent(ctx.db, appId, envelope.event_id))) return { ok: true };
  try {
    await ctx.queue.send<SlackReplyData>(SLACK_REPLY_JOB, { vendorId: row.vendorId, appId, ...reply });
  } catch (err) {
    await repo.releaseEvent(ctx.db, appId, envelope.event_id);
    throw err;
  }
  return { ok: true };
}
