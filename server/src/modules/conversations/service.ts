import type {
  ConversationCreated,
  ConversationListItem,
  ConversationMessagesQuery,
  ConversationPage,
  CreateConversationBody,
  ListConversationsQuery,
  ListEnvelope,
  MessageSent,
} from '@llmor/contracts';
import { RELAY_PATH } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { randomToken } from '../../platform/crypto';
import { notFound, timedOut, validationError } from '../../platform/errors';
import { vendorApp } from '../vendors/owned';
import { type Caller, channelsOf, mayOpenConversation, mayUseApp } from './access';
import { checkParametersSize, countEmbedOpening } from './limits';
import type { AppRow, ConversationContext, ReplyOutcome, ReplyRequest } from './ports';
import { presentConversation, presentListItem, presentMessage } from './present';
import {
  type ConversationRow,
  type ConversationWithApp,
  findConversation,
  findConversationWithApp,
  findVendorConversationWithApp,
  listConversations,
  type MessageRow,
  messagesPage,
  type NewMessage,
  openAppConversation,
  openConversationRow,
} from './repo';

/** 24 random bytes: 192 bits, 32 URL-safe characters. */
const TOKEN_BYTES = 24;

/** Where clients connect socket.io: PUBLIC_URL, else the origin the request came to, plus `/stream`. */
export function relayUrl(ctx: AppContext): string {
  return `${ctx.publicUrl}${RELAY_PATH}`;
}

/** The app an id names, when this caller may use it (an outside caller only its own), else 404. */
async function usableApp(ctx: AppContext, caller: Caller, appId: number): Promise<AppRow> {
  const app = await vendorApp(ctx.db, caller.vendor.id, appId);
  if (!mayUseApp(caller, app)) throw notFound('App');
  return app;
}

export async function requireConversation(
  ctx: AppContext,
  caller: Caller,
  token: string,
): Promise<ConversationRow> {
  const conversation = await findConversation(ctx.db, caller.vendor.id, token);
  if (!conversation || !mayOpenConversation(caller, conversation)) throw notFound('Conversation');
  return conversation;
}

/**
 * The conversation to send in, with its app, the app's completion model and the plan (one statement), or
 * as the request read them with the caller's vendor (`read`: `findVendorConversationWithApp`).
 */
export async function requireConversationWithApp(
  ctx: AppContext,
  caller: Caller,
  token: string,
  read?: ConversationWithApp | null,
): Promise<ConversationWithApp> {
  const found = read !== undefined ? read : await findConversationWithApp(ctx.db, caller.vendor.id, token);
  if (!found || !mayOpenConversation(caller, found.conversation)) throw notFound('Conversation');
  if (!mayUseApp(caller, found.app)) throw notFound('App');
  return found;
}

/**
 * The vendor an `X-Vendor` key names, with its conversation of `token` as `requireConversationWithApp`
 * takes it: the pipeline checks the vendor before the handler sees the conversation (docs/adr/0046).
 */
export async function vendorWithConversation(ctx: AppContext, vendorKey: string, token: string | null) {
  const read = await findVendorConversationWithApp(ctx.db, vendorKey, token);
  return { vendor: read?.vendor ?? null, loaded: read?.found ?? null };
}

/** What a caller opening a conversation may ask for, checked before any statement. */
function checkOpening(ctx: ConversationContext, caller: Caller, body: CreateConversationBody) {
  if (!channelsOf(caller).includes(body.vendor_channel)) {
    throw validationError({
      vendor_channel: `This caller may only open conversations on: ${channelsOf(caller).join(', ')}.`,
    });
  }
  checkParametersSize(ctx, caller, body.parameters);
}

const openedBy = (caller: Caller, body: CreateConversationBody) => ({
  appId: body.vendor_app_id,
  token: randomToken(TOKEN_BYTES),
  channel: body.vendor_channel,
  parameters: body.parameters,
  createdBy: caller.kind === 'user' ? caller.userId : null,
  clientId: caller.kind === 'client' ? caller.clientId : null,
  embedId: caller.kind === 'embed' ? caller.embedId : null,
});

/**
 * Opens a conversation with an app: the stored row and its first message, the app's greeting, in two
 * statements (docs/adr/0046).
 */
async function openConversation(
  ctx: ConversationContext,
  caller: Caller,
  body: CreateConversationBody,
  opts: { locale?: string },
): Promise<{ conversation: ConversationRow; messages: MessageRow[] }> {
  checkOpening(ctx, caller, body);
  const app = await usableApp(ctx, caller, body.vendor_app_id);
  const greeting = ctx.apps.greeting(app, opts.locale);
  const opened = await openConversationRow(
    ctx.db,
    caller.vendor.id,
    openedBy(caller, body),
    greeting ? [{ role: 'assistant', creator: 'system', message: greeting }] : [],
  );
  if (!opened) throw notFound('App');
  return opened;
}

/**
 * Opens a conversation with the `history` the caller brings and no greeting, answering it with its app,
 * the app's completion model and the plan in force for a reply that follows at once: one statement
 * (the OpenAI-compatible endpoint, docs/adr/0046 "Amended 2026-11-25").
 */
export async function openConversationWithHistory(
  ctx: ConversationContext,
  caller: Caller,
  body: CreateConversationBody,
  history: NewMessage[],
): Promise<ConversationWithApp> {
  checkOpening(ctx, caller, body);
  // The statement finds the app under the caller's vendor only.
  if (!mayUseApp(caller, { id: body.vendor_app_id, vendorId: caller.vendor.id })) throw notFound('App');
  const opened = await openAppConversation(ctx.db, caller.vendor.id, openedBy(caller, body), history);
  if (!opened) throw notFound('App');
  return opened;
}

export async function createConversation(
  ctx: ConversationContext,
  caller: Caller,
  body: CreateConversationBody,
  /** `address`: where an HTTP call came from (an embed's openings are counted by it). */
  opts: { locale?: string; relayUrl: string; address?: string },
): Promise<ConversationCreated> {
  await countEmbedOpening(ctx, caller, opts.address);
  const { conversation, messages } = await openConversation(ctx, caller, body, opts);
  return { ...presentConversation(conversation, opts.relayUrl), messages: messages.map(presentMessage) };
}

/**
 * `POST /v1/conversations`: refused like a send (402 code 60) while the plan's requests or tokens are used
 * up, so no conversation is left empty by a first send the plan refuses.
 */
export async function createConversationWithinPlan(
  ctx: ConversationContext,
  caller: Caller,
  body: CreateConversationBody,
  opts: { locale?: string; relayUrl: string; address?: string },
): Promise<ConversationCreated> {
  await ctx.spending.assertReplyRoom(caller.vendor.id);
  return createConversation(ctx, caller, body, opts);
}

/** A page of the conversation's messages, newest page first (docs/adr/0026-messages-contract.md). */
export async function conversationPage(
  ctx: AppContext,
  conversation: ConversationRow,
  url: string,
  query: Pick<ConversationMessagesQuery, 'cursor' | 'limit'>,
): Promise<ConversationPage> {
  const page = await messagesPage(ctx.db, conversation.vendorId, conversation.id, {
    before: query.cursor,
    limit: query.limit,
  });
  // The state may have changed since the row was read (relay, Lua): answer the current one.
  const fresh = page ? { ...conversation, state: page.state } : conversation;
  const messages = page?.messages ?? [];
  return {
    conversation: presentConversation(fresh, url),
    data: messages.map(presentMessage),
    next_cursor: page?.more ? String(messages[0]!.id) : null,
  };
}

export async function listConversationsOf(
  ctx: ConversationContext,
  caller: Caller,
  query: ListConversationsQuery,
): Promise<ListEnvelope<ConversationListItem>> {
  if (query.vendor_app_id !== undefined) await usableApp(ctx, caller, query.vendor_app_id);
  const { rows, total } = await listConversations(ctx.db, caller.vendor.id, {
    appId: query.vendor_app_id,
    page: query.page,
    pageSize: query.page_size,
    order: query.order ?? 'id',
    dir: query.order_dir ?? 'desc',
  });
  return { data: rows.map(presentListItem), total_count: total, filter_count: total };
}

const gatewayTimeout = (seconds: number) =>
  timedOut(
    `The reply is taking longer than ${seconds} s; it continues over the relay and is stored when done.`,
  );

/** A user's message to answer, as the channel that received it hands it to `startReply`. */
export interface ReplySend
  extends Pick<
    ReplyRequest,
    'conversation' | 'content' | 'posterSocket' | 'sinks' | 'instructions' | 'trace'
  > {
  caller: Caller;
  /**
   * The conversation's app, its completion model and the plan in force, when the request read them with
   * the conversation (`requireConversationWithApp`); absent, they are read here.
   */
  read?: Omit<ConversationWithApp, 'conversation'>;
}

/**
 * Starts the reply to the user's message: past the plan's limits 402 and a second send while a reply runs
 * 409, both before any provider is called. `done` settles with what the reply did.
 */
export async function startReply(
  ctx: ConversationContext,
  send: ReplySend,
): Promise<{ done: Promise<ReplyOutcome> }> {
  const { caller, conversation, read } = send;
  const known = read && read.app.id === conversation.appId && mayUseApp(caller, read.app) ? read : undefined;
  const app = known?.app ?? (await usableApp(ctx, caller, conversation.appId));
  // Every channel sends through here: the reply's first write counts the request against the plan (past
  // its limits 402, before any provider is called; docs/adr/0046).
  const reserve = await ctx.spending.replyTerms(caller.vendor.id, read?.plan);
  const done = ctx.replies.start(ctx, {
    app,
    conversation,
    content: send.content,
    posterSocket: send.posterSocket,
    sinks: send.sinks,
    reserve,
    instructions: send.instructions,
    model: known?.model ?? undefined,
    trace: send.trace,
  });
  return { done };
}

/**
 * Answers the user's message with the messages this send added (docs/adr/0026). Waits for the reply up to
 * the sync window; past it, 504 and the reply goes on (streaming over the relay, stored when done).
 */
export async function sendMessage(
  ctx: ConversationContext,
  send: ReplySend & { relayUrl: string },
): Promise<MessageSent> {
  const { done } = await startReply(ctx, send);
  const windowMs = ctx.config.SYNC_REPLY_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), windowMs);
  });
  let outcome: ReplyOutcome | 'timeout';
  try {
    outcome = await Promise.race([done, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  if (outcome === 'timeout') {
    done.catch((err: unknown) => ctx.log.error({ err }, 'background reply failed'));
    throw gatewayTimeout(windowMs / 1000);
  }
  const { conversation } = send;
  const state = outcome.state === undefined ? conversation.state : outcome.state;
  return {
    conversation: presentConversation({ ...conversation, state }, send.relayUrl),
    data: outcome.messages.map(presentMessage),
  };
}
