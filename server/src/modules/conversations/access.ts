import type { ConversationChannel } from '@llmor/contracts';
import type { FastifyRequest } from 'fastify';
import { requireUser } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { badRequest, notFound } from '../../platform/errors';
import type { AppRow } from '../completion/repo';
import type { VendorRow } from '../vendors/repo';
import { vendorFromHeader } from '../vendors/service';
import type { ConversationRow } from './repo';

/**
 * Who calls the conversation API. Every route resolves its caller here and asks the predicates below;
 * nothing else in the module decides access.
 *
 * Today: console users (signed session + `X-Vendor`), on the `management` channel, any app of the vendor.
 * Seam for later (CONTRACTS "Outside callers"):
 * - API clients (`X-VendorToken` + `X-Vendor`, no session): `{kind: 'client', vendor, appId, clientId}`,
 *   channel `api`, only their app (`mayUseApp`) and its conversations.
 * - Web embeds (`X-EmbedToken`): `{kind: 'embed', vendor, appId, embedId}`, channel `embed`, only the
 *   conversations they created (`conversations.embed_id`).
 * Adding them: mark the conversation routes `config: { auth: 'none' }`, try those headers here before
 * the session (keeping 401/429 and rate limits per CONTRACTS), and extend the predicates.
 */
export type Caller = { kind: 'user'; vendor: VendorRow; userId: number };

export async function resolveCaller(ctx: AppContext, request: FastifyRequest): Promise<Caller> {
  const auth = requireUser(request);
  const key = request.headers['x-vendor'];
  if (typeof key !== 'string' || key === '') throw badRequest('The X-Vendor header is required.');
  const vendor = await vendorFromHeader(ctx, auth, key);
  if (!vendor) throw notFound('Vendor');
  return { kind: 'user', vendor, userId: auth.user.id };
}

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
