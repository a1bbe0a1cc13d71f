import type { ConversationChannel } from '@llmor/contracts';
import type { SignedIn, VendorRow } from '../../platform/http/identity';
import type { AppRow } from './ports';
import type { ConversationRow } from './repo';

/**
 * Who calls the conversation API. Routes build their caller here and services ask the predicates
 * below; nothing else in the module decides access.
 *
 * Today: console users (signed session + `X-Vendor`, resolved by the request pipeline), on the
 * `management` channel, any app of the vendor.
 * Seam for later (CONTRACTS "Outside callers"):
 * - API clients (`X-VendorToken` + `X-Vendor`, no session): `{kind: 'client', vendor, appId, clientId}`,
 *   channel `api`, only their app (`mayUseApp`) and its conversations.
 * - Web embeds (`X-EmbedToken`): `{kind: 'embed', vendor, appId, embedId}`, channel `embed`, only the
 *   conversations they created (`conversations.embed_id`).
 * Adding them: an access mode of the pipeline that authenticates those headers, and the predicates here.
 */
export type Caller = { kind: 'user'; vendor: VendorRow; userId: number };

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
  }
}

export function mayUseApp(caller: Caller, app: AppRow): boolean {
  return app.vendorId === caller.vendor.id;
}

export function mayOpenConversation(caller: Caller, conversation: ConversationRow): boolean {
  return conversation.vendorId === caller.vendor.id;
}
