import { and, eq } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';

const { apps, usageRecords } = schema;
export type AppRow = typeof apps.$inferSelect;
export { findVendorModel, type VendorModelRow } from '../models/repo';

/** Read-only view of an app for conversations (the apps module owns writes). */
export async function findApp(db: Db, vendorId: number, appId: number): Promise<AppRow | null> {
  const rows = await db
    .select()
    .from(apps)
    .where(and(eq(apps.vendorId, vendorId), eq(apps.id, appId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function insertUsage(
  db: Db,
  vendorId: number,
  values: Pick<
    typeof usageRecords.$inferInsert,
    'appId' | 'vendorModelId' | 'conversationId' | 'tokensPrompt' | 'tokensCompletion' | 'costMinor'
  >,
): Promise<void> {
  await db.insert(usageRecords).values({ ...values, vendorId, requests: 1 });
}
