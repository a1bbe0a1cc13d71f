import { and, eq, gt, isNotNull, isNull, lt, ne, or, sql } from 'drizzle-orm';
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

/** vendor id → role for every vendor the user belongs to (accepted and active memberships). */
async function membershipsOfUser(db: Db, userId: number): Promise<Map<number, MemberRole>> {
  const rows = await db
    .select({ vendorId: vendorUsers.vendorId, role: vendorUsers.role })
    .from(vendorUsers)
    .where(
      and(eq(vendorUsers.userId, userId), eq(vendorUsers.active, true), isNotNull(vendorUsers.acceptedAt)),
    );
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

/** Deletes every session of a person but `keepSessionId`; answers the deleted sessions' ids. */
export async function deleteOtherSessions(
  db: Db,
  userId: number,
  keepSessionId: number | null,
): Promise<number[]> {
  const rows = await db
    .delete(sessions)
    .where(
      and(eq(sessions.userId, userId), keepSessionId === null ? undefined : ne(sessions.id, keepSessionId)),
    )
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/** A person's sessions, most recently used first. */
export async function listUserSessions(db: Db, userId: number): Promise<SessionRow[]> {
  return db
    .select()
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(sql`${sessions.lastSeenAt} desc`);
}

/** Records that a session was used (the idle lifetime counts from here). */
export async function touchSession(db: Db, sessionId: number, at: Date): Promise<void> {
  await db.update(sessions).set({ lastSeenAt: at }).where(eq(sessions.id, sessionId));
}

/** Deletes sessions idle since `idleBefore` or opened before `openedBefore`. */
export async function deleteExpiredSessions(db: Db, idleBefore: Date, openedBefore: Date): Promise<number> {
  const rows = await db
    .delete(sessions)
    .where(or(lt(sessions.lastSeenAt, idleBefore), lt(sessions.createdAt, openedBefore)))
    .returning({ id: sessions.id });
  return rows.length;
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

/**
 * Stores a new link and retires the person's earlier unused links of the same purpose and vendor (a resend
 * replaces): one vendor's invitation never retires another vendor's.
 */
export async function insertLink(
  db: Db,
  values: Pick<
    typeof userTokens.$inferInsert,
    'userId' | 'vendorId' | 'purpose' | 'tokenHash' | 'expiresAt' | 'createdBy' | 'setsPassword'
  >,
): Promise<void> {
  await db.transaction(async (tx) => {
    await retireLinks(tx, values.userId, values.purpose, values.vendorId ?? null);
    await tx.insert(userTokens).values(values);
  });
}

/** Marks a person's unused links of a purpose (and vendor, for invitations) used. */
export async function retireLinks(
  db: Db,
  userId: number,
  purpose: string,
  vendorId: number | null,
): Promise<void> {
  await db
    .update(userTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(userTokens.userId, userId),
        eq(userTokens.purpose, purpose),
        vendorId === null ? isNull(userTokens.vendorId) : eq(userTokens.vendorId, vendorId),
        isNull(userTokens.usedAt),
      ),
    );
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
