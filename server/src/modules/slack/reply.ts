/**
 * The worker's side of the Slack bot: a job per accepted mention or direct message. The Slack thread's
 * conversation (one per thread, channel `slack`) is found or opened through the conversations service,
 * the message is sent there like any other caller's, and the app's answer is posted in the thread.
 */
import { ErrorName, type Locale, localize, message } from '@llmor/contracts';
import { AppError } from '../../platform/errors';
import { job } from '../../platform/queue';
import type { Caller } from '../conversations/access';
import type { ReplyOutcome } from '../conversations/ports';
import type { ConversationRow } from '../conversations/repo';
import { createConversation, relayUrl, requireConversation, startReply } from '../conversations/service';
import { vendorLocale } from '../settings/service';
import { findVendorById } from '../vendors/repo';
import * as repo from './repo';
import { openCredentials, type SlackContext } from './service';
import { postInThread } from './slack-api';

export const SLACK_REPLY_JOB = 'slack-reply';

export interface SlackReplyData {
  vendorId: number;
  appId: number;
  channel: string;
  /** The thread's first message (a mention outside a thread starts one under itself). */
  threadTs: string;
  text: string;
}

/** Slack's limit for `markdown_text`; a longer answer is posted as several messages in the thread. */
const SLACK_MESSAGE_MAX_CHARS = 12_000;

/** Cuts a long answer into Slack-sized pieces, at paragraph or line ends where it can. */
export function slackChunks(text: string, max = SLACK_MESSAGE_MAX_CHARS): string[] {
  const chunks: string[] = [];
  let rest = text;
  while (rest.length > max) {
    const window = rest.slice(0, max);
    const cut = Math.max(window.lastIndexOf('\n\n'), window.lastIndexOf('\n'));
    const at = cut > max / 2 ? cut : max;
    chunks.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.trim()) chunks.push(rest);
  return chunks;
}

/** The texts the reply stored: its answer and any error (ours in the vendor's language). */
function answerOf({ messages }: ReplyOutcome, locale: Locale): string {
  return messages
    .filter((m) => (m.role === 'assistant' || m.role === 'error') && m.message?.trim())
    .map((m) => (m.role === 'error' ? localize(m.message!.trim(), locale) : m.message!.trim()))
    .join('\n\n');
}

/** The thread's conversation, opened on first use. */
async function threadConversation(
  ctx: SlackContext,
  caller: Extract<Caller, { kind: 'slack' }>,
  thread: { channelId: string; threadTs: string },
  relay: string,
): Promise<ConversationRow> {
  const { vendor, appId } = caller;
  const known = await repo.threadConversationToken(ctx.db, vendor.id, appId, thread);
  if (known) return requireConversation(ctx, caller, known);
  const created = await createConversation(
    ctx,
    caller,
    { vendor_app_id: appId, vendor_channel: 'slack', parameters: {} },
    { relayUrl: relay },
  );
  if (await repo.insertThread(ctx.db, vendor.id, appId, { ...thread, conversationId: created.id })) {
    return requireConversation(ctx, caller, created.token);
  }
  // Another worker opened this thread's conversation at the same moment: answer in that one.
  const winner = await repo.threadConversationToken(ctx.db, vendor.id, appId, thread);
  return requireConversation(ctx, caller, winner ?? created.token);
}

/**
 * The text to post for one message: the app's answer, or why there is none — in the vendor's language
 * (a Slack user has no request locale; docs/adr/0030-server-texts-in-the-request-locale.md).
 */
async function answer(
  ctx: SlackContext,
  caller: Extract<Caller, { kind: 'slack' }>,
  conversation: ConversationRow,
  text: string,
): Promise<string> {
  const locale = await vendorLocale(ctx, caller.vendor.id);
  try {
    const { done } = await startReply(ctx, { caller, conversation, content: text });
    // The job waits for the whole reply, however long (its expiry is past the reply timeout).
    return answerOf(await done, locale) || message('slackNoAnswer', {}, locale);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // The plan refused the reply (402): say so in the thread, in the billing module's words.
    if (err.name === ErrorName.PaymentRequired) return localize(err.message, locale);
    if (err.name === ErrorName.Conflict) return message('slackBusy', {}, locale);
    throw err;
  }
}

async function replyInThread(ctx: SlackContext, data: SlackReplyData) {
  const { vendorId, appId } = data;
  const vendor = await findVendorById(ctx.db, vendorId);
  const row = await repo.findIntegration(ctx.db, vendorId, appId);
  const credentials = row ? openCredentials(ctx, row) : null;
  if (!vendor?.active || !credentials?.botToken) return { skipped: 'the vendor or its Slack app is gone' };
  await repo.forgetOldEvents(ctx.db, appId);
  const caller = { kind: 'slack', vendor, appId } as const;
  const relay = relayUrl(ctx);
  const conversation = await threadConversation(
    ctx,
    caller,
    { channelId: data.channel, threadTs: data.threadTs },
    relay,
  );
  const text = await answer(ctx, caller, conversation, data.text);
  const chunks = slackChunks(text);
  for (const markdown of chunks) {
    await postInThread(ctx, credentials.botToken, {
      channel: data.channel,
      threadTs: data.threadTs,
      markdown,
    });
  }
  return { conversation: conversation.token, posted: chunks.length };
}

export const slackJobs = (ctx: SlackContext) => [
  job<SlackReplyData>({
    name: SLACK_REPLY_JOB,
    // A reply is not repeated: a second run would send the person's message to the app again.
    retryLimit: 0,
    expireInSeconds: Math.ceil(ctx.config.COMPLETION_TIMEOUT_MS / 1000) + 120,
    handler: (data) => replyInThread(ctx, data),
  }),
];
