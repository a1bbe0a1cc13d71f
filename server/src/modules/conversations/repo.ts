import { and, asc, count, desc, eq, getTableColumns, lt, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { type Bound, preparedOnce } from '../../platform/db/prepared';
import type { AppRow } from '../../platform/http/identity';
import { planTermsQuery } from '../billing/repo';
import type { PlanTerms } from '../billing/service';
import type { VendorModelRow } from '../models/repo';

const { apps, conversations, messages, vendorModels, vendors } = schema;
type VendorRow = typeof vendors.$inferSelect;
export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type NewMessage = Pick<typeof messages.$inferInsert, 'role' | 'creator' | 'message'> &
  Partial<Pick<typeof messages.$inferInsert, 'functionCalls' | 'functionResponse' | 'sources'>>;

export async function insertConversation(
  db: Db,
  vendorId: number,
  values: Pick<
    typeof conversations.$inferInsert,
    'appId' | 'token' | 'channel' | 'parameters' | 'createdBy'
  > &
    Partial<Pick<typeof conversations.$inferInsert, 'clientId' | 'embedId'>>,
): Promise<ConversationRow> {
  const [row] = await db
    .insert(conversations)
    .values({ ...values, vendorId })
    .returning();
  return row!;
}

export async function findConversation(
  db: Db,
  vendorId: number,
  token: string,
): Promise<ConversationRow | null> {
  const rows = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.vendorId, vendorId), eq(conversations.token, token)))
    .limit(1);
  return rows[0] ?? null;
}

export interface ConversationWithApp {
  conversation: ConversationRow;
  app: AppRow;
  model: VendorModelRow | null;
  plan: PlanTerms | null;
}

/**
 * A conversation with its app, the app's completion model (null if none) and the vendor's plan in force
 * (null: none, unlimited), in one statement: a send needs all of them. Prepared once
 * (docs/adr/0043-hot-statements-prepared-once.md).
 */
export async function findConversationWithApp(
  db: Db,
  vendorId: number,
  token: string,
): Promise<ConversationWithApp | null> {
  const rows = await preparedOnce(db, 'conversation_with_app', conversationWithApp).execute({
    vendorId,
    token,
  });
  return rows[0] ?? null;
}

/**
 * The vendor a key names (the `X-Vendor` header) with its conversation of `token`, that conversation's app,
 * the app's completion model and the vendor's plan in force, in one statement (the pipeline's `vendorWith`,
 * docs/adr/0046): a console send's first two reads as one. The conversation is looked up under the
 * vendor's id only. Null when no vendor has the key; `found` null when it has no such conversation.
 */
export async function findVendorConversationWithApp(
  db: Db,
  vendorKey: string,
  token: string | null,
): Promise<{ vendor: VendorRow; found: ConversationWithApp | null } | null> {
  const [row] = await preparedOnce(db, 'vendor_conversation_with_app', vendorConversationWithApp).execute({
    vendorKey,
    token,
  });
  if (!row) return null;
  const { vendor, conversation, app, model, plan } = row;
  return { vendor, found: conversation && app ? { conversation, app, model, plan } : null };
}

function vendorConversationWithApp(db: Db, name: string) {
  const plan = planTermsQuery(db, vendors.id).as('plan');
  return db
    .select({
      vendor: vendors,
      conversation: conversations,
      app: apps,
      model: vendorModels,
      plan: plan._.selectedFields,
    })
    .from(vendors)
    .leftJoin(
      conversations,
      and(eq(conversations.vendorId, vendors.id), eq(conversations.token, sql.placeholder('token'))),
    )
    .leftJoin(apps, and(eq(apps.vendorId, conversations.vendorId), eq(apps.id, conversations.appId)))
    .leftJoin(vendorModels, completionModelOf)
    .leftJoinLateral(plan, sql`true`)
    .where(eq(vendors.key, sql.placeholder('vendorKey')))
    .limit(1)
    .prepare(name);
}

/** The app's completion model, of the app's vendor. */
const completionModelOf = and(
  eq(vendorModels.vendorId, apps.vendorId),
  eq(vendorModels.id, apps.completionVendorModelId),
);

function conversationWithApp(db: Db, name: string) {
  const vendorId = sql.placeholder('vendorId');
  const plan = planTermsQuery(db, vendorId).as('plan');
  return db
    .select({ conversation: conversations, app: apps, model: vendorModels, plan: plan._.selectedFields })
    .from(conversations)
    .innerJoin(apps, and(eq(apps.vendorId, conversations.vendorId), eq(apps.id, conversations.appId)))
    .leftJoin(vendorModels, completionModelOf)
    .leftJoinLateral(plan, sql`true`)
    .where(and(eq(conversations.vendorId, vendorId), eq(conversations.token, sql.placeholder('token'))))
    .limit(1)
    .prepare(name);
}

type OpenedValues = Pick<
  typeof conversations.$inferInsert,
  'appId' | 'token' | 'channel' | 'parameters' | 'createdBy' | 'clientId' | 'embedId'
>;

const openingValues = (vendorId: number, values: OpenedValues, first: NewMessage[]) => ({
  vendorId,
  createdBy: null,
  clientId: null,
  embedId: null,
  ...values,
  parameters: JSON.stringify(values.parameters ?? {}),
  first: JSON.stringify(first.map(({ role, creator, message }) => ({ role, creator, message }))),
});

/**
 * Stores a new conversation of the vendor's app and its first messages (a greeting, or the history a caller
 * brings) in one statement; the messages keep their order. Null, storing nothing, when the vendor has no
 * such app. Prepared once (docs/adr/0046).
 */
export async function openConversationRow(
  db: Db,
  vendorId: number,
  values: OpenedValues,
  first: NewMessage[],
): Promise<{ conversation: ConversationRow; messages: MessageRow[] } | null> {
  const rows = await preparedOnce(db, 'open_conversation', conversationOpening).execute(
    openingValues(vendorId, values, first),
  );
  if (!rows[0]) return null;
  const messages = rows.flatMap((row) => (row.message ? [row.message] : [])).sort((a, b) => a.id - b.id);
  return { conversation: rows[0].conversation, messages };
}

/**
 * `openConversationRow` for a caller that needs no greeting (the OpenAI-compatible endpoint), reading the
 * app with its completion model and the plan in force in the same statement instead of the stored messages
 * (docs/adr/0046 "Amended 2026-11-25"). Null, storing nothing, when the vendor has no such app.
 */
export async function openAppConversation(
  db: Db,
  vendorId: number,
  values: OpenedValues,
  history: NewMessage[],
): Promise<ConversationWithApp | null> {
  const [row] = await preparedOnce(db, 'open_app_conversation', appConversationOpening).execute(
    openingValues(vendorId, values, history),
  );
  return row ?? null;
}

/** The conversation inserted when the vendor has the app `appId`, and its first messages after it. */
function openingWrites(db: Db) {
  const vendorId = sql.placeholder('vendorId');
  const appId = sql.placeholder('appId');
  const app = and(eq(apps.vendorId, vendorId), eq(apps.id, appId));
  // drizzle's insert … select wants every column, so spelt out.
  const opened = db.$with('opened', getTableColumns(conversations)).as(sql`
    insert into ${conversations} (vendor_id, app_id, token, channel, parameters, created_by, client_id, embed_id)
    select ${apps.vendorId}, ${apps.id}, ${sql.placeholder('token')}::text, ${sql.placeholder('channel')}::text,
      ${sql.placeholder('parameters')}::jsonb, ${sql.placeholder('createdBy')}::integer,
      ${sql.placeholder('clientId')}::integer, ${sql.placeholder('embedId')}::integer
    from ${apps} where ${app}
    returning *`);
  // Inserted in the given order (`with ordinality`), so their ids keep it.
  const added = db.$with('added', getTableColumns(messages)).as(sql`
    insert into ${messages} (vendor_id, conversation_id, role, creator, message)
    select ${vendorId}::integer, ${opened}.id, m.role, m.creator, m.message
    from ${opened}, rows from (json_to_recordset(${sql.placeholder('first')}::json)
      as (role text, creator text, message text)) with ordinality as m(role, creator, message, n)
    order by m.n
    returning *`);
  return { opened, added, app, vendorId };
}

function conversationOpening(db: Db, name: string) {
  const { opened, added } = openingWrites(db);
  return db
    .with(opened, added)
    .select({ conversation: opened._.selectedFields, message: added._.selectedFields })
    .from(opened)
    .leftJoin(added, sql`true`)
    .prepare(name);
}

function appConversationOpening(db: Db, name: string) {
  const { opened, added, app, vendorId } = openingWrites(db);
  const plan = planTermsQuery(db, vendorId).as('plan');
  // `added` runs to completion unread (PostgreSQL runs every data-modifying `with` once); the statement's
  // snapshot predates the inserts, so `apps` is read as the inserts saw it.
  return db
    .with(opened, added)
    .select({
      conversation: opened._.selectedFields,
      app: apps,
      model: vendorModels,
      plan: plan._.selectedFields,
    })
    .from(apps)
    .innerJoin(opened, sql`true`)
    .leftJoin(vendorModels, completionModelOf)
    .leftJoinLateral(plan, sql`true`)
    .where(app)
    .prepare(name);
}

/**
 * The one lookup without a vendor id: the relay's `join(token)`, where the token itself is the
 * capability. Everything after it uses the row's vendor id.
 */
export async function findConversationByCapability(db: Db, token: string): Promise<ConversationRow | null> {
  const rows = await db.select().from(conversations).where(eq(conversations.token, token)).limit(1);
  return rows[0] ?? null;
}

/** The origins whose pages may use an embed's conversations (empty = any); null when the embed is gone. */
export async function embedAllowedOrigins(
  db: Db,
  vendorId: number,
  embedId: number,
): Promise<string[] | null> {
  const [row] = await db
    .select({ origins: schema.embeds.allowedOrigins })
    .from(schema.embeds)
    .where(and(eq(schema.embeds.vendorId, vendorId), eq(schema.embeds.id, embedId)));
  if (!row) return null;
  return Array.isArray(row.origins) ? row.origins.filter((o): o is string => typeof o === 'string') : [];
}

export interface ConversationListRow {
  id: number;
  token: string;
  createdAt: Date;
  appId: number;
  channel: string;
  messageCount: number;
}

export async function listConversations(
  db: Db,
  vendorId: number,
  opts: { appId?: number; page: number; pageSize: number; order: 'id' | 'created_at'; dir: 'asc' | 'desc' },
): Promise<{ rows: ConversationListRow[]; total: number }> {
  const where = and(
    eq(conversations.vendorId, vendorId),
    opts.appId === undefined ? undefined : eq(conversations.appId, opts.appId),
  );
  const column = opts.order === 'created_at' ? conversations.createdAt : conversations.id;
  const dir = opts.dir === 'asc' ? asc : desc;
  const rows = await db
    .select({
      id: conversations.id,
      token: conversations.token,
      createdAt: conversations.createdAt,
      appId: conversations.appId,
      channel: conversations.channel,
      // Spelt out: inside a sub-select drizzle would render the outer column unqualified.
      messageCount:
        sql<number>`(select count(*) from messages m where m.conversation_id = "conversations"."id" and m.vendor_id = ${vendorId})`.mapWith(
          Number,
        ),
    })
    .from(conversations)
    .where(where)
    .orderBy(dir(column), dir(conversations.id))
    .limit(opts.pageSize)
    .offset(opts.page * opts.pageSize);
  const [total] = await db.select({ n: count() }).from(conversations).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function listMessages(db: Db, vendorId: number, conversationId: number): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.vendorId, vendorId), eq(messages.conversationId, conversationId)))
    .orderBy(asc(messages.id));
}

/**
 * A page of a conversation's messages with its current state, in one statement (the state may have changed
 * since the row was read: relay, Lua): the newest `limit` messages before the message `before` (the newest
 * of all without it), oldest first, and whether older ones exist. Null when the conversation is gone.
 */
export async function messagesPage(
  db: Db,
  vendorId: number,
  conversationId: number,
  opts: { before?: number; limit: number },
): Promise<{ messages: MessageRow[]; more: boolean; state: unknown } | null> {
  // One message past the page says whether an older page exists.
  const newest = db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.vendorId, vendorId),
        eq(messages.conversationId, conversationId),
        opts.before === undefined ? undefined : lt(messages.id, opts.before),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(opts.limit + 1)
    .as('newest');
  const rows = await db
    .select({
      // On the first row only, as the state may be large.
      state: sql<unknown>`case when row_number() over () = 1 then ${conversations.state} end`.mapWith(
        conversations.state,
      ),
      message: newest._.selectedFields,
    })
    .from(conversations)
    .leftJoinLateral(newest, sql`true`)
    .where(and(eq(conversations.vendorId, vendorId), eq(conversations.id, conversationId)));
  if (rows.length === 0) return null;
  const found = rows.flatMap((row) => (row.message ? [row.message] : [])).sort((a, b) => a.id - b.id);
  const more = found.length > opts.limit;
  return { messages: more ? found.slice(1) : found, more, state: rows[0]!.state };
}

/**
 * Lets go of the lease if `holder` still holds it (a lease taken over after it lapsed is not touched), and
 * answers the conversation's state as it was let go; null when the lease was not `holder`'s.
 */
export async function releaseReplyLease(
  db: Db,
  vendorId: number,
  conversationId: number,
  holder: string,
): Promise<{ state: unknown } | null> {
  const [row] = await leaseRelease(db, vendorId, conversationId, holder);
  return row ?? null;
}

/** `releaseReplyLease`'s statement, to run as part of a larger one (the reply's last write). */
export function leaseRelease(
  db: Db,
  vendorId: Bound<number>,
  conversationId: Bound<number>,
  holder: Bound<string>,
) {
  return db
    .update(conversations)
    .set({ replyLeaseUntil: null, replyLeaseHolder: null })
    .where(
      and(
        eq(conversations.vendorId, vendorId),
        eq(conversations.id, conversationId),
        eq(conversations.replyLeaseHolder, holder),
      ),
    )
    .returning({ state: conversations.state });
}

/** Extends every lease `holder` holds by `leaseMs` from now: the running instance's heartbeat (ADR 0025). */
export async function renewReplyLeases(db: Db, holder: string, leaseMs: number): Promise<void> {
  await db
    .update(conversations)
    .set({ replyLeaseUntil: sql`now() + make_interval(secs => ${leaseMs / 1000})` })
    .where(
      and(sql`${conversations.replyLeaseUntil} is not null`, eq(conversations.replyLeaseHolder, holder)),
    );
}

/**
 * Lets go of reply leases whose holder is gone and stores `notice` as an error entry in each of those
 * conversations, in one statement: of several instances releasing the same lease exactly one stores it.
 * `all`: every lease (the embedded database at start, where no other process can hold one); otherwise only
 * lapsed ones, in `conversation` if given. Returns the conversations' ids.
 */
export async function releaseStaleReplyLeases(
  db: Db,
  notice: string,
  opts: { all: boolean; conversation?: { vendorId: number; id: number } },
): Promise<number[]> {
  const lapsed = opts.all ? sql`` : sql` and reply_lease_until < now()`;
  const only = opts.conversation
    ? sql` and vendor_id = ${opts.conversation.vendorId} and id = ${opts.conversation.id}`
    : sql``;
  const result = await db.execute(sql`
    with released as (
      update conversations set reply_lease_until = null, reply_lease_holder = null
      where reply_lease_until is not null${lapsed}${only}
      returning vendor_id, id)
    insert into messages (vendor_id, conversation_id, role, creator, message)
    select vendor_id, id, 'error', 'system', ${notice} from released
    returning conversation_id`);
  return (result as unknown as { rows: { conversation_id: number }[] }).rows.map(
    (row) => row.conversation_id,
  );
}

/** Several messages in one statement, in order (a caller's history). */
export async function insertMessages(
  db: Db,
  vendorId: number,
  conversationId: number,
  values: NewMessage[],
): Promise<void> {
  if (values.length === 0) return;
  await db.insert(messages).values(values.map((value) => ({ ...value, vendorId, conversationId })));
}

export async function insertMessage(
  db: Db,
  vendorId: number,
  conversationId: number,
  values: NewMessage,
): Promise<MessageRow> {
  const [row] = await db
    .insert(messages)
    .values({ ...values, vendorId, conversationId })
    .returning();
  return row!;
}

/**
 * Changes a conversation's state under a row lock: concurrent writers (several sockets, instances or
 * Lua scripts) queue on the row, so each computes from the latest state and none is lost or refused.
 * `next` may throw to refuse the change; the transaction then changes nothing.
 */
export async function changeState(
  db: Db,
  vendorId: number,
  conversationId: number,
  next: (current: unknown) => Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  return db.transaction(async (tx) => {
    const where = and(eq(conversations.vendorId, vendorId), eq(conversations.id, conversationId));
    const [row] = await tx
      .select({ state: conversations.state })
      .from(conversations)
      .where(where)
      .for('update');
    if (!row) return null;
    const state = next(row.state);
    await tx
      .update(conversations)
      .set({ state, stateVersion: sql`${conversations.stateVersion} + 1` })
      .where(where);
    return state;
  });
}

export async function readState(
  db: Db,
  vendorId: number,
  conversationId: number,
): Promise<{ state: unknown; stateVersion: number } | null> {
  const rows = await db
    .select({ state: conversations.state, stateVersion: conversations.stateVersion })
    .from(conversations)
    .where(and(eq(conversations.vendorId, vendorId), eq(conversations.id, conversationId)))
    .limit(1);
  return rows[0] ?? null;
}
