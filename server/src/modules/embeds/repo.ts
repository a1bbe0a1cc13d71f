/** Data access for web embeds. Every function that serves a vendor takes its id and filters by it. */
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';

const { embeds } = schema;

export type EmbedRow = typeof embeds.$inferSelect;
export type EmbedValues = Pick<EmbedRow, 'name' | 'allowedOrigins' | 'appearance'>;

const orderColumns = {
  name: sql`lower(${embeds.name})`,
  created_at: embeds.createdAt,
} as const;

const ofApp = (vendorId: number, appId: number) =>
  and(eq(embeds.vendorId, vendorId), eq(embeds.vendorAppId, appId));

export async function listEmbeds(
  db: Db,
  vendorId: number,
  appId: number,
  opts: { order: keyof typeof orderColumns; dir: 'asc' | 'desc'; offset: number; limit: number },
): Promise<EmbedRow[]> {
  const by = opts.dir === 'asc' ? asc : desc;
  return db
    .select()
    .from(embeds)
    .where(ofApp(vendorId, appId))
    .orderBy(by(orderColumns[opts.order]), by(embeds.id))
    .offset(opts.offset)
    .limit(opts.limit);
}

export async function countEmbeds(db: Db, vendorId: number, appId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(embeds).where(ofApp(vendorId, appId));
  return row?.n ?? 0;
}

export async function findEmbed(
  db: Db,
  vendorId: number,
  appId: number,
  id: number,
): Promise<EmbedRow | null> {
  const [row] = await db
    .select()
    .from(embeds)
    .where(and(ofApp(vendorId, appId), eq(embeds.id, id)));
  return row ?? null;
}

/** The embed a script URL or an `X-EmbedToken` names: the token is the only thing such a caller has. */
export async function findEmbedByToken(db: Db, token: string): Promise<EmbedRow | null> {
  const [row] = await db.select().from(embeds).where(eq(embeds.token, token));
  return row ?? null;
}

export async function insertEmbed(
  db: Db,
  vendorId: number,
  values: EmbedValues & { vendorAppId: number; token: string; createdBy: number | null },
): Promise<EmbedRow> {
  const [row] = await db
    .insert(embeds)
    .values({ vendorId, ...values })
    .returning();
  return row!;
}

export async function updateEmbed(
  db: Db,
  vendorId: number,
  appId: number,
  id: number,
  values: Partial<EmbedValues>,
): Promise<EmbedRow | null> {
  const [row] = await db
    .update(embeds)
    .set({ ...values, modifiedAt: new Date() })
    .where(and(ofApp(vendorId, appId), eq(embeds.id, id)))
    .returning();
  return row ?? null;
}

export async function deleteEmbed(db: Db, vendorId: number, appId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(embeds)
    .where(and(ofApp(vendorId, appId), eq(embeds.id, id)))
    .returning({ id: embeds.id });
  return rows.length > 0;
}
