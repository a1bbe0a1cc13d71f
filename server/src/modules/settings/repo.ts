import { and, eq } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';

const { vendorSettings } = schema;

/** One vendor setting (a JSON object under a key); secrets inside are sealed by the service. */
export async function readSetting<T extends object>(
  db: Db,
  vendorId: number,
  key: string,
): Promise<Partial<T>> {
  const rows = await db
    .select({ value: vendorSettings.value })
    .from(vendorSettings)
    .where(and(eq(vendorSettings.vendorId, vendorId), eq(vendorSettings.key, key)))
    .limit(1);
  return (rows[0]?.value ?? {}) as Partial<T>;
}

export async function writeSetting(db: Db, vendorId: number, key: string, value: object): Promise<void> {
  await db
    .insert(vendorSettings)
    .values({ vendorId, key, value, modifiedAt: new Date() })
    .onConflictDoUpdate({
      target: [vendorSettings.vendorId, vendorSettings.key],
      set: { value, modifiedAt: new Date() },
    });
}
