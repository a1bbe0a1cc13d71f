import { and, asc, count, desc, eq, inArray, isNull, lt, lte, ne, notInArray, or, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect } from 'drizzle-orm/pg-core';
import { type Db, schema } from '../../platform/db';
import { type Bound, preparedOnce } from '../../platform/db/prepared';

const {
  plans,
  subscriptions,
  invoices,
  billingUsage,
  stripeEvents,
  apps,
  vendors,
  vendorUsers,
  vendorSettings,
} = schema;

export type PlanRow = typeof plans.$inferSelect;
export type NewPlan = Omit<typeof plans.$inferInsert, 'id' | 'createdAt'>;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export interface SubscriptionWithPlan {
  subscription: SubscriptionRow;
  plan: PlanRow;
}

/** Statuses under which a subscription is in force (Stripe's `past_due` keeps it while Stripe retries). */
export const LIVE_STATUSES = ['active', 'trialing', 'past_due'];

/** In force: a live status, and not past the end of a period it was cancelled at. */
const isLive = and(
  inArray(subscriptions.status, LIVE_STATUSES),
  or(
    eq(subscriptions.cancelAtPeriodEnd, false),
    sql`${subscriptions.currentPeriodEnd} is null`,
    sql`${subscriptions.currentPeriodEnd} > now()`,
  ),
);

/**
 * The name of the plan in force for each vendor of an outer query over `vendors`: its live
 * subscription's plan, else the default plan, else null. For lists that show each vendor's plan.
 */
export function planNameOf(db: Db) {
  const subscribed = db
    .select({ name: plans.name })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.vendorId, vendors.id), isLive))
    .orderBy(desc(subscriptions.id))
    .limit(1);
  const byDefault = db
    .select({ name: plans.name })
    .from(plans)
    .where(and(eq(plans.isDefault, true), eq(plans.active, true)))
    .limit(1);
  return sql<string | null>`coalesce((${subscribed}), (${byDefault}))`;
}

// ------------------------------------------------------------------------------------------------
// Plans (the operator's catalogue: no vendor)
// ------------------------------------------------------------------------------------------------

const planOrder = {
  name: sql`lower(${plans.name})`,
  price_minor: plans.priceMinor,
  created_at: plans.createdAt,
};

export async function listPlans(
  db: Db,
  opts: { order: keyof typeof planOrder; dir: 'asc' | 'desc'; offset: number; limit: number },
): Promise<PlanRow[]> {
  const by = opts.dir === 'asc' ? asc : desc;
  return db
    .select()
    .from(plans)
    .orderBy(by(planOrder[opts.order]), asc(plans.id))
    .offset(opts.offset)
    .limit(opts.limit);
}

export async function countPlans(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(plans);
  return row?.n ?? 0;
}

export async function findPlan(db: Db, id: number): Promise<PlanRow | null> {
  const rows = await db.select().from(plans).where(eq(plans.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function activePlans(db: Db): Promise<PlanRow[]> {
  return db.select().from(plans).where(eq(plans.active, true)).orderBy(asc(plans.priceMinor), asc(plans.id));
}

export async function planByStripePrice(db: Db, priceId: string): Promise<PlanRow | null> {
  const rows = await db.select().from(plans).where(eq(plans.stripePriceId, priceId)).limit(1);
  return rows[0] ?? null;
}

/** Inserts or updates a plan; marking it default unmarks the others in the same transaction. */
export async function savePlan(db: Db, id: number | null, values: Partial<NewPlan>): Promise<PlanRow | null> {
  return db.transaction(async (tx) => {
    if (values.isDefault) {
      const others =
        id === null ? eq(plans.isDefault, true) : and(eq(plans.isDefault, true), ne(plans.id, id));
      await tx.update(plans).set({ isDefault: false, modifiedAt: new Date() }).where(others);
    }
    if (id === null) {
      const [row] = await tx
        .insert(plans)
        .values(values as NewPlan)
        .returning();
      return row ?? null;
    }
    const [row] = await tx
      .update(plans)
      .set({ ...values, modifiedAt: new Date() })
      .where(eq(plans.id, id))
      .returning();
    return row ?? null;
  });
}

// ------------------------------------------------------------------------------------------------
// Subscriptions
// ------------------------------------------------------------------------------------------------

export async function listSubscriptions(db: Db, vendorId: number): Promise<SubscriptionWithPlan[]> {
  return db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(eq(subscriptions.vendorId, vendorId))
    .orderBy(desc(subscriptions.id));
}

export async function findSubscription(
  db: Db,
  vendorId: number,
  id: number,
): Promise<SubscriptionWithPlan | null> {
  const rows = await db
    .select({ subscription: subscriptions, plan: plans })
    .from(subscriptions)
    .innerJoin(plans, eq(plans.id, subscriptions.planId))
    .where(and(eq(subscriptions.vendorId, vendorId), eq(subscriptions.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The plan in force, in one statement (it runs before every reply): the newest live subscription with
 * its plan, else the default plan with no subscription, else nothing.
 */
export async function planInForce(
  db: Db,
  vendorId: number,
): Promise<{ subscription: SubscriptionRow | null; plan: PlanRow } | null> {
  const rows = await inForce(
    db.select({ subscription: subscriptions, plan: plans }).from(plans).$dynamic(),
    vendorId,
  );
  return rows[0] ?? null;
}

/**
 * What a reply's plan check needs of the plan in force (`PlanTerms` in the service), as a query to read
 * with other rows in one statement; no row: no plan (unlimited). `vendorId`: a value, a placeholder, or the
 * column of an outer query's vendor (a lateral join).
 */
export function planTermsQuery(db: Db, vendorId: Bound<number> | AnyPgColumn) {
  return inForce(
    db
      .select({
        interval: plans.interval,
        limits: plans.limits,
        quantity: subscriptions.quantity,
        periodStart: subscriptions.currentPeriodStart,
        periodEnd: subscriptions.currentPeriodEnd,
      })
      .from(plans)
      .$dynamic(),
    vendorId,
  );
}

/** The vendor's live subscription's plan, else the default plan: one row of `query` (from plans). */
function inForce<Q extends PgSelect>(query: Q, vendorId: Bound<number> | AnyPgColumn) {
  return query
    .leftJoin(
      subscriptions,
      and(eq(subscriptions.planId, plans.id), eq(subscriptions.vendorId, vendorId), isLive),
    )
    .where(or(sql`${subscriptions.id} is not null`, and(eq(plans.isDefault, true), eq(plans.active, true))))
    .orderBy(sql`${subscriptions.id} is null`, desc(subscriptions.id))
    .limit(1);
}

/** Ends every live subscription of the vendor but `keepId`; answers the ended ones. */
async function endOthers(db: Db, vendorId: number, keepId: number | null): Promise<SubscriptionRow[]> {
  const where = [eq(subscriptions.vendorId, vendorId), isLive];
  if (keepId !== null) where.push(ne(subscriptions.id, keepId));
  return db
    .update(subscriptions)
    .set({ status: 'canceled', modifiedAt: new Date() })
    .where(and(...where))
    .returning();
}

/** A new subscription in force now; the previous ones end (answered, to cancel them at Stripe). */
export async function replaceSubscription(
  db: Db,
  vendorId: number,
  values: Pick<
    typeof subscriptions.$inferInsert,
    'planId' | 'quantity' | 'status' | 'currentPeriodStart' | 'currentPeriodEnd'
  >,
): Promise<{ created: SubscriptionRow; ended: SubscriptionRow[] }> {
  return db.transaction(async (tx) => {
    const ended = await endOthers(tx as unknown as Db, vendorId, null);
    const [created] = await tx
      .insert(subscriptions)
      .values({ ...values, vendorId })
      .returning();
    return { created: created!, ended };
  });
}

/** Statuses after which Stripe never revives a subscription: a state no event overrides (ADR 0024). */
export const TERMINAL_STATUSES = ['canceled', 'incomplete_expired'];

/** What the webhook knows of a Stripe subscription before applying an event to it. */
export async function stripeSubscriptionState(
  db: Db,
  vendorId: number,
  externalId: string,
): Promise<Pick<SubscriptionRow, 'status' | 'stripeStateAt'> | null> {
  const rows = await db
    .select({ status: subscriptions.status, stripeStateAt: subscriptions.stripeStateAt })
    .from(subscriptions)
    .where(and(eq(subscriptions.vendorId, vendorId), eq(subscriptions.externalId, externalId)))
    .limit(1);
  return rows[0] ?? null;
}

/** One subscription as Stripe reports it: its Stripe id, its values, and when Stripe's state was taken. */
type StripeSubscriptionState = Pick<
  typeof subscriptions.$inferInsert,
  'planId' | 'quantity' | 'status' | 'currentPeriodStart' | 'currentPeriodEnd' | 'cancelAtPeriodEnd'
> & { externalId: string; stripeStateAt: Date; fresh: boolean };

/**
 * Stripe's view of one subscription, by its Stripe id (`externalId`), as of `stripeStateAt`; a live one ends the
 * vendor's others. Applied in any order of arrival (ADR 0024): a terminal state stays, and a state older
 * than the one applied — or as old, unless `fresh` (just fetched from Stripe) — changes nothing. A
 * terminal state applies over any live one whatever its time. Answers the row when it was applied.
 */
export async function upsertStripeSubscription(
  db: Db,
  vendorId: number,
  { externalId, fresh, ...values }: StripeSubscriptionState,
): Promise<SubscriptionRow | null> {
  const at = values.stripeStateAt;
  const newer = TERMINAL_STATUSES.includes(values.status)
    ? undefined
    : or(
        isNull(subscriptions.stripeStateAt),
        fresh ? lte(subscriptions.stripeStateAt, at) : lt(subscriptions.stripeStateAt, at),
      );
  const [row] = await db
    .insert(subscriptions)
    .values({ ...values, vendorId, externalId })
    .onConflictDoUpdate({
      target: subscriptions.externalId,
      set: { ...values, modifiedAt: new Date() },
      // A Stripe id names one vendor's subscription for good.
      setWhere: and(
        eq(subscriptions.vendorId, vendorId),
        notInArray(subscriptions.status, TERMINAL_STATUSES),
        newer,
      ),
    })
    .returning();
  if (row && LIVE_STATUSES.includes(row.status)) await endOthers(db, vendorId, row.id);
  return row ?? null;
}

export async function setCancelAtPeriodEnd(db: Db, vendorId: number, id: number): Promise<void> {
  await db
    .update(subscriptions)
    .set({ cancelAtPeriodEnd: true, modifiedAt: new Date() })
    .where(and(eq(subscriptions.vendorId, vendorId), eq(subscriptions.id, id)));
}

export async function subscriptionIdByExternal(
  db: Db,
  vendorId: number,
  externalId: string,
): Promise<number | null> {
  const rows = await db
    .select({ id: subscriptions.id })
    .from(subscriptions)
    .where(and(eq(subscriptions.vendorId, vendorId), eq(subscriptions.externalId, externalId)))
    .limit(1);
  return rows[0]?.id ?? null;
}

// ------------------------------------------------------------------------------------------------
// Invoices
// ------------------------------------------------------------------------------------------------

export async function listInvoices(
  db: Db,
  vendorId: number,
  opts: { dir: 'asc' | 'desc'; offset: number; limit: number },
): Promise<InvoiceRow[]> {
  const by = opts.dir === 'asc' ? asc : desc;
  return db
    .select()
    .from(invoices)
    .where(eq(invoices.vendorId, vendorId))
    .orderBy(by(invoices.createdAt), by(invoices.id))
    .offset(opts.offset)
    .limit(opts.limit);
}

export async function countInvoices(db: Db, vendorId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(invoices).where(eq(invoices.vendorId, vendorId));
  return row?.n ?? 0;
}

/** Invoice statuses Stripe never leaves: an older `invoice.finalized` (open) arriving late keeps them. */
const FINAL_INVOICE_STATUSES = ['paid', 'void', 'uncollectible'];

export async function upsertInvoice(
  db: Db,
  vendorId: number,
  externalId: string,
  values: Omit<typeof invoices.$inferInsert, 'id' | 'vendorId' | 'externalId' | 'createdAt'>,
): Promise<void> {
  const keepFinal = FINAL_INVOICE_STATUSES.includes(values.status)
    ? undefined
    : notInArray(invoices.status, FINAL_INVOICE_STATUSES);
  await db
    .insert(invoices)
    .values({ ...values, vendorId, externalId })
    .onConflictDoUpdate({
      target: invoices.externalId,
      set: values,
      setWhere: and(eq(invoices.vendorId, vendorId), keepFinal),
    });
}

// ------------------------------------------------------------------------------------------------
// Usage per period and counts
// ------------------------------------------------------------------------------------------------

/**
 * Counts one request in the period unless a limit is reached, in one statement: the row lock of
 * `on conflict do update` serialises concurrent sends on every instance, and the `where` sees the
 * latest count, so no two sends both take the last request. Answers whether it was counted. Prepared once
 * (docs/adr/0043-hot-statements-prepared-once.md): a null limit is none.
 */
export async function reserveRequest(
  db: Db,
  vendorId: number,
  periodStart: Date,
  limits: { requests: number | null; tokens: number | null },
): Promise<boolean> {
  // A limit of 0 allows nothing, not even the first row's insert.
  if (limits.requests === 0 || limits.tokens === 0) return false;
  const rows = await preparedOnce(db, 'reserve_request', reservation).execute({
    vendorId,
    periodStart,
    requests: limits.requests,
    tokens: limits.tokens,
  });
  return rows.length > 0;
}

function reservation(db: Db, name: string) {
  return reservationUpsert(db, {
    vendorId: sql.placeholder('vendorId'),
    periodStart: sql.placeholder('periodStart'),
    requests: sql.placeholder('requests'),
    tokens: sql.placeholder('tokens'),
  }).prepare(name);
}

/**
 * `reserveRequest`'s statement, to run as part of a larger one (a reply's first write, prepared,
 * docs/adr/0046): one row when the request was counted, none past the limits (a null limit is none).
 */
export function reservationUpsert(
  db: Db,
  values: {
    vendorId: Bound<number>;
    periodStart: Bound<Date>;
    requests: Bound<number | null>;
    tokens: Bound<number | null>;
  },
) {
  const requests = sql`${values.requests}::integer`;
  const tokens = sql`${values.tokens}::bigint`;
  return db
    .insert(billingUsage)
    .values({ vendorId: values.vendorId, periodStart: values.periodStart, requests: 1, tokens: 0 })
    .onConflictDoUpdate({
      target: [billingUsage.vendorId, billingUsage.periodStart],
      set: { requests: sql`${billingUsage.requests} + 1` },
      setWhere: sql`(${requests} is null or ${billingUsage.requests} < ${requests}) and (${tokens} is null or ${billingUsage.tokens} < ${tokens})`,
    })
    .returning({ requests: billingUsage.requests });
}

export async function addTokens(db: Db, vendorId: number, periodStart: Date, tokens: number): Promise<void> {
  await tokensAddition(db, vendorId, periodStart, tokens);
}

/** `addTokens`'s statement, to run as part of a larger one (a reply's last write, prepared). */
export function tokensAddition(
  db: Db,
  vendorId: Bound<number>,
  periodStart: Bound<Date>,
  tokens: Bound<number>,
) {
  return db
    .insert(billingUsage)
    .values({ vendorId, periodStart, requests: 0, tokens })
    .onConflictDoUpdate({
      target: [billingUsage.vendorId, billingUsage.periodStart],
      set: { tokens: sql`${billingUsage.tokens} + excluded.tokens` },
    });
}

export async function readUsage(
  db: Db,
  vendorId: number,
  periodStart: Date,
): Promise<{ requests: number; tokens: number }> {
  const rows = await db
    .select({ requests: billingUsage.requests, tokens: billingUsage.tokens })
    .from(billingUsage)
    .where(and(eq(billingUsage.vendorId, vendorId), eq(billingUsage.periodStart, periodStart)))
    .limit(1);
  return rows[0] ?? { requests: 0, tokens: 0 };
}

export async function countApps(db: Db, vendorId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(apps).where(eq(apps.vendorId, vendorId));
  return row?.n ?? 0;
}

export async function countMembers(db: Db, vendorId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(vendorUsers).where(eq(vendorUsers.vendorId, vendorId));
  return row?.n ?? 0;
}

// ------------------------------------------------------------------------------------------------
// Stripe: customers and events
// ------------------------------------------------------------------------------------------------

/** The vendor whose billing settings name this Stripe customer (the webhook knows no vendor). */
export async function vendorIdByCustomer(db: Db, customerId: string): Promise<number | null> {
  const rows = await db
    .select({ vendorId: vendorSettings.vendorId })
    .from(vendorSettings)
    .where(
      and(
        eq(vendorSettings.key, BILLING_SETTING),
        sql`${vendorSettings.value}->>'customerId' = ${customerId}`,
      ),
    )
    .limit(1);
  return rows[0]?.vendorId ?? null;
}

/** The vendor of a Stripe subscription llmor keeps (an invoice names it, whoever created its customer). */
export async function vendorIdBySubscription(db: Db, externalId: string): Promise<number | null> {
  const rows = await db
    .select({ vendorId: subscriptions.vendorId })
    .from(subscriptions)
    .where(eq(subscriptions.externalId, externalId))
    .limit(1);
  return rows[0]?.vendorId ?? null;
}

/** The vendor_settings key of a vendor's billing data: `{customerId?, address?}`. */
export const BILLING_SETTING = 'billing';

export async function eventSeen(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .select({ id: stripeEvents.id })
    .from(stripeEvents)
    .where(eq(stripeEvents.id, id))
    .limit(1);
  return rows.length > 0;
}

/**
 * Applies an event once: records its id and runs `apply` in one transaction, so a replay (or two
 * deliveries at once) applies nothing and a failed apply records nothing (Stripe retries it).
 */
export async function applyEventOnce(
  db: Db,
  event: { id: string; type: string },
  apply: (tx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(stripeEvents)
      .values({ id: event.id, type: event.type })
      .onConflictDoNothing()
      .returning({ id: stripeEvents.id });
    if (!inserted.length) return false;
    await apply(tx as unknown as Db);
    return true;
  });
}
