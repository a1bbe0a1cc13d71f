import { and, asc, count, desc, eq, ilike, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { likePattern } from '../../platform/db/search';
import type { MemberRole, UserRow } from '../../platform/http/identity';

const { users, vendorUsers, vendors } = schema;

export interface MemberRow {
  user: UserRow;
  role: MemberRole;
  membershipActive: boolean;
  /** Null while the invitation is pending. */
  acceptedAt: Date | null;
  invitedFirstname: string;
  invitedLastname: string;
  createdAccount: boolean;
  /** When the membership (the invitation) was made. */
  invitedAt: Date;
}

export interface MemberListOptions {
  search?: string;
  order: 'email' | 'firstname' | 'lastname' | 'role' | 'created_at' | 'last_login';
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const orderColumns = {
  email: sql`lower(${users.email})`,
  firstname: sql`lower(${users.firstname})`,
  lastname: sql`lower(${users.lastname})`,
  role: vendorUsers.role,
  created_at: vendorUsers.createdAt,
  last_login: users.lastLogin,
} as const;

function memberWhere(vendorId: number, search?: string): SQL {
  const conditions: SQL[] = [eq(vendorUsers.vendorId, vendorId)];
  if (search) {
    // A pending invitation is found by the names the inviter typed, not the account's.
    const p = likePattern(search);
    conditions.push(
      or(
        ilike(users.email, p),
        and(isNotNull(vendorUsers.acceptedAt), or(ilike(users.firstname, p), ilike(users.lastname, p))),
        and(
          isNull(vendorUsers.acceptedAt),
          or(ilike(vendorUsers.invitedFirstname, p), ilike(vendorUsers.invitedLastname, p)),
        ),
      )!,
    );
  }
  return and(...conditions)!;
}

const asMember = (r: {
  user: UserRow;
  role: string;
  active: boolean;
  acceptedAt: Date | null;
  invitedFirstname: string;
  invitedLastname: string;
  createdAccount: boolean;
  invitedAt: Date;
}): MemberRow => ({
  user: r.user,
  role: r.role === 'owner' ? 'owner' : 'member',
  membershipActive: r.active,
  acceptedAt: r.acceptedAt,
  invitedFirstname: r.invitedFirstname,
  invitedLastname: r.invitedLastname,
  createdAccount: r.createdAccount,
  invitedAt: r.invitedAt,
});

const memberColumns = {
  user: users,
  role: vendorUsers.role,
  active: vendorUsers.active,
  acceptedAt: vendorUsers.acceptedAt,
  invitedFirstname: vendorUsers.invitedFirstname,
  invitedLastname: vendorUsers.invitedLastname,
  createdAccount: vendorUsers.createdAccount,
  invitedAt: vendorUsers.createdAt,
};

export async function listMembers(db: Db, vendorId: number, opts: MemberListOptions): Promise<MemberRow[]> {
  const by = opts.dir === 'asc' ? asc : desc;
  const rows = await db
    .select(memberColumns)
    .from(vendorUsers)
    .innerJoin(users, eq(users.id, vendorUsers.userId))
    .where(memberWhere(vendorId, opts.search))
    .orderBy(by(orderColumns[opts.order]), asc(users.id))
    .offset(opts.offset)
    .limit(opts.limit);
  return rows.map(asMember);
}

export async function countMembers(db: Db, vendorId: number, search?: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(vendorUsers)
    .innerJoin(users, eq(users.id, vendorUsers.userId))
    .where(memberWhere(vendorId, search));
  return row?.n ?? 0;
}

export async function findMember(db: Db, vendorId: number, userId: number): Promise<MemberRow | null> {
  const rows = await db
    .select(memberColumns)
    .from(vendorUsers)
    .innerJoin(users, eq(users.id, vendorUsers.userId))
    .where(and(eq(vendorUsers.vendorId, vendorId), eq(vendorUsers.userId, userId)))
    .limit(1);
  return rows[0] ? asMember(rows[0]) : null;
}

/** Active owners of the vendor whose user account is active too. */
export async function countActiveOwners(db: Db, vendorId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(vendorUsers)
    .innerJoin(users, eq(users.id, vendorUsers.userId))
    .where(
      and(
        eq(vendorUsers.vendorId, vendorId),
        eq(vendorUsers.role, 'owner'),
        eq(vendorUsers.active, true),
        isNotNull(vendorUsers.acceptedAt),
        eq(users.active, true),
      ),
    );
  return row?.n ?? 0;
}

/** A pending membership: the person joins when they accept. */
export async function insertInvitation(
  db: Db,
  vendorId: number,
  userId: number,
  values: { role: MemberRole; firstname: string; lastname: string; createdAccount: boolean },
): Promise<void> {
  await db.insert(vendorUsers).values({
    vendorId,
    userId,
    role: values.role,
    invitedFirstname: values.firstname,
    invitedLastname: values.lastname,
    createdAccount: values.createdAccount,
  });
}

/** Accepts a pending invitation; false when there was none. */
export async function acceptInvitation(db: Db, vendorId: number, userId: number): Promise<boolean> {
  const rows = await db
    .update(vendorUsers)
    .set({ acceptedAt: new Date() })
    .where(
      and(eq(vendorUsers.vendorId, vendorId), eq(vendorUsers.userId, userId), isNull(vendorUsers.acceptedAt)),
    )
    .returning({ vendorId: vendorUsers.vendorId });
  return rows.length > 0;
}

/** Declines a pending invitation (an accepted membership stays); false when there was none. */
export async function deleteInvitation(db: Db, vendorId: number, userId: number): Promise<boolean> {
  const rows = await db
    .delete(vendorUsers)
    .where(
      and(eq(vendorUsers.vendorId, vendorId), eq(vendorUsers.userId, userId), isNull(vendorUsers.acceptedAt)),
    )
    .returning({ vendorId: vendorUsers.vendorId });
  return rows.length > 0;
}

export interface PendingInvitationRow {
  vendorId: number;
  vendorName: string;
  role: MemberRole;
  createdAt: Date;
}

/** A person's pending invitations to active vendors, newest first. */
export async function pendingInvitationsOf(db: Db, userId: number): Promise<PendingInvitationRow[]> {
  const rows = await db
    .select({
      vendorId: vendorUsers.vendorId,
      vendorName: vendors.name,
      role: vendorUsers.role,
      createdAt: vendorUsers.createdAt,
    })
    .from(vendorUsers)
    .innerJoin(vendors, eq(vendors.id, vendorUsers.vendorId))
    .where(and(eq(vendorUsers.userId, userId), isNull(vendorUsers.acceptedAt), eq(vendors.active, true)))
    .orderBy(desc(vendorUsers.createdAt));
  return rows.map((r) => ({ ...r, role: r.role === 'owner' ? 'owner' : 'member' }));
}

export async function updateMembership(
  db: Db,
  vendorId: number,
  userId: number,
  values: { role?: MemberRole; active?: boolean },
): Promise<void> {
  const set = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) return;
  await db
    .update(vendorUsers)
    .set(set)
    .where(and(eq(vendorUsers.vendorId, vendorId), eq(vendorUsers.userId, userId)));
}

export async function deleteMembership(db: Db, vendorId: number, userId: number): Promise<void> {
  await db.delete(vendorUsers).where(and(eq(vendorUsers.vendorId, vendorId), eq(vendorUsers.userId, userId)));
}
