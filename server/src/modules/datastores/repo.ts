/** Data access for datastores and their documents. Every function takes the vendor id and filters by it. */
import { and, asc, count, desc, eq, ilike, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { likePattern } from '../../platform/db/search';
import { rowsOf } from './vectors';

const { datastores, datastoreDocuments, vendorModels } = schema;

export type DatastoreRow = typeof datastores.$inferSelect;
export type DocumentRow = Omit<typeof datastoreDocuments.$inferSelect, 'search'>;

const documentColumns = {
  id: datastoreDocuments.id,
  vendorId: datastoreDocuments.vendorId,
  datastoreId: datastoreDocuments.datastoreId,
  hash: datastoreDocuments.hash,
  document: datastoreDocuments.document,
  source: datastoreDocuments.source,
  requiresSync: datastoreDocuments.requiresSync,
  syncLeaseUntil: datastoreDocuments.syncLeaseUntil,
  syncError: datastoreDocuments.syncError,
  createdAt: datastoreDocuments.createdAt,
  modifiedAt: datastoreDocuments.modifiedAt,
};

export async function listDatastores(db: Db, vendorId: number, appId: number): Promise<DatastoreRow[]> {
  return db
    .select()
    .from(datastores)
    .where(and(eq(datastores.vendorId, vendorId), eq(datastores.appId, appId)))
    .orderBy(asc(datastores.id));
}

export async function findDatastore(db: Db, vendorId: number, id: number): Promise<DatastoreRow | null> {
  const [row] = await db
    .select()
    .from(datastores)
    .where(and(eq(datastores.vendorId, vendorId), eq(datastores.id, id)));
  return row ?? null;
}

export async function findDatastoreByName(
  db: Db,
  vendorId: number,
  appId: number,
  name: string,
): Promise<DatastoreRow | null> {
  const [row] = await db
    .select()
    .from(datastores)
    .where(and(eq(datastores.vendorId, vendorId), eq(datastores.appId, appId), eq(datastores.name, name)));
  return row ?? null;
}

/** Inserts a datastore; null when the app already has one of that name. */
export async function insertDatastore(
  db: Db,
  vendorId: number,
  values: { appId: number; name: string; embeddingVendorModelId: number | null; createdBy: number | null },
): Promise<DatastoreRow | null> {
  const [row] = await db
    .insert(datastores)
    .values({ vendorId, ...values })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}

export async function updateDatastore(
  db: Db,
  vendorId: number,
  id: number,
  values: Partial<Pick<DatastoreRow, 'name' | 'embeddingVendorModelId' | 'lastError'>>,
): Promise<DatastoreRow | null> {
  const [row] = await db
    .update(datastores)
    .set({ ...values, modifiedAt: new Date() })
    .where(and(eq(datastores.vendorId, vendorId), eq(datastores.id, id)))
    .returning();
  return row ?? null;
}

/** Sets the datastore's embedding model if it has none; null when it had one already. */
export async function adoptEmbeddingModel(
  db: Db,
  vendorId: number,
  id: number,
  modelId: number,
): Promise<DatastoreRow | null> {
  const [row] = await db
    .update(datastores)
    .set({ embeddingVendorModelId: modelId, lastError: null, modifiedAt: new Date() })
    .where(
      and(
        eq(datastores.vendorId, vendorId),
        eq(datastores.id, id),
        isNull(datastores.embeddingVendorModelId),
      ),
    )
    .returning();
  return row ?? null;
}

export async function deleteDatastore(db: Db, vendorId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(datastores)
    .where(and(eq(datastores.vendorId, vendorId), eq(datastores.id, id)))
    .returning({ id: datastores.id });
  return rows.length > 0;
}

/** The vendor's embedding models, first installed first. */
export async function vendorEmbeddingModels(db: Db, vendorId: number) {
  return db
    .select()
    .from(vendorModels)
    .where(and(eq(vendorModels.vendorId, vendorId), eq(vendorModels.type, 'embedding')))
    .orderBy(asc(vendorModels.id));
}

// ---------------------------------------------------------------------------------------------------
// Documents
// ---------------------------------------------------------------------------------------------------

function documentsWhere(vendorId: number, datastoreId: number, search?: string) {
  const base = and(
    eq(datastoreDocuments.vendorId, vendorId),
    eq(datastoreDocuments.datastoreId, datastoreId),
  );
  if (!search) return base;
  const pattern = likePattern(search);
  return and(
    base,
    or(ilike(sql`${datastoreDocuments.document}::text`, pattern), ilike(datastoreDocuments.hash, pattern)),
  );
}

export async function listDocuments(
  db: Db,
  vendorId: number,
  datastoreId: number,
  opts: { search?: string; offset: number; limit: number; dir: 'asc' | 'desc' },
): Promise<DocumentRow[]> {
  return db
    .select(documentColumns)
    .from(datastoreDocuments)
    .where(documentsWhere(vendorId, datastoreId, opts.search))
    .orderBy(opts.dir === 'asc' ? asc(datastoreDocuments.id) : desc(datastoreDocuments.id))
    .offset(opts.offset)
    .limit(opts.limit);
}

export async function countDocuments(
  db: Db,
  vendorId: number,
  datastoreId: number,
  search?: string,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(datastoreDocuments)
    .where(documentsWhere(vendorId, datastoreId, search));
  return row?.n ?? 0;
}

export async function findDocuments(db: Db, vendorId: number, datastoreId: number, ids: number[]) {
  if (ids.length === 0) return [];
  return db
    .select(documentColumns)
    .from(datastoreDocuments)
    .where(
      and(
        eq(datastoreDocuments.vendorId, vendorId),
        eq(datastoreDocuments.datastoreId, datastoreId),
        sql`${datastoreDocuments.id} = any(${sql.raw(`array[${ids.map(Number).join(',')}]::int[]`)})`,
      ),
    );
}

/**
 * Inserts documents whose hash the datastore does not have yet; answers the new rows in input order. One
 * transaction: a failure stores nothing. Each chunk is one statement whose rows travel as one JSON
 * parameter (no bound value per column and row), answering only what the database decides.
 */
export async function insertDocuments(
  db: Db,
  vendorId: number,
  datastoreId: number,
  docs: { hash: string; document: unknown; source: unknown }[],
): Promise<DocumentRow[]> {
  const CHUNK = 5000;
  const inserted = await db.transaction(async (tx) => {
    const out: DocumentRow[] = [];
    for (let i = 0; i < docs.length; i += CHUNK) {
      const chunk = docs.slice(i, i + CHUNK);
      const byHash = new Map(chunk.map((d) => [d.hash, d]));
      const rows = rowsOf<{ id: number; hash: string; created_at: string | Date }>(
        await tx.execute(sql`
          insert into datastore_documents (vendor_id, datastore_id, hash, document, source)
          select ${vendorId}, ${datastoreId}, x.hash, x.document, x.source
          from json_to_recordset(${JSON.stringify(chunk)}::json) as x(hash text, document json, source jsonb)
          on conflict do nothing
          returning id, hash, created_at`),
      );
      for (const row of rows) {
        const doc = byHash.get(row.hash)!;
        const at = new Date(row.created_at);
        out.push({
          id: row.id,
          vendorId,
          datastoreId,
          hash: row.hash,
          document: doc.document,
          source: doc.source ?? null,
          requiresSync: true,
          syncLeaseUntil: null,
          syncError: null,
          createdAt: at,
          modifiedAt: at,
        });
      }
    }
    return out.sort((a, b) => a.id - b.id);
  });
  // After the commit: no lock of the import is held while the statistics are read.
  if (inserted.length >= ANALYZE_AFTER) await refreshStatistics(db);
  return inserted;
}

/** Documents added (or embedded) at once from which the table's statistics are refreshed. */
export const ANALYZE_AFTER = 1000;

/**
 * Reads the documents' statistics again after a bulk change. The embedded database has no autovacuum to
 * notice one, and stale figures make its plans scans: after an import the worker's claims would read every
 * waiting document instead of walking the pending index, and once it is embedded the search of waiting
 * documents' words would read every document instead of the (now empty) pending index.
 */
export async function refreshStatistics(db: Db): Promise<void> {
  await db.execute(sql`analyze datastore_documents`);
}

export type DocumentUpdate = { ok: true; row: DocumentRow } | { ok: false; reason: 'missing' | 'duplicate' };

/** Replaces a document's content; it needs embedding again. */
export async function updateDocument(
  db: Db,
  vendorId: number,
  datastoreId: number,
  id: number,
  values: { hash: string; document: unknown },
): Promise<DocumentUpdate> {
  const [clash] = await db
    .select({ id: datastoreDocuments.id })
    .from(datastoreDocuments)
    .where(and(eq(datastoreDocuments.datastoreId, datastoreId), eq(datastoreDocuments.hash, values.hash)));
  if (clash && clash.id !== id) return { ok: false, reason: 'duplicate' };
  const [row] = await db
    .update(datastoreDocuments)
    .set({ ...values, requiresSync: true, syncError: null, syncLeaseUntil: null, modifiedAt: new Date() })
    .where(
      and(
        eq(datastoreDocuments.vendorId, vendorId),
        eq(datastoreDocuments.datastoreId, datastoreId),
        eq(datastoreDocuments.id, id),
      ),
    )
    .returning(documentColumns);
  return row ? { ok: true, row } : { ok: false, reason: 'missing' };
}

export async function deleteDocument(db: Db, vendorId: number, datastoreId: number, id: number) {
  const rows = await db
    .delete(datastoreDocuments)
    .where(
      and(
        eq(datastoreDocuments.vendorId, vendorId),
        eq(datastoreDocuments.datastoreId, datastoreId),
        eq(datastoreDocuments.id, id),
      ),
    )
    .returning({ id: datastoreDocuments.id });
  return rows.length > 0;
}

export async function truncateDocuments(db: Db, vendorId: number, datastoreId: number): Promise<number> {
  const rows = await db
    .delete(datastoreDocuments)
    .where(and(eq(datastoreDocuments.vendorId, vendorId), eq(datastoreDocuments.datastoreId, datastoreId)))
    .returning({ id: datastoreDocuments.id });
  return rows.length;
}

/** Every document of the datastore waits for embedding again (its embedding model changed). */
export async function markAllForSync(db: Db, vendorId: number, datastoreId: number): Promise<void> {
  await db
    .update(datastoreDocuments)
    .set({ requiresSync: true, syncError: null, syncLeaseUntil: null })
    .where(and(eq(datastoreDocuments.vendorId, vendorId), eq(datastoreDocuments.datastoreId, datastoreId)));
}

export async function documentStatus(db: Db, vendorId: number, datastoreId: number) {
  const [row] = await db
    .select({
      documents: count(),
      pending: sql<number>`count(*) filter (where ${datastoreDocuments.requiresSync})::int`,
      failed: sql<number>`count(*) filter (where ${datastoreDocuments.requiresSync} and ${datastoreDocuments.syncError} is not null)::int`,
    })
    .from(datastoreDocuments)
    .where(and(eq(datastoreDocuments.vendorId, vendorId), eq(datastoreDocuments.datastoreId, datastoreId)));
  return { documents: row?.documents ?? 0, pending: row?.pending ?? 0, failed: row?.failed ?? 0 };
}

// ---------------------------------------------------------------------------------------------------
// Sync (the worker's side)
// ---------------------------------------------------------------------------------------------------

export interface ClaimedDocument {
  id: number;
  hash: string;
  document: unknown;
}

/**
 * Leases up to `limit` documents waiting for embedding, lowest id first from `after` on (a sync job walks
 * the datastore forward, so a claim reads its batch only, not every document before it): one statement, so
 * two workers never take the same document (SKIP LOCKED), and a lease left by a dead worker expires by
 * itself. `lease: false` reads the batch without leasing it — for the embedded database, where this
 * process's one worker is the only claimer and a restart frees every lease anyway: each document is then
 * rewritten once (when synced) instead of twice.
 */
export async function claimPending(
  db: Db,
  vendorId: number,
  datastoreId: number,
  opts: { limit: number; leaseSeconds: number; after: number; lease: boolean },
): Promise<ClaimedDocument[]> {
  const waiting = sql`
    select id from datastore_documents
    where vendor_id = ${vendorId} and datastore_id = ${datastoreId} and requires_sync and id > ${opts.after}
      and (sync_lease_until is null or sync_lease_until < now())
    order by id limit ${opts.limit}`;
  // `= any(array(…))`: the batch's rows are found by key, never by a scan of the table.
  const result = opts.lease
    ? await db.execute(sql`
        update datastore_documents set sync_lease_until = now() + make_interval(secs => ${opts.leaseSeconds})
        where id = any(array(${waiting} for update skip locked))
        returning id, hash, document`)
    : await db.execute(sql`
        select id, hash, document from datastore_documents where id = any(array(${waiting}))`);
  return rowsOf<ClaimedDocument>(result).sort((a, b) => a.id - b.id);
}

/** Releases documents whose embedding failed, noting why (they are retried). */
export async function releaseFailed(db: Db, vendorId: number, ids: number[], error: string) {
  if (ids.length === 0) return;
  await db
    .update(datastoreDocuments)
    .set({ syncLeaseUntil: null, syncError: error })
    .where(
      and(
        eq(datastoreDocuments.vendorId, vendorId),
        sql`${datastoreDocuments.id} = any(${sql.raw(`array[${ids.map(Number).join(',')}]::int[]`)})`,
      ),
    );
}

/** Whether documents of the datastore wait for embedding and nobody holds them. */
export async function hasClaimable(db: Db, vendorId: number, datastoreId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: datastoreDocuments.id })
    .from(datastoreDocuments)
    .where(
      and(
        eq(datastoreDocuments.vendorId, vendorId),
        eq(datastoreDocuments.datastoreId, datastoreId),
        eq(datastoreDocuments.requiresSync, true),
        or(isNull(datastoreDocuments.syncLeaseUntil), lt(datastoreDocuments.syncLeaseUntil, sql`now()`)),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** Datastores (all vendors) with documents waiting that nobody holds (and, unless asked, that did not fail). */
export async function datastoresWithPending(
  db: Db,
  opts: { includeFailed: boolean },
): Promise<{ vendorId: number; datastoreId: number }[]> {
  return db
    .selectDistinct({ vendorId: datastoreDocuments.vendorId, datastoreId: datastoreDocuments.datastoreId })
    .from(datastoreDocuments)
    .where(
      and(
        eq(datastoreDocuments.requiresSync, true),
        opts.includeFailed ? undefined : isNull(datastoreDocuments.syncError),
        or(isNull(datastoreDocuments.syncLeaseUntil), lt(datastoreDocuments.syncLeaseUntil, sql`now()`)),
      ),
    );
}

/** Drops every lease (only where no other process can hold one: the embedded single process). */
export async function clearLeases(db: Db): Promise<void> {
  await db
    .update(datastoreDocuments)
    .set({ syncLeaseUntil: null })
    .where(isNotNull(datastoreDocuments.syncLeaseUntil));
}
