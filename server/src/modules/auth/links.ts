import {
  INVITATION_TTL_HOURS,
  LINK_INVALID,
  type LinkPurpose,
  PASSWORD_RESET_TTL_MINUTES,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { DUMMY_PASSWORD_HASH, randomToken, sha256Hex } from '../../platform/crypto';
import type { Db } from '../../platform/db';
import { badRequest } from '../../platform/errors';
import type { UserRow } from '../../platform/http/identity';
import { consumeLink, findUserById, findValidLink, insertLink, type LinkRow } from './repo';

/**
 * Single-use links (docs/adr/0023-identity-across-tenants.md): 256-bit random tokens, only their SHA-256
 * stored, an invitation valid 7 days, a password reset 1 hour. Using one marks it used in the same
 * transaction that acts on it, so a link works once even when clicked twice at the same moment. Each
 * vendor's invitation is its own link; whether a link may set a password is decided when it is issued.
 */

const TTL_MS: Record<LinkPurpose, number> = {
  invite: INVITATION_TTL_HOURS * 3600_000,
  reset: PASSWORD_RESET_TTL_MINUTES * 60_000,
};
const CONSOLE_PATH: Record<LinkPurpose, string> = { invite: '/invitation', reset: '/reset-password' };

/** A person who was invited and has not set a password yet cannot sign in (their hash matches nothing). */
export const NO_PASSWORD_HASH = DUMMY_PASSWORD_HASH;
export const hasPassword = (user: UserRow) => user.passwordHash !== NO_PASSWORD_HASH;

/** Issues a link (retiring the person's earlier ones of that purpose and vendor) and answers its console URL. */
export async function issueLink(
  ctx: AppContext,
  opts: {
    userId: number;
    vendorId: number | null;
    purpose: LinkPurpose;
    createdBy: number | null;
    setsPassword: boolean;
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
    setsPassword: opts.setsPassword,
  });
  return `${ctx.publicUrl}${CONSOLE_PATH[opts.purpose]}/${token}`;
}

/** A valid link of an active person, or 400 `LINK_INVALID`. */
export async function findLink(ctx: AppContext, token: string): Promise<{ link: LinkRow; user: UserRow }> {
  const link = await findValidLink(ctx.db, sha256Hex(token), new Date());
  const user = link ? await findUserById(ctx.db, link.userId) : null;
  if (!link || !user?.active) throw badRequest(LINK_INVALID);
  return { link, user };
}

/**
 * Uses a link once: `apply` runs in the transaction that marks it used, with the person; an unknown, used
 * or expired link, one of another purpose or of an inactive person changes nothing (400).
 */
export async function spendLink<T>(
  ctx: AppContext,
  token: string,
  purpose: LinkPurpose,
  apply: (link: LinkRow, person: UserRow, tx: Db) => Promise<T>,
): Promise<T> {
  const result = await consumeLink(ctx.db, sha256Hex(token), purpose, new Date(), async (link, tx) => {
    const person = await findUserById(tx, link.userId);
    if (!person?.active) throw badRequest(LINK_INVALID);
    return { value: await apply(link, person, tx) };
  });
  if (!result) throw badRequest(LINK_INVALID);
  return result.value;
}
