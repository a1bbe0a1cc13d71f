import { asc, eq, inArray, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { preparedOnce } from '../../platform/db/prepared';

const { vendors, vendorUsers } = schema;
export type VendorRow = typeof vendors.$inferSelect;

export async function listVendorsByIds(db: Db, ids: number[]): Promise<VendorRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(vendors)
    .where(inArray(vendors.id, ids))
    .orderBy(asc(vendors.name), asc(vendors.id));
}

export async function listAllVendors(db: Db): Promise<VendorRow[]> {
  return db.select().from(vendors).orderBy(asc(vendors.name), asc(vendors.id));
}

/**
 * Runs `fn` holding the vendor's row lock, so checks and writes of one vendor queue on every instance:
 * the last owner stays, and a plan's app and member limits hold under parallel creates.
 */
export async function withVendorLock<T>(db: Db, vendorId: number, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select id from vendors where id = ${vendorId} for update`);
    return fn(tx as unknown as Db);
  });
}

export async function findVendorById(db: Db, id: number): Promise<VendorRow | null> {
  const rows = await db.select().from(vendors).where(eq(vendors.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Every signed request's first statement (`X-Vendor`): prepared once (docs/adr/0043-hot-statements-prepared-once.md). */
export async function findVendorByKey(db: Db, key: string): Promise<VendorRow | null> {
  const statement = preparedOnce(db, 'vendor_by_key', (db, name) =>
    db
      .select()
      .from(vendors)
      .where(eq(vendors.key, sql.placeholder('key')))
      .limit(1)
      .prepare(name),
  );
  const rows = await statement.execute({ key });
  return rows[0] ?? null;
}

export async function insertVendor(
  db: Db,
  values: Pick<typeof vendors.$inferInsert, 'key' | 'name' | 'currency'>,
): Promise<VendorRow> {
  const [row] = await db.insert(vendors).values(values).returning();
  return row!;
}

export async function addMember(db: Db, vendorId: number, userId: number, role = 'member'): Promise<void> {
  await db
    .insert(vendorUsers)
    .values({ vendorId, userId, role, acceptedAt: new Date() })
    .onConflictDoNothing();
}

export async function updateVendor(
  db: Db,
  id: number,
  values: Partial<Pick<typeof vendors.$inferInsert, 'name' | 'currency' | 'active'>>,
): Promise<VendorRow | null> {
  if (Object.keys(values).length === 0) return findVendorById(db, id);
  const [row] = await db
    .update(vendors)
    .set({ ...values, modifiedAt: new Date() })
    .where(eq(vendors.id, id))
    .returning();
  return row ?? null;
}
