import { type Db, schema } from '../../platform/db';

const { usageRecords } = schema;

export type { AppRow } from '../../platform/http/identity';
export { findVendorModel, type VendorModelRow } from '../models/repo';

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
