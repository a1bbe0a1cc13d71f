import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { likePattern } from '../../platform/db/search';
import type { MemberRole, UserRow } from '../../platform/http/identity';

const { users, vendorUsers } = schema;

export interface MemberRow {
  user: UserRow;
  role: MemberRole;
  membershipActive: boolean;
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
    const p = likePattern(search);
    conditions.push(or(ilike(users.email, p), ilike(users.firstname, p), ilike(users.lastname, p))!);
  }
  return and(...conditions)!;
}

const asMember = (r: { user: UserRow; role: string; active: boolean }): MemberRow => ({
  user: r.user,
  role: r.role === 'owner' ? 'owner' : 'member',
  membershipActive: r.active,
});

const memberColumns = { user: users, role: vendorUsers.role, active: vendorUsers.active };

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
        eq(users.active, true),
      ),
    );
  return row?.n ?? 0;
}

export async function insertMembership(
  db: Db,
  vendorId: number,
  userId: number,
  role: MemberRole,
): Promise<void> {
  await db.insert(vendorUsers).values({ vendorId, userId, role });
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
