import {
  INVITATION_TTL_HOURS,
  LINK_INVALID,
  type LinkInfo,
  type LinkPurpose,
  PASSWORD_RESET_TTL_MINUTES,
} from '@llmor/contracts';
import { publicBaseUrl } from '../../platform/config';
import type { AppContext } from '../../platform/context';
import { DUMMY_PASSWORD_HASH, hashPassword, randomToken, sha256Hex } from '../../platform/crypto';
import { badRequest } from '../../platform/errors';
import type { Identity, UserRow } from '../../platform/http/identity';
import { findVendorById } from '../vendors/repo';
import { attachUser, consumeLink, findUserById, findValidLink, insertLink, updateUser } from './repo';
import type { SessionVerifier } from './sessions';

/**
 * Single-use links (CONTRACTS "Organisations"): 256-bit random tokens, only their SHA-256 stored, an
 * invitation valid 7 days, a password reset 1 hour. Using one marks it used in the same transaction that
 * sets the password, so a link works once even when clicked twice at the same moment.
 */

const TTL_MS: Record<LinkPurpose, number> = {
  invite: INVITATION_TTL_HOURS * 3600_000,
  reset: PASSWORD_RESET_TTL_MINUTES * 60_000,
};
const CONSOLE_PATH: Record<LinkPurpose, string> = { invite: '/invitation', reset: '/reset-password' };

/** A person who was invited and has not set a password yet cannot sign in (their hash matches nothing). */
export const NO_PASSWORD_HASH = DUMMY_PASSWORD_HASH;
export const hasPassword = (user: UserRow) => user.passwordHash !== NO_PASSWORD_HASH;

/** Where people open the console: PUBLIC_URL, else the origin the request came to. */
export const consoleOrigin = (ctx: AppContext, requestOrigin: string) =>
  publicBaseUrl(ctx.config, requestOrigin);

/** Issues a link (retiring the person's earlier ones of that purpose) and answers its console URL. */
export async function issueLink(
  ctx: AppContext,
  opts: {
    userId: number;
    vendorId: number | null;
    purpose: LinkPurpose;
    createdBy: number | null;
    origin: string;
  },
): Promise<string> {
  const token = randomToken(32);
  await insertLink(ctx.db, {
    userId: opts.userId,
    vendorId: opts.vendorId,
    purpose: opts.purpose,
    tokenHash: sha256Hex(token),
    expiresAt: new Date(Date.now() + TTL_MS[opts.purpose]),
    createdBy: opts.createdBy,
  });
  return `${consoleOrigin(ctx, opts.origin)}${CONSOLE_PATH[opts.purpose]}/${token}`;
}

/** What a valid link is for (the page shows whom it invites to which vendor); anything else 400. */
export async function linkInfo(ctx: AppContext, token: string): Promise<LinkInfo> {
  const link = await findValidLink(ctx.db, sha256Hex(token), new Date());
  const user = link ? await findUserById(ctx.db, link.userId) : null;
  if (!link || !user?.active) throw badRequest(LINK_INVALID);
  const vendor = link.vendorId ? await findVendorById(ctx.db, link.vendorId) : null;
  return {
    purpose: link.purpose === 'reset' ? 'reset' : 'invite',
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    vendor_name: vendor?.name ?? null,
  };
}

/**
 * Uses a link: sets the password (and the names an invitation may carry), then signs this session in as
 * that person. An unknown, used or expired link, or one of an inactive user, changes nothing (400).
 */
export async function useLink(
  ctx: AppContext,
  sessions: SessionVerifier,
  identity: Identity,
  purpose: LinkPurpose,
  body: { token: string; password: string; firstname?: string; lastname?: string },
): Promise<UserRow> {
  const passwordHash = await hashPassword(body.password);
  const user = await consumeLink(ctx.db, sha256Hex(body.token), purpose, new Date(), async (link, tx) => {
    const person = await findUserById(tx, link.userId);
    if (!person?.active) throw badRequest(LINK_INVALID);
    await updateUser(tx, person.id, {
      passwordHash,
      ...(body.firstname !== undefined ? { firstname: body.firstname } : {}),
      ...(body.lastname !== undefined ? { lastname: body.lastname } : {}),
    });
    await attachUser(tx, identity.session.id, person.id);
    return person;
  });
  if (!user) throw badRequest(LINK_INVALID);
  await sessions.evict(identity.token);
  return (await findUserById(ctx.db, user.id)) ?? user;
}
