import { and, eq, lt, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';

const { slackIntegrations, slackThreads, slackEvents, conversations } = schema;
export type SlackIntegrationRow = typeof slackIntegrations.$inferSelect;
type IntegrationFields = Partial<Omit<typeof slackIntegrations.$inferInsert, 'vendorAppId' | 'vendorId'>>;

export async function findIntegration(
  db: Db,
  vendorId: number,
  appId: number,
): Promise<SlackIntegrationRow | null> {
  const rows = await db
    .select()
    .from(slackIntegrations)
    .where(and(eq(slackIntegrations.vendorId, vendorId), eq(slackIntegrations.vendorAppId, appId)))
    .limit(1);
  return rows[0] ?? null;
}

/**
 * The one lookup without a vendor id: Slack's calls (events, the OAuth redirect) name only the llmor app
 * id, and the caller proves itself afterwards with the integration's own secret (signature, OAuth state).
 * Everything after it uses the row's vendor id.
 */
export async function findIntegrationByCapability(
  db: Db,
  appId: number,
): Promise<SlackIntegrationRow | null> {
  const rows = await db
    .select()
    .from(slackIntegrations)
    .where(eq(slackIntegrations.vendorAppId, appId))
    .limit(1);
  return rows[0] ?? null;
}

/** Inserts the app's integration, or replaces the fields of one that exists (a create retried after a failure). */
export async function saveIntegration(
  db: Db,
  vendorId: number,
  appId: number,
  values: IntegrationFields & { slackBotName: string },
): Promise<SlackIntegrationRow> {
  const [row] = await db
    .insert(slackIntegrations)
    .values({ ...values, vendorId, vendorAppId: appId })
    .onConflictDoUpdate({
      target: slackIntegrations.vendorAppId,
      set: { ...values, modifiedAt: new Date() },
      setWhere: eq(slackIntegrations.vendorId, vendorId),
    })
    .returning();
  return row!;
}

export async function updateIntegration(
  db: Db,
  vendorId: number,
  appId: number,
  values: IntegrationFields,
): Promise<SlackIntegrationRow | null> {
  const [row] = await db
    .update(slackIntegrations)
    .set({ ...values, modifiedAt: new Date() })
    .where(and(eq(slackIntegrations.vendorId, vendorId), eq(slackIntegrations.vendorAppId, appId)))
    .returning();
  return row ?? null;
}

/** Notes a Slack event id; false when it was already noted (Slack retrying an event it sent before). */
export async function claimEvent(db: Db, appId: number, eventId: string): Promise<boolean> {
  const rows = await db
    .insert(slackEvents)
    .values({ vendorAppId: appId, eventId })
    .onConflictDoNothing()
    .returning({ eventId: slackEvents.eventId });
  return rows.length === 1;
}

/** Forgets an event id (its reply could not be queued, so Slack's retry must be taken). */
export async function releaseEvent(db: Db, appId: number, eventId: string): Promise<void> {
  await db
    .delete(slackEvents)
    .where(and(eq(slackEvents.vendorAppId, appId), eq(slackEvents.eventId, eventId)));
}

/** Event ids older than Slack's retry horizon (it retries within minutes) are no longer needed. */
export async function forgetOldEvents(db: Db, appId: number): Promise<void> {
  await db
    .delete(slackEvents)
    .where(
      and(eq(slackEvents.vendorAppId, appId), lt(slackEvents.receivedAt, sql`now() - interval '1 day'`)),
    );
}

/** The token of the conversation that holds a Slack thread, or null. */
export async function threadConversationToken(
  db: Db,
  vendorId: number,
  appId: number,
  thread: { channelId: string; threadTs: string },
): Promise<string | null> {
  const rows = await db
    .select({ token: conversations.token })
    .from(slackThreads)
    .innerJoin(
      conversations,
      and(eq(conversations.id, slackThreads.conversationId), eq(conversations.vendorId, vendorId)),
    )
    .where(
      and(
        eq(slackThreads.vendorId, vendorId),
        eq(slackThreads.vendorAppId, appId),
        eq(slackThreads.channelId, thread.channelId),
        eq(slackThreads.threadTs, thread.threadTs),
      ),
    )
    .limit(1);
  return rows[0]?.token ?? null;
}

/** Links a thread to its conversation; false when another reply linked it first. */
export async function insertThread(
  db: Db,
  vendorId: number,
  appId: number,
  thread: { channelId: string; threadTs: string; conversationId: number },
): Promise<boolean> {
  const rows = await db
    .insert(slackThreads)
    .values({ vendorId, vendorAppId: appId, ...thread })
    .onConflictDoNothing()
    .returning({ id: slackThreads.id });
  return rows.length === 1;
}
