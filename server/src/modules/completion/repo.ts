import { and, between, desc, eq, getTableColumns, sql, type WithSubquery } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { type Columns, jsonColumns } from '../../platform/db/json';
import { type Bound, preparedOnce } from '../../platform/db/prepared';
import { reservationUpsert, tokensAddition } from '../billing/repo';
import type { ReplyTerms } from '../billing/service';
import { leaseRelease, type MessageRow, type NewMessage } from '../conversations/repo';
import { type InstalledFunctionRow, installedFunctionsJson } from '../functions/repo';
import type { ContextMessage } from './input';

const { conversations, messages, usageRecords } = schema;

export type { AppRow } from '../../platform/http/identity';
export { findVendorModel, type VendorModelRow } from '../models/repo';

type UsageValues = Pick<
  typeof usageRecords.$inferInsert,
  'appId' | 'vendorModelId' | 'conversationId' | 'tokensPrompt' | 'tokensCompletion' | 'costMinor'
>;
type BoundUsage = { [K in keyof UsageValues]-?: Bound<UsageValues[K]> };

export async function insertUsage(db: Db, vendorId: number, values: UsageValues): Promise<void> {
  await usageInsert(db, vendorId, values);
}

const usageInsert = (db: Db, vendorId: Bound<number>, values: UsageValues | BoundUsage) =>
  db.insert(usageRecords).values({ ...values, vendorId, requests: 1 });

/** The first and the last write of a reply are prepared once (docs/adr/0043-hot-statements-prepared-once.md). */
const bound = {
  vendorId: sql.placeholder('vendorId'),
  conversationId: sql.placeholder('conversationId'),
  holder: sql.placeholder('holder'),
};

/**
 * What the first write answers when it took the lease: the user's message, the context and the tools.
 * `earlier` holds the messages after the kept context's `since` when the statement `verified` it, else
 * the newest window; oldest first either way.
 */
export interface LeaseClaimed {
  earlier: ContextMessage[];
  verified: boolean;
  posted: MessageRow;
  installed: InstalledFunctionRow[];
}

/**
 * The context a process kept of the conversation (docs/adr/0050-reply-context-kept-between-replies.md):
 * `count` messages with ids from `from` through `since`. Nothing kept is `{since: 0, from: 0, count: 0}`,
 * which the statement verifies trivially, reading the whole window after id 0.
 */
export interface KeptRange {
  since: number;
  from: number;
  count: number;
}

export const NOTHING_KEPT: KeptRange = { since: 0, from: 0, count: 0 };

/** A reply's claim on its conversation: the lease, the user's message, and the plan's terms to count it against. */
export interface LeaseClaim {
  vendorId: number;
  conversationId: number;
  appId: number;
  lease: { holder: string; ms: number; history: number; kept?: KeptRange };
  posted: NewMessage;
  /** Count the reply's request against these terms first (absent: nothing is counted). */
  reserve?: ReplyTerms;
}

/**
 * Takes the conversation's reply lease for `holder` (an instance id, ADR 0025) for `leaseMs` if none is
 * held — one atomic update, so of two instances racing for it exactly one wins — and in the same statement
 * stores the user's message `posted` and reads the conversation's last `history` messages before it, oldest
 * first (the reply's context; only those after `lease.kept` when the statement verifies it, see
 * `LeaseClaimed`), and the app's installed functions (its tools). Null when a lease is held,
 * live or lapsed (nothing is stored then): a lapsed one is let go by `releaseStaleReplyLeases`, which stores
 * its notice. With `reserve`, the statement first counts the reply's request against the plan's terms
 * (billing's `reservationUpsert`) and takes the lease only if it was counted: `'refused'` past the limits,
 * nothing taken or stored (docs/adr/0046).
 */
export async function claimReplyLease(
  db: Db,
  { vendorId, conversationId, appId, lease, posted, reserve }: LeaseClaim,
): Promise<LeaseClaimed | 'refused' | null> {
  const values = {
    vendorId,
    conversationId,
    holder: lease.holder,
    leaseSeconds: lease.ms / 1000,
    history: lease.history,
    role: posted.role,
    creator: posted.creator,
    message: posted.message ?? null,
    appId,
    ...(lease.kept ?? NOTHING_KEPT),
  };
  if (!reserve) {
    const [row] = await preparedOnce(db, 'claim_reply_lease', leaseClaim).execute(values);
    return row ? { ...row, earlier: contextOf(row.earlier) } : null;
  }
  const { requests, tokens } = reserve.limits;
  // A limit of 0 allows nothing, not even the first row's insert (billing's `reserveRequest`).
  if (requests === 0 || tokens === 0) return 'refused';
  const [row] = await preparedOnce(db, 'claim_reply_lease_reserved', reservedLeaseClaim).execute({
    ...values,
    periodStart: reserve.period.start,
    requests,
    tokens,
  });
  if (!row) return 'refused';
  return (
    row.posted && {
      earlier: contextOf(row.earlier),
      verified: row.verified,
      posted: row.posted,
      installed: row.installed,
    }
  );
}

/** The context's columns as messages, oldest first (they are read newest first). */
function contextOf(columns: Columns<ContextMessage>): ContextMessage[] {
  const { id, role, message, functionCalls, functionResponse } = columns;
  const out: ContextMessage[] = new Array(id.length);
  for (let i = 0; i < id.length; i++) {
    out[i] = {
      id: id[i]!,
      role: role[i]!,
      message: message[i]!,
      functionCalls: functionCalls[i]!,
      functionResponse: functionResponse[i]!,
    };
  }
  return out.sort((a, b) => a.id - b.id);
}

/**
 * The lease taken (`leased`, only when `counted` has a row), the user's message stored with it, and what
 * the statement reads: the tools and the context, after the kept context once `checked` verified it.
 */
function leaseWrites(db: Db, counted?: WithSubquery) {
  const leased = db.$with('leased').as(
    db
      .update(conversations)
      .set({
        replyLeaseUntil: sql`now() + make_interval(secs => ${sql.placeholder('leaseSeconds')})`,
        replyLeaseHolder: sql`${bound.holder}`,
      })
      .where(
        and(
          eq(conversations.vendorId, bound.vendorId),
          eq(conversations.id, bound.conversationId),
          sql`${conversations.replyLeaseUntil} is null`,
          counted && sql`exists (select from ${counted})`,
          // This transaction's commit does not wait for its flush: nothing it writes is acknowledged before
          // the reply's last write, whose synchronous commit flushes the log through this one too
          // (docs/adr/0054-dependable-when-the-database-fails.md, "One flush a send").
          sql`set_config('synchronous_commit', 'off', true) = 'off'`,
        ),
      )
      .returning({ id: conversations.id }),
  );
  // Inserted only when the lease was taken; drizzle's insert … select wants every column, so spelt out.
  const post = db.$with('post', getTableColumns(messages)).as(sql`
    insert into ${messages} (vendor_id, conversation_id, role, creator, message)
    select ${bound.vendorId}::integer, id, ${sql.placeholder('role')}::text, ${sql.placeholder('creator')}::text, ${sql.placeholder('message')}::text
    from ${leased}
    returning *`);
  const ofConversation = and(
    eq(messages.vendorId, bound.vendorId),
    eq(messages.conversationId, bound.conversationId),
  );
  const since = sql.placeholder('since');
  // The kept context is the conversation's messages from `from` through `since` only if there are still
  // `count` of them: messages are never changed or deleted, so a different count is a message committed
  // late inside the range (docs/adr/0050-reply-context-kept-between-replies.md).
  const checked = db.$with('checked').as(
    db
      .select({ verified: sql<boolean>`count(*) = ${sql.placeholder('count')}`.as('verified') })
      .from(messages)
      .where(and(ofConversation, between(messages.id, sql.placeholder('from'), since))),
  );
  // The statement's snapshot predates the insert: these are the messages before the user's, after the
  // kept context when it holds. Only the columns the prompt reads, as one JSON value of columns: a row each
  // would be sent and mapped 199 times, and a list of objects costs PostgreSQL ~3× as much to build
  // (docs/adr/0026-messages-contract.md "Amended 2026-11-25: a lean reply path").
  const recent = db
    .select({
      id: messages.id,
      role: messages.role,
      message: messages.message,
      functionCalls: messages.functionCalls,
      functionResponse: messages.functionResponse,
    })
    .from(messages)
    .where(
      and(
        ofConversation,
        sql`${messages.id} > (select case when ${checked.verified} then ${since}::integer else 0 end from ${checked})`,
      ),
    )
    .orderBy(desc(messages.id))
    .limit(sql.placeholder('history'))
    .as('recent');
  const read = {
    installed: installedFunctionsJson(db, bound.vendorId, sql.placeholder('appId')),
    earlier: jsonColumns<ContextMessage>(recent),
    verified: sql<boolean>`(select ${checked.verified} from ${checked})`,
  };
  return { leased, post, checked, read };
}

function leaseClaim(db: Db, name: string) {
  const { leased, post, checked, read } = leaseWrites(db);
  // One row when the lease was taken, none when it is held.
  return db
    .with(leased, post, checked)
    .select({ posted: post._.selectedFields, ...read })
    .from(post)
    .prepare(name);
}

function reservedLeaseClaim(db: Db, name: string) {
  const counted = db.$with('counted').as(
    reservationUpsert(db, {
      vendorId: bound.vendorId,
      periodStart: sql.placeholder('periodStart'),
      requests: sql.placeholder('requests'),
      tokens: sql.placeholder('tokens'),
    }),
  );
  const { leased, post, checked, read } = leaseWrites(db, counted);
  // No row when the request was not counted; a row without `posted` when the lease is held.
  return db
    .with(counted, leased, post, checked)
    .select({ posted: post._.selectedFields, ...read })
    .from(counted)
    .leftJoin(post, sql`true`)
    .prepare(name);
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
 * lease was let go (null when the lease was not `holder`'s). Prepared in three shapes: without usage, with
 * usage, with usage and the plan's tokens; the messages, however many, are one JSON value.
 */
export async function finishReply(
  db: Db,
  {
    vendorId,
    conversationId,
    holder,
    stored,
    usage,
  }: { vendorId: number; conversationId: number; holder: string; stored: NewMessage[]; usage?: FinalUsage },
): Promise<{ messages: MessageRow[]; released: { state: unknown } | null }> {
  const tokens = usage?.plan && usage.plan.tokens > 0 ? usage.plan : undefined;
  const shape = !usage ? 'finish_reply' : tokens ? 'finish_reply_usage_tokens' : 'finish_reply_usage';
  const rows = await preparedOnce(db, shape, (db, name) => lastWrite(db, name, !!usage, !!tokens)).execute({
    vendorId,
    conversationId,
    holder,
    stored: JSON.stringify(stored),
    ...(usage && {
      appId: usage.record.appId ?? null,
      vendorModelId: usage.record.vendorModelId ?? null,
      usageConversationId: usage.record.conversationId ?? null,
      tokensPrompt: usage.record.tokensPrompt ?? 0,
      tokensCompletion: usage.record.tokensCompletion ?? 0,
      costMinor: usage.record.costMinor ?? 0,
    }),
    ...(tokens && { periodStart: tokens.periodStart, tokens: tokens.tokens }),
  });
  // The state is never null, so a null one says the lease was not `holder`'s (or no row: neither).
  const state = rows.find((row) => row.state !== null)?.state;
  return {
    messages: rows.flatMap((row) => (row.message ? [row.message] : [])).sort((a, b) => a.id - b.id),
    released: state === undefined ? null : { state },
  };
}

function lastWrite(db: Db, name: string, usage: boolean, tokens: boolean) {
  const released = db
    .$with('released')
    .as(leaseRelease(db, bound.vendorId, bound.conversationId, bound.holder));
  const writes: WithSubquery[] = [released];
  if (usage) {
    const record: BoundUsage = {
      appId: sql.placeholder('appId'),
      vendorModelId: sql.placeholder('vendorModelId'),
      conversationId: sql.placeholder('usageConversationId'),
      tokensPrompt: sql.placeholder('tokensPrompt'),
      tokensCompletion: sql.placeholder('tokensCompletion'),
      costMinor: sql.placeholder('costMinor'),
    };
    writes.push(db.$with('usage').as(usageInsert(db, bound.vendorId, record)));
  }
  if (tokens) {
    const addition = tokensAddition(
      db,
      bound.vendorId,
      sql.placeholder('periodStart'),
      sql.placeholder('tokens'),
    );
    writes.push(db.$with('tokens').as(addition));
  }
  // The messages in their order, from one JSON list (its keys are NewMessage's); absent lists are the
  // columns' default, empty.
  const added = db.$with('added', getTableColumns(messages)).as(sql`
    insert into ${messages} (vendor_id, conversation_id, role, creator, message, function_calls, function_response, sources)
    select ${bound.vendorId}::integer, ${bound.conversationId}::integer, m.role, m.creator, m.message,
      coalesce(m.calls, '[]'), m.response, coalesce(m.sources, '[]')
    from rows from (json_to_recordset(${sql.placeholder('stored')}::json)
      as (role text, creator text, message text, "functionCalls" jsonb, "functionResponse" text, sources jsonb))
      with ordinality as m(role, creator, message, calls, response, sources, n)
    order by m.n
    returning *`);
  // Unreferenced data-modifying CTEs still run, each exactly once (PostgreSQL's WITH). The full join
  // answers the messages with the state, or the state alone when there are none.
  return db
    .with(...writes, added)
    .select({ message: added._.selectedFields, state: released.state })
    .from(released)
    .fullJoin(added, sql`true`)
    .prepare(name);
}
