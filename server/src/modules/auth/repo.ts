import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import type { MemberRole, SessionRow, UserRow } from '../../platform/http/identity';

const { sessions, users, vendorUsers } = schema;

export type { SessionRow, UserRow };

export async function insertSession(db: Db, tokenHash: string, secret: string): Promise<void> {
  await db.insert(sessions).values({ tokenHash, secret });
}

export async function findSessionWithUser(
  db: Db,
  tokenHash: string,
): Promise<{ session: SessionRow; user: UserRow | null; memberships: Map<number, MemberRole> } | null> {
  const rows = await db
    .select({ session: sessions, user: users })
    .from(sessions)
    .leftJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  const memberships = row.user ? await membershipsOfUser(db, row.user.id) : new Map();
  return { session: row.session, user: row.user, memberships };
}

/** vendor id → role for every vendor the user belongs to. */
export async function membershipsOfUser(db: Db, userId: number): Promise<Map<number, MemberRole>> {
  const rows = await db
    .select({ vendorId: vendorUsers.vendorId, role: vendorUsers.role })
    .from(vendorUsers)
    .where(and(eq(vendorUsers.userId, userId), eq(vendorUsers.active, true)));
  return new Map(rows.map((r) => [r.vendorId, r.role === 'owner' ? 'owner' : 'member']));
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  return rows[0] ?? null;
}

export async function attachUser(db: Db, sessionId: number, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.update(sessions).set({ userId }).where(eq(sessions.id, sessionId));
    await tx.update(users).set({ lastLogin: new Date() }).where(eq(users.id, userId));
  });
}

export async function deleteSession(db: Db, sessionId: number): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

export async function insertUser(
  db: Db,
  values: Pick<typeof users.$inferInsert, 'email' | 'passwordHash' | 'firstname' | 'lastname' | 'isSu'>,
): Promise<UserRow> {
  const [row] = await db.insert(users).values(values).returning();
  return row!;
}

export async function setUserActive(db: Db, userId: number, active: boolean): Promise<void> {
  await db
    .update(users)
    .set({ active, modifiedAt: new Date() })
    .where(and(eq(users.id, userId)));
}

export async function findUserById(db: Db, userId: number): Promise<UserRow | null> {
  const rows = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return rows[0] ?? null;
}

export async function updateUser(
  db: Db,
  userId: number,
  values: Partial<Pick<typeof users.$inferInsert, 'firstname' | 'lastname' | 'passwordHash'>>,
): Promise<void> {
  if (Object.keys(values).length === 0) return;
  await db
    .update(users)
    .set({ ...values, modifiedAt: new Date() })
    .where(eq(users.id, userId));
}

const { userTokens } = schema;
export type LinkRow = typeof userTokens.$inferSelect;

/** Stores a new link and retires the person's earlier unused links of the same purpose (a resend replaces). */
export async function insertLink(
  db: Db,
  values: Pick<
    typeof userTokens.$inferInsert,
    'userId' | 'vendorId' | 'purpose' | 'tokenHash' | 'expiresAt' | 'createdBy'
  >,
): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(userTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(userTokens.userId, values.userId),
          eq(userTokens.purpose, values.purpose),
          isNull(userTokens.usedAt),
        ),
      );
    await tx.insert(userTokens).values(values);
  });
}

/** A link that is unused and unexpired, or null. */
export async function findValidLink(db: Db, tokenHash: string, now: Date): Promise<LinkRow | null> {
  const rows = await db
    .select()
    .from(userTokens)
    .where(and(eq(userTokens.tokenHash, tokenHash), isNull(userTokens.usedAt), gt(userTokens.expiresAt, now)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * Uses a link once: marks it used and runs `apply` in the same transaction. Two uses at once: the second
 * finds it used and gets null; if `apply` throws, the link stays unused.
 */
export async function consumeLink<T>(
  db: Db,
  tokenHash: string,
  purpose: string,
  now: Date,
  apply: (link: LinkRow, tx: Db) => Promise<T>,
): Promise<T | null> {
  return db.transaction(async (tx) => {
    const [link] = await tx
      .update(userTokens)
      .set({ usedAt: now })
      .where(
        and(
          eq(userTokens.tokenHash, tokenHash),
          eq(userTokens.purpose, purpose),
          isNull(userTokens.usedAt),
          gt(userTokens.expiresAt, now),
        ),
      )
      .returning();
    return link ? apply(link, tx as unknown as Db) : null;
  });
}
