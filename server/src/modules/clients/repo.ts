/** Data access for API clients. Every function takes the vendor id and filters by it, except the token lookup. */
import type { ClientOrderColumn } from '@llmor/contracts';
import { and, asc, count, desc, eq, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { preparedOnce } from '../../platform/db/prepared';

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
 *
 * With `count`, the same statement counts the call as a use (`requets_count`, `last_used`) when it is one
 * the caller accepts without a rate limit (docs/adr/0046 "Amended 2026-11-25"): the client and its vendor
 * active, the vendor the one `count.vendorKey` names (any, when undefined), and no rate limit, whose check
 * comes between the lookup and the count (then `recordClientUse`). `counted` says whether it did. These
 * conditions are the caller's refusals (`clients/callers.ts`), so a refused call counts nothing.
 */
export async function findClientByTokenHash(
  db: Db,
  tokenHash: string,
  count: { vendorKey: string | null | undefined } | null = null,
): Promise<{ client: ClientRow; vendor: VendorRow; counted: boolean } | null> {
  const [row] = await preparedOnce(db, 'client_by_token_hash', clientByTokenHash).execute({
    tokenHash,
    count: count !== null,
    anyVendor: count?.vendorKey === undefined,
    vendorKey: count?.vendorKey ?? null,
  });
  return row ?? null;
}

function clientByTokenHash(db: Db, name: string) {
  const tokenHash = sql.placeholder('tokenHash');
  // The statement's snapshot predates the update: the row read is the client as it was before the count.
  const counted = db.$with('counted').as(
    db
      .update(clients)
      .set({ requetsCount: sql`${clients.requetsCount} + 1`, lastUsed: sql`now()` })
      .from(vendors)
      .where(
        and(
          sql`${sql.placeholder('count')}::boolean`,
          eq(clients.tokenHash, tokenHash),
          eq(vendors.id, clients.vendorId),
          eq(clients.active, true),
          eq(vendors.active, true),
          sql`(${sql.placeholder('anyVendor')}::boolean or ${vendors.key} = ${sql.placeholder('vendorKey')}::text)`,
          or(isNull(clients.requestRateLimit), isNull(clients.requestRateInterval)),
        ),
      )
      .returning({ id: clients.id }),
  );
  return db
    .with(counted)
    .select({ client: clients, vendor: vendors, counted: sql<boolean>`exists (select from ${counted})` })
    .from(clients)
    .innerJoin(vendors, eq(vendors.id, clients.vendorId))
    .where(eq(clients.tokenHash, tokenHash))
    .limit(1)
    .prepare(name);
}

/** Counts one accepted call: one atomic update, so concurrent calls on any instance all count. */
export async function recordClientUse(db: Db, vendorId: number, clientId: number): Promise<void> {
  await db
    .update(clients)
    .set({ requetsCount: sql`${clients.requetsCount} + 1`, lastUsed: sql`now()` })
    .where(and(eq(clients.vendorId, vendorId), eq(clients.id, clientId)));
}
