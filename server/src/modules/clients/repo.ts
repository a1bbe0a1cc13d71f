/** Data access for API clients. Every function takes the vendor id and filters by it, except the token lookup. */
import type { ClientOrderColumn } from '@llmor/contracts';
import { and, asc, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';

const { clients, vendors } = schema;

export type ClientRow = typeof clients.$inferSelect;
export type VendorRow = typeof vendors.$inferSelect;
export type ClientSettings = Pick<ClientRow, 'name' | 'active' | 'requestRateLimit' | 'requestRateInterval'>;

function orderBy(order: ClientOrderColumn, dir: 'asc' | 'desc'): SQL[] {
  const d = sql.raw(dir);
  const byId = dir === 'asc' ? asc(clients.id) : desc(clients.id);
  switch (order) {
    case 'last_used':
      // Clients never used sort last either way.
      return [sql`${clients.lastUsed} ${d} nulls last`, byId];
    case 'requets_count':
      return [sql`${clients.requetsCount} ${d}`, byId];
    case 'created_at':
      return [sql`${clients.createdAt} ${d}`, byId];
  }
}

export async function listClients(
  db: Db,
  vendorId: number,
  appId: number,
  opts: { order: ClientOrderColumn; dir: 'asc' | 'desc'; page: number; pageSize: number },
): Promise<{ rows: ClientRow[]; total: number }> {
  const where = and(eq(clients.vendorId, vendorId), eq(clients.vendorAppId, appId));
  const rows = await db
    .select()
    .from(clients)
    .where(where)
    .orderBy(...orderBy(opts.order, opts.dir))
    .limit(opts.pageSize)
    .offset(opts.page * opts.pageSize);
  const [total] = await db.select({ n: count() }).from(clients).where(where);
  return { rows, total: total?.n ?? 0 };
}

export async function findClient(
  db: Db,
  vendorId: number,
  appId: number,
  clientId: number,
): Promise<ClientRow | null> {
  const [row] = await db
    .select()
    .from(clients)
    .where(and(eq(clients.vendorId, vendorId), eq(clients.vendorAppId, appId), eq(clients.id, clientId)));
  return row ?? null;
}

export async function insertClient(
  db: Db,
  vendorId: number,
  values: ClientSettings & { vendorAppId: number; tokenHash: string; tokenTail: string; createdBy: number },
): Promise<ClientRow> {
  const [row] = await db
    .insert(clients)
    .values({ ...values, vendorId })
    .returning();
  return row!;
}

export async function updateClient(
  db: Db,
  vendorId: number,
  appId: number,
  clientId: number,
  values: ClientSettings,
): Promise<ClientRow | null> {
  const [row] = await db
    .update(clients)
    .set({ ...values, modifiedAt: new Date() })
    .where(and(eq(clients.vendorId, vendorId), eq(clients.vendorAppId, appId), eq(clients.id, clientId)))
    .returning();
  return row ?? null;
}

/**
 * The one lookup without a vendor id: the token's hash names the client (and its vendor, checked
 * against `X-Vendor` by the caller). Joined with the vendor so authentication costs one query.
 */
export async function findClientByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<{ client: ClientRow; vendor: VendorRow } | null> {
  const [row] = await db
    .select({ client: clients, vendor: vendors })
    .from(clients)
    .innerJoin(vendors, eq(vendors.id, clients.vendorId))
    .where(eq(clients.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

/** Counts one accepted call: one atomic update, so concurrent calls on any instance all count. */
export async function recordClientUse(db: Db, vendorId: number, clientId: number): Promise<void> {
  await db
    .update(clients)
    .set({ requetsCount: sql`${clients.requetsCount} + 1`, lastUsed: sql`now()` })
    .where(and(eq(clients.vendorId, vendorId), eq(clients.id, clientId)));
}
