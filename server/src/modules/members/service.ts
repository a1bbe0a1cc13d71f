import {
  LAST_OWNER,
  type ListEnvelope,
  type Member,
  type MemberInviteBody,
  type MemberInvited,
  type MembersQuery,
  type MemberUpdateBody,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import type { VendorRow } from '../../platform/http/identity';
import { consoleOrigin, hasPassword, issueLink, NO_PASSWORD_HASH } from '../auth/links';
import { findUserByEmail, insertUser, updateUser } from '../auth/repo';
import type { SessionVerifier } from '../auth/sessions';
import { assertPlanAllows } from '../billing/service';
import { mailerFor } from '../settings/service';
import { withVendorLock } from '../vendors/repo';
import {
  countActiveOwners,
  countMembers,
  deleteMembership,
  findMember,
  insertMembership,
  listMembers,
  type MemberRow,
  updateMembership,
} from './repo';

export type MembersContext = AppContext & { sessions: SessionVerifier };

export function presentMember(row: MemberRow): Member {
  return {
    id: row.user.id,
    firstname: row.user.firstname,
    lastname: row.user.lastname,
    email: row.user.email,
    role: row.role,
    active: row.membershipActive && row.user.active,
    invited: !hasPassword(row.user),
    last_login: row.user.lastLogin?.toISOString() ?? null,
    created_at: row.user.createdAt.toISOString(),
  };
}

export async function listVendorMembers(
  ctx: AppContext,
  vendorId: number,
  q: MembersQuery,
): Promise<ListEnvelope<Member>> {
  const page = Number(q.page ?? 0);
  const pageSize = Number(q.page_size ?? 20);
  const [rows, filtered, total] = await Promise.all([
    listMembers(ctx.db, vendorId, {
      search: q.search || undefined,
      order: q.order ?? 'email',
      dir: q.order_dir ?? 'asc',
      offset: page * pageSize,
      limit: pageSize,
    }),
    countMembers(ctx.db, vendorId, q.search || undefined),
    countMembers(ctx.db, vendorId),
  ]);
  return { data: rows.map(presentMember), total_count: total, filter_count: filtered };
}

export async function requireMember(ctx: AppContext, vendorId: number, userId: number): Promise<MemberRow> {
  const member = await findMember(ctx.db, vendorId, userId);
  if (!member) throw notFound('User');
  return member;
}

/** Mails the link; answers it instead when no mail server is set up or the mail could not go out. */
async function deliverInvitation(
  ctx: AppContext,
  vendor: VendorRow,
  to: string,
  url: string,
): Promise<string | undefined> {
  const mailer = await mailerFor(ctx, vendor.id);
  if (!mailer) return url;
  try {
    await mailer.send({
      to,
      subject: `You are invited to ${vendor.name} on llmor`,
      text:
        `You have been invited to join ${vendor.name} on llmor.\n\n` +
        `Open this link within 7 days to choose your password and sign in:\n${url}\n\n` +
        'If you did not expect this invitation, ignore this mail.',
    });
    return undefined;
  } catch (err) {
    ctx.log.warn(
      { err, vendor: vendor.id },
      'the invitation mail could not be sent; the link is answered instead',
    );
    return url;
  }
}

/**
 * Invites a person by email. Someone new gets an account without a password and an invitation link;
 * someone who already has an account is added at once and told by mail.
 */
export async function inviteMember(
  ctx: AppContext,
  vendor: VendorRow,
  inviterId: number | null,
  body: MemberInviteBody,
  requestOrigin: string,
): Promise<MemberInvited> {
  const email = body.email.trim().toLowerCase();
  let user = await findUserByEmail(ctx.db, email);
  if (user && (await findMember(ctx.db, vendor.id, user.id))) {
    throw conflict('This person is already a member.', { email: 'This person is already a member.' });
  }
  user = await withVendorLock(ctx.db, vendor.id, async (tx) => {
    await assertPlanAllows(ctx, tx, vendor.id, 'members');
    const invited =
      user ??
      (await insertUser(tx, {
        email,
        passwordHash: NO_PASSWORD_HASH,
        firstname: body.firstname ?? '',
        lastname: body.lastname ?? '',
        isSu: false,
      }));
    await insertMembership(tx, vendor.id, invited.id, body.role);
    return invited;
  });
  let inviteUrl: string | undefined;
  if (hasPassword(user)) {
    const mailer = await mailerFor(ctx, vendor.id);
    await mailer
      ?.send({
        to: email,
        subject: `You were added to ${vendor.name} on llmor`,
        text: `You can now work in ${vendor.name}: sign in at ${consoleOrigin(ctx, requestOrigin)}/login`,
      })
      .catch((err: unknown) => ctx.log.warn({ err }, 'the membership notice could not be sent'));
  } else {
    const url = await issueLink(ctx, {
      userId: user.id,
      vendorId: vendor.id,
      purpose: 'invite',
      createdBy: inviterId,
      origin: requestOrigin,
    });
    inviteUrl = await deliverInvitation(ctx, vendor, email, url);
  }
  const member = await requireMember(ctx, vendor.id, user.id);
  return { data: presentMember(member), ...(inviteUrl ? { invite_url: inviteUrl } : {}) };
}

/** A new invitation link for someone who has not accepted yet (the earlier link stops working). */
export async function resendInvitation(
  ctx: AppContext,
  vendor: VendorRow,
  inviterId: number,
  userId: number,
  requestOrigin: string,
): Promise<MemberInvited> {
  const member = await requireMember(ctx, vendor.id, userId);
  if (hasPassword(member.user)) throw conflict('This person has already accepted the invitation.');
  const url = await issueLink(ctx, {
    userId,
    vendorId: vendor.id,
    purpose: 'invite',
    createdBy: inviterId,
    origin: requestOrigin,
  });
  const inviteUrl = await deliverInvitation(ctx, vendor, member.user.email, url);
  return { data: presentMember(member), ...(inviteUrl ? { invite_url: inviteUrl } : {}) };
}

/** Refuses a change that would leave the vendor without an active owner (under the vendor's lock). */
async function keepAnOwner(
  tx: AppContext['db'],
  vendorId: number,
  member: MemberRow,
  losesOwnership: boolean,
) {
  const isActiveOwner = member.role === 'owner' && member.membershipActive && member.user.active;
  if (isActiveOwner && losesOwnership && (await countActiveOwners(tx, vendorId)) <= 1) {
    throw conflict(LAST_OWNER);
  }
}

/** Names, role and whether the membership is active; the person's live sessions see it at once. */
export async function updateMember(
  ctx: MembersContext,
  vendorId: number,
  userId: number,
  body: MemberUpdateBody,
): Promise<Member> {
  await withVendorLock(ctx.db, vendorId, async (tx) => {
    const member = await findMember(tx, vendorId, userId);
    if (!member) throw notFound('User');
    await keepAnOwner(tx, vendorId, member, body.role === 'member' || body.active === false);
    await updateMembership(tx, vendorId, userId, { role: body.role, active: body.active });
    await updateUser(tx, userId, {
      ...(body.firstname !== undefined ? { firstname: body.firstname } : {}),
      ...(body.lastname !== undefined ? { lastname: body.lastname } : {}),
    });
  });
  await ctx.sessions.revokeUser(userId);
  return presentMember(await requireMember(ctx, vendorId, userId));
}

/** Removes the membership (the account stays); the person's live sessions lose the vendor at once. */
export async function removeMember(ctx: MembersContext, vendorId: number, userId: number): Promise<void> {
  await withVendorLock(ctx.db, vendorId, async (tx) => {
    const member = await findMember(tx, vendorId, userId);
    if (!member) throw notFound('User');
    await keepAnOwner(tx, vendorId, member, true);
    await deleteMembership(tx, vendorId, userId);
  });
  await ctx.sessions.revokeUser(userId);
}
