import { and, asc, count, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { likePattern } from '../../platform/db/search';
import type { VendorRow } from '../../platform/http/identity';
import { planNameOf } from '../billing/repo';

const { vendors } = schema;

export interface AdminVendorRow {
  vendor: VendorRow;
  memberCount: number;
  appCount: number;
  plan: string | null;
}

// Spelt out: inside a sub-select drizzle renders columns unqualified, and `"id"` there would be the
// counted table's own (apps.id = apps.vendor_id counted one app for every vendor).
const memberCount =
  sql<number>`(select count(*) from vendor_users vu where vu.vendor_id = "vendors"."id")`.mapWith(Number);
const appCount = sql<number>`(select count(*) from apps a where a.vendor_id = "vendors"."id")`.mapWith(
  Number,
);

const orderColumns = {
  name: sql`lower(${vendors.name})`,
  key: vendors.key,
  created_at: vendors.createdAt,
  member_count: memberCount,
  app_count: appCount,
} as const;

const searchWhere = (search?: string): SQL | undefined =>
  search ? or(ilike(vendors.name, likePattern(search)), ilike(vendors.key, likePattern(search))) : undefined;

/** Every vendor (superusers only), with member and app counts. */
export async function listAdminVendors(
  db: Db,
  opts: {
    search?: string;
    order: keyof typeof orderColumns;
    dir: 'asc' | 'desc';
    offset: number;
    limit: number;
  },
): Promise<AdminVendorRow[]> {
  const by = opts.dir === 'asc' ? asc : desc;
  return db
    .select({ vendor: vendors, memberCount, appCount, plan: planNameOf(db) })
    .from(vendors)
    .where(searchWhere(opts.search))
    .orderBy(by(orderColumns[opts.order]), asc(vendors.id))
    .offset(opts.offset)
    .limit(opts.limit);
}

export async function countAdminVendors(db: Db, search?: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(vendors).where(searchWhere(search));
  return row?.n ?? 0;
}

export async function findAdminVendor(db: Db, id: number): Promise<AdminVendorRow | null> {
  const rows = await db
    .select({ vendor: vendors, memberCount, appCount, plan: planNameOf(db) })
    .from(vendors)
    .where(and(eq(vendors.id, id)))
    .limit(1);
  return rows[0] ?? null;
}
