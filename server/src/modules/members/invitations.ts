import {
  INVITATION_SIGN_IN,
  type InvitationAcceptBody,
  LINK_INVALID,
  type LinkInfo,
  type PendingInvitation,
} from '@llmor/contracts';
import { hashPassword } from '../../platform/crypto';
import { badRequest, notFound, validationError } from '../../platform/errors';
import type { Identity, SignedIn, UserRow } from '../../platform/http/identity';
import { findLink, hasPassword, spendLink } from '../auth/links';
import { attachUser, findUserById, retireLinks, updateUser } from '../auth/repo';
import { findVendorById } from '../vendors/repo';
import { acceptInvitation, deleteInvitation, findMember, pendingInvitationsOf } from './repo';
import type { MembersContext } from './service';

/**
 * Accepting invitations (docs/adr/0023-identity-across-tenants.md): a person joins a vendor only by their own
 * act — with a link that may set their first password, or signed in as themselves (with the link, or from
 * their account's list of pending invitations).
 */

/** What a link is for, as its page shows it; an invitation already accepted or withdrawn is invalid. */
export async function linkInfo(ctx: MembersContext, token: string): Promise<LinkInfo> {
  const { link, user } = await findLink(ctx, token);
  if (link.purpose === 'reset') {
    return {
      purpose: 'reset',
      action: 'set_password',
      email: user.email,
      firstname: user.firstname,
      lastname: user.lastname,
      vendor_name: null,
    };
  }
  const member = link.vendorId === null ? null : await findMember(ctx.db, link.vendorId, user.id);
  const vendor = link.vendorId === null ? null : await findVendorById(ctx.db, link.vendorId);
  if (!member || member.acceptedAt !== null || !vendor) throw badRequest(LINK_INVALID);
  return {
    purpose: 'invite',
    action: link.setsPassword && !hasPassword(user) ? 'set_password' : 'sign_in',
    email: user.email,
    // What the inviter typed: an existing account's own names are not the link holder's to read.
    firstname: member.invitedFirstname,
    lastname: member.invitedLastname,
    vendor_name: vendor.name,
  };
}

/**
 * Accepts an invitation link. Signed in as the invited person: joins. Otherwise only a link that may set the
 * password does anything: it sets it (and the names), signs this session in and joins. Anything else changes
 * nothing, and the link stays usable by its rightful holder.
 */
export async function acceptInvitationLink(
  ctx: MembersContext,
  identity: Identity,
  body: InvitationAcceptBody,
): Promise<UserRow> {
  const passwordHash = body.password === undefined ? null : await hashPassword(body.password);
  const signedInAs = identity.user?.active ? identity.user.id : null;
  const person = await spendLink(ctx, body.token, 'invite', async (link, person, tx) => {
    if (link.vendorId === null) throw badRequest(LINK_INVALID);
    if (signedInAs !== person.id) {
      if (!link.setsPassword || hasPassword(person)) throw badRequest(INVITATION_SIGN_IN);
      if (passwordHash === null) throw validationError({ password: 'Required' });
      await updateUser(tx, person.id, {
        passwordHash,
        ...(body.firstname !== undefined ? { firstname: body.firstname } : {}),
        ...(body.lastname !== undefined ? { lastname: body.lastname } : {}),
      });
      await attachUser(tx, identity.session.id, person.id);
    }
    if (!(await acceptInvitation(tx, link.vendorId, person.id))) throw badRequest(LINK_INVALID);
    return person;
  });
  await ctx.sessions.evict(identity.token);
  await ctx.sessions.revokeUser(person.id, { sockets: false });
  return (await findUserById(ctx.db, person.id)) ?? person;
}

export async function listPendingInvitations(
  ctx: MembersContext,
  identity: SignedIn,
): Promise<PendingInvitation[]> {
  const rows = await pendingInvitationsOf(ctx.db, identity.user.id);
  return rows.map((r) => ({
    vendor_id: r.vendorId,
    vendor_name: r.vendorName,
    role: r.role,
    created_at: r.createdAt.toISOString(),
  }));
}

/**
 * Answers the signed-in person's own pending invitation to a vendor with `answer` (accept or decline); its
 * links stop working. No pending invitation: 404.
 */
async function answerInvitation(
  ctx: MembersContext,
  identity: SignedIn,
  vendorId: number,
  answer: (db: MembersContext['db'], vendorId: number, userId: number) => Promise<boolean>,
): Promise<PendingInvitation> {
  const pending = (await listPendingInvitations(ctx, identity)).find((i) => i.vendor_id === vendorId);
  if (!pending || !(await answer(ctx.db, vendorId, identity.user.id))) throw notFound('Invitation');
  await retireLinks(ctx.db, identity.user.id, 'invite', vendorId);
  await ctx.sessions.revokeUser(identity.user.id, { sockets: false });
  return pending;
}

export const acceptOwnInvitation = (ctx: MembersContext, identity: SignedIn, vendorId: number) =>
  answerInvitation(ctx, identity, vendorId, acceptInvitation);

export async function declineOwnInvitation(ctx: MembersContext, identity: SignedIn, vendorId: number) {
  await answerInvitation(ctx, identity, vendorId, deleteInvitation);
}
