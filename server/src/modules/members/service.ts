import {
  ALREADY_MEMBER,
  LAST_OWNER,
  type ListEnvelope,
  type Member,
  type MemberInviteBody,
  type MemberInvited,
  type MembersQuery,
  type MemberUpdateBody,
  message,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { conflict, notFound } from '../../platform/errors';
import type { VendorRow } from '../../platform/http/identity';
import { hasPassword, issueLink, NO_PASSWORD_HASH } from '../auth/links';
import { findUserByEmail, insertUser } from '../auth/repo';
import type { SessionVerifier } from '../auth/sessions';
import { assertPlanAllows } from '../billing/service';
import { instanceMailer, vendorLocale, vendorMailer } from '../settings/service';
import { withVendorLock } from '../vendors/repo';
import { presentMember } from './present';
import {
  countActiveOwners,
  countMembers,
  deleteMembership,
  findMember,
  insertInvitation,
  listMembers,
  type MemberRow,
  updateMembership,
} from './repo';

export type MembersContext = AppContext & { sessions: SessionVerifier };

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

/** The invitation in the vendor's default language (Settings → Vendor). */
const invitationMail = async (ctx: AppContext, vendor: VendorRow, url: string) => {
  const locale = await vendorLocale(ctx, vendor.id);
  return {
    subject: message('invitationSubject', { vendor: vendor.name }, locale),
    text: message('invitationText', { vendor: vendor.name, url }, locale),
  };
};

/**
 * Issues and delivers a vendor's invitation link (docs/adr/0023-identity-across-tenants.md). Through the
 * instance's mail server it reaches only the mailbox, so it may set the account's first password. Otherwise
 * (no instance mail server, or it failed) the inviter may see the link — through the vendor's own SMTP or in
 * the answer — so it may set a password only for an account this very invitation created; for any other
 * account it accepts only while signed in as that person. Answers the link when it is to be shown.
 */
async function deliverInvitation(
  ctx: AppContext,
  vendor: VendorRow,
  inviterId: number | null,
  member: MemberRow,
): Promise<string | undefined> {
  const person = member.user;
  const issue = (setsPassword: boolean) =>
    issueLink(ctx, {
      userId: person.id,
      vendorId: vendor.id,
      purpose: 'invite',
      createdBy: inviterId,
      setsPassword,
    });
  const instance = instanceMailer(ctx);
  if (instance) {
    const url = await issue(!hasPassword(person));
    try {
      await instance.send({ to: person.email, ...(await invitationMail(ctx, vendor, url)) });
      return undefined;
    } catch (err) {
      ctx.log.warn({ err, vendor: vendor.id }, "the instance's mail server did not take the invitation");
    }
  }
  const url = await issue(member.createdAccount && !hasPassword(person));
  const own = await vendorMailer(ctx, vendor.id);
  if (own) {
    try {
      await own.send({ to: person.email, ...(await invitationMail(ctx, vendor, url)) });
      return undefined;
    } catch (err) {
      ctx.log.warn(
        { err, vendor: vendor.id },
        'the invitation mail could not be sent; the link is answered instead',
      );
    }
  }
  return url;
}

/**
 * Invites a person by email: a pending membership until they accept. Someone without an account gets one
 * (no password yet); someone with an account is asked, never added — the same answer either way.
 */
export async function inviteMember(
  ctx: AppContext,
  vendor: VendorRow,
  inviterId: number | null,
  body: MemberInviteBody,
): Promise<MemberInvited> {
  const email = body.email.trim().toLowerCase();
  const existing = await findUserByEmail(ctx.db, email);
  if (existing && (await findMember(ctx.db, vendor.id, existing.id))) {
    throw conflict(ALREADY_MEMBER, { email: ALREADY_MEMBER });
  }
  const userId = await withVendorLock(ctx.db, vendor.id, async (tx) => {
    await assertPlanAllows(ctx, tx, vendor.id, 'members');
    const person =
      existing ??
      (await insertUser(tx, {
        email,
        passwordHash: NO_PASSWORD_HASH,
        firstname: body.firstname ?? '',
        lastname: body.lastname ?? '',
        isSu: false,
      }));
    await insertInvitation(tx, vendor.id, person.id, {
      role: body.role,
      firstname: body.firstname ?? '',
      lastname: body.lastname ?? '',
      createdAccount: !existing,
    });
    return person.id;
  });
  const member = await requireMember(ctx, vendor.id, userId);
  const inviteUrl = await deliverInvitation(ctx, vendor, inviterId, member);
  return { data: presentMember(member), ...(inviteUrl ? { invite_url: inviteUrl } : {}) };
}

/** A new invitation link for someone who has not accepted yet (this vendor's earlier link stops working). */
export async function resendInvitation(
  ctx: AppContext,
  vendor: VendorRow,
  inviterId: number,
  userId: number,
): Promise<MemberInvited> {
  const member = await requireMember(ctx, vendor.id, userId);
  if (member.acceptedAt !== null) throw conflict(message('alreadyAccepted'));
  const inviteUrl = await deliverInvitation(ctx, vendor, inviterId, member);
  return { data: presentMember(member), ...(inviteUrl ? { invite_url: inviteUrl } : {}) };
}

/** Refuses a change that would leave the vendor without an active owner (under the vendor's lock). */
async function keepAnOwner(
  tx: AppContext['db'],
  vendorId: number,
  member: MemberRow,
  losesOwnership: boolean,
) {
  const isActiveOwner =
    member.role === 'owner' && member.membershipActive && member.acceptedAt !== null && member.user.active;
  if (isActiveOwner && losesOwnership && (await countActiveOwners(tx, vendorId)) <= 1) {
    throw conflict(LAST_OWNER);
  }
}

/** Role and whether the membership is active; the person's live sessions and relay sockets see it at once. */
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
