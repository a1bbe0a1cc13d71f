import type { ConversationChannel } from '@llmor/contracts';
import type { Outsider, SignedIn, VendorRow } from '../../platform/http/identity';
import type { AppRow } from './ports';
import type { ConversationRow } from './repo';

/**
 * Who calls the conversation API. Routes build their caller here and services ask the predicates
 * below; nothing else in the module decides access.
 *
 * - Console users (signed session + `X-Vendor`, resolved by the request pipeline): the `management`
 *   channel, any app of the vendor.
 * - Outside callers (docs/reference/api.md "Outside callers", ADR 0012), authenticated by the pipeline's outside-caller
 *   port (routes declared with `outsiders: true`, wired to modules/clients in start/http.ts) and turned into a
 *   caller by `callerOf`: API clients (`X-VendorToken` + `X-Vendor`, or `Authorization: Bearer` on the
 *   OpenAI-compatible endpoint), channel `api`; web embeds (`X-EmbedToken`), channel `embed`. Each reaches
 *   only its app and the conversations it opened (`conversations.client_id` / `embed_id`).
 */
export type Caller =
  | { kind: 'user'; vendor: VendorRow; userId: number }
  /** An app's Slack bot (modules/slack): channel `slack`, only its app and the conversations of its threads. */
  | { kind: 'slack'; vendor: VendorRow; appId: number }
  /** An API client (modules/clients; `id` keys its rate limits): channel `api`, its app, the conversations it opened. */
  | ClientCaller
  /** A web embed's widget: channel `embed`, its app, the conversations it opened. */
  | EmbedCaller;

export type ClientCaller = Outsider & { kind: 'client'; appId: number; clientId: number };
export type EmbedCaller = Outsider & { kind: 'embed'; appId: number; embedId: number };

/** The caller of a conversation route: the outside caller the pipeline authenticated, else the console user. */
export function callerOf(input: {
  vendor: VendorRow;
  identity: SignedIn | null;
  outsider: Outsider | null;
}): Caller {
  if (input.outsider) {
    if (!isOutsideCaller(input.outsider))
      throw new Error('The outside-caller port answered an unknown caller.');
    return input.outsider;
  }
  return userCaller(input.vendor, input.identity!);
}

/** The port wired in start/http.ts answers these (clients/callers.ts). */
function isOutsideCaller(outsider: Outsider): outsider is ClientCaller | EmbedCaller {
  const kind = (outsider as Partial<Caller>).kind;
  return kind === 'client' || kind === 'embed';
}

export const userCaller = (vendor: VendorRow, identity: SignedIn): Caller => ({
  kind: 'user',
  vendor,
  userId: identity.user.id,
});

/** Channels this caller may open conversations on. */
export function channelsOf(caller: Caller): readonly ConversationChannel[] {
  switch (caller.kind) {
    case 'user':
      return ['management'];
    case 'slack':
      return ['slack'];
    case 'client':
      return ['api'];
    case 'embed':
      return ['embed'];
  }
}

export function mayUseApp(caller: Caller, app: Pick<AppRow, 'id' | 'vendorId'>): boolean {
  if (caller.kind !== 'user' && app.id !== caller.appId) return false;
  return app.vendorId === caller.vendor.id;
}

export function mayOpenConversation(caller: Caller, conversation: ConversationRow): boolean {
  if (caller.kind === 'slack' && (conversation.appId !== caller.appId || conversation.channel !== 'slack'))
    return false;
  if (caller.kind === 'client' && conversation.clientId !== caller.clientId) return false;
  if (caller.kind === 'embed' && conversation.embedId !== caller.embedId) return false;
  return conversation.vendorId === caller.vendor.id;
}
