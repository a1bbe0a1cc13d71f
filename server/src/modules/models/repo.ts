import { and, asc, count, desc, eq, ilike, or, type SQL } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { likePattern } from '../../platform/db/search';

const { vendorModels } = schema;
export type VendorModelRow = typeof vendorModels.$inferSelect;
export type NewVendorModel = Omit<
  typeof vendorModels.$inferInsert,
  'id' | 'vendorId' | 'createdAt' | 'modifiedAt'
>;

export interface ModelFilter {
  type?: string;
  search?: string;
}

function filterWhere(vendorId: number, filter: ModelFilter): SQL {
  const parts: (SQL | undefined)[] = [eq(vendorModels.vendorId, vendorId)];
  if (filter.type) parts.push(eq(vendorModels.type, filter.type));
  if (filter.search) {
    const p = likePattern(filter.search);
    parts.push(
      or(ilike(vendorModels.name, p), ilike(vendorModels.modelKey, p), ilike(vendorModels.provider, p)),
    );
  }
  return and(...parts)!;
}

export async function insertVendorModel(
  db: Db,
  vendorId: number,
  values: NewVendorModel,
): Promise<VendorModelRow> {
  const [row] = await db
    .insert(vendorModels)
    .values({ ...values, vendorId })
    .returning();
  return row!;
}

export async function findVendorModel(db: Db, vendorId: number, id: number): Promise<VendorModelRow | null> {
  const rows = await db
    .select()
    .from(vendorModels)
    .where(and(eq(vendorModels.vendorId, vendorId), eq(vendorModels.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

export async function deleteVendorModel(db: Db, vendorId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(vendorModels)
    .where(and(eq(vendorModels.vendorId, vendorId), eq(vendorModels.id, id)))
    .returning({ id: vendorModels.id });
  return rows.length > 0;
}

export interface ListOptions extends ModelFilter {
  offset: number;
  limit: number;
  order?: 'name' | 'type';
  orderDir?: 'asc' | 'desc';
}

export async function listVendorModels(
  db: Db,
  vendorId: number,
  opts: ListOptions,
): Promise<VendorModelRow[]> {
  const dir = opts.orderDir === 'desc' ? desc : asc;
  const orderBy =
    opts.order === 'name'
      ? [dir(vendorModels.name), dir(vendorModels.id)]
      : opts.order === 'type'
        ? [dir(vendorModels.type), asc(vendorModels.name), asc(vendorModels.id)]
        : [dir(vendorModels.id)];
  return db
    .select()
    .from(vendorModels)
    .where(filterWhere(vendorId, opts))
    .orderBy(...orderBy)
    .limit(opts.limit)
    .offset(opts.offset);
}

export async function countVendorModels(db: Db, vendorId: number, filter: ModelFilter = {}): Promise<number> {
  const [row] = await db.select({ n: count() }).from(vendorModels).where(filterWhere(vendorId, filter));
  return row?.n ?? 0;
}

/** Picker: matches by name, ordered by name. */
export async function searchVendorModels(
  db: Db,
  vendorId: number,
  filter: ModelFilter,
  limit: number,
): Promise<VendorModelRow[]> {
  return db
    .select()
    .from(vendorModels)
    .where(filterWhere(vendorId, filter))
    .orderBy(asc(vendorModels.name), asc(vendorModels.id))
    .limit(limit);
}
