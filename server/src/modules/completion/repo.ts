import { and, desc, eq, getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { tokensAddition } from '../billing/repo';
import { leaseRelease, type MessageRow, type NewMessage } from '../conversations/repo';
import { type InstalledFunctionRow, installedFunctionsJson } from '../functions/repo';

const { conversations, messages, usageRecords } = schema;

export type { AppRow } from '../../platform/http/identity';
export { findVendorModel, type VendorModelRow } from '../models/repo';

type UsageValues = Pick<
  typeof usageRecords.$inferInsert,
  'appId' | 'vendorModelId' | 'conversationId' | 'tokensPrompt' | 'tokensCompletion' | 'costMinor'
>;

export async function insertUsage(db: Db, vendorId: number, values: UsageValues): Promise<void> {
  await usageInsert(db, vendorId, values);
}

const usageInsert = (db: Db, vendorId: number, values: UsageValues) =>
  db.insert(usageRecords).values({ ...values, vendorId, requests: 1 });

/**
 * Takes the conversation's reply lease for `holder` (an instance id, ADR 0025) for `leaseMs` if none is
 * held — one atomic update, so of two instances racing for it exactly one wins — and in the same statement
 * stores the user's message `posted` and reads the conversation's last `history` messages before it, oldest
 * first (the reply's context), and the app's installed functions (its tools). Null when a lease is held, live or lapsed (nothing is stored then): a lapsed
 * one is let go by `releaseStaleReplyLeases`, which stores its notice.
 */
export async function claimReplyLease(
  db: Db,
  vendorId: number,
  conversationId: number,
  lease: { holder: string; ms: number; history: number },
  posted: NewMessage,
  appId: number,
): Promise<{ earlier: MessageRow[]; posted: MessageRow; installed: InstalledFunctionRow[] } | null> {
  const leased = db.$with('leased').as(
    db
      .update(conversations)
      .set({
        replyLeaseUntil: sql`now() + make_interval(secs => ${lease.ms / 1000})`,
        replyLeaseHolder: lease.holder,
      })
      .where(
        and(
          eq(conversations.vendorId, vendorId),
          eq(conversations.id, conversationId),
          sql`${conversations.replyLeaseUntil} is null`,
        ),
      )
      .returning({ id: conversations.id }),
  );
  // Inserted only when the lease was taken; drizzle's insert … select wants every column, so spelt out.
  const post = db.$with('post', getTableColumns(messages)).as(sql`
    insert into ${messages} (vendor_id, conversation_id, role, creator, message)
    select ${vendorId}::integer, id, ${posted.role}::text, ${posted.creator}::text, ${posted.message ?? null}::text
    from ${leased}
    returning *`);
  // The statement's snapshot predates the insert: these are the messages before the user's.
  const recent = db
    .select()
    .from(messages)
    .where(and(eq(messages.vendorId, vendorId), eq(messages.conversationId, conversationId)))
    .orderBy(desc(messages.id))
    .limit(lease.history)
    .as('recent');
  // One row per earlier message, or one without when there are none; no row when the lease is held.
  const rows = await db
    .with(leased, post)
    .select({
      posted: post._.selectedFields,
      installed: installedFunctionsJson(db, vendorId, appId),
      message: recent._.selectedFields,
    })
    .from(post)
    .leftJoinLateral(recent, sql`true`);
  if (rows.length === 0) return null;
  const earlier = rows.flatMap((row) => (row.message ? [row.message] : [])).sort((a, b) => a.id - b.id);
  const [first] = rows;
  return { earlier, posted: first!.posted, installed: first!.installed };
}

/** A model request's usage as the reply's last write records it. */
export interface FinalUsage {
  record: UsageValues;
  /** The plan's period the reply's request was reserved in, and the tokens to add to it. */
  plan?: { periodStart: Date; tokens: number };
}

/**
 * A reply's last write, one statement (docs/adr/0026-messages-contract.md "Amended"): stores its last
 * messages, the usage of its last model request with the plan's tokens, and lets go of the lease if
 * `holder` still holds it. Answers the stored messages, oldest first, and the conversation's state as the
 * lease was let go (null when the lease was not `holder`'s).
 */
export async function finishReply(
  db: Db,
  vendorId: number,
  conversationId: number,
  holder: string,
  stored: NewMessage[],
  usage?: FinalUsage,
): Promise<{ messages: MessageRow[]; released: { state: unknown } | null }> {
  const released = db.$with('released').as(leaseRelease(db, vendorId, conversationId, holder));
  const writes: WithSubquery[] = [released];
  if (usage) writes.push(db.$with('usage').as(usageInsert(db, vendorId, usage.record)));
  if (usage?.plan && usage.plan.tokens > 0) {
    const { periodStart, tokens } = usage.plan;
    writes.push(db.$with('tokens').as(tokensAddition(db, vendorId, periodStart, tokens)));
  }
  if (stored.length === 0) {
    const [row] = await db
      .with(...writes)
      .select({ state: released.state })
      .from(released);
    return { messages: [], released: row ?? null };
  }
  const added = db.$with('added').as(
    db
      .insert(messages)
      .values(stored.map((message) => ({ ...message, vendorId, conversationId })))
      .returning(),
  );
  // Unreferenced data-modifying CTEs still run, each exactly once (PostgreSQL's WITH); the state is never
  // null, so a null one says the lease was not `holder`'s.
  const rows = await db
    .with(...writes, added)
    .select({ message: added._.selectedFields, state: released.state })
    .from(added)
    .leftJoin(released, sql`true`);
  const first = rows[0];
  return {
    messages: rows.map((row) => row.message).sort((a, b) => a.id - b.id),
    released: first && first.state !== null ? { state: first.state } : null,
  };
}
