/**
 * The one check that a vendor owns a resource an id names, whether the id came in the path (the pipeline
 * resolves it through `PipelinePorts.owned`, docs/adr/0031) or in a body or query (services call these).
 * Another vendor's resource and a missing one are the same 404.
 */
import { and, eq } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { notFound } from '../../platform/errors';
import type { AppRow } from '../../platform/http/identity';

const { apps } = schema;

export async function findVendorApp(db: Db, vendorId: number, appId: number): Promise<AppRow | null> {
  const rows = await db
    .select()
    .from(apps)
    .where(and(eq(apps.vendorId, vendorId), eq(apps.id, appId)))
    .limit(1);
  return rows[0] ?? null;
}

/** The vendor's app, else 404 `App not found`. */
export async function vendorApp(db: Db, vendorId: number, appId: number): Promise<AppRow> {
  const app = await findVendorApp(db, vendorId, appId);
  if (!app) throw notFound('App');
  return app;
}
