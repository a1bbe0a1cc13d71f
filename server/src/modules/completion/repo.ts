import { and, eq } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';

const { apps, vendorModels, usageRecords } = schema;
export type AppRow = typeof apps.$inferSelect;
export type VendorModelRow = typeof vendorModels.$inferSelect;

/** Read-only view of an app for conversations (the apps module owns writes). */
export async function findApp(db: Db, vendorId: number, appId: number): Promise<AppRow | null> {
  const rows = await db
    .select()
    .from(apps)
    .where(and(eq(apps.vendorId, vendorId), eq(apps.id, appId)))
    .limit(1);
  return rows[0] ?? null;
}

export async function findVendorModel(db: Db, vendorId: number, id: number): Promise<VendorModelRow | null> {
  const rows = await db
    .select()
    .from(vendorModels)
    .where(and(eq(vendorModels.vendorId, vendorId), eq(vendorModels.id, id)))
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
