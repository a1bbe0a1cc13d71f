/** Data access for apps. Every function takes the vendor id and puts it in every `where`. */
import { and, asc, count, desc, eq, ilike, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { likePattern } from '../../platform/db/search';
import type { AppRow } from '../../platform/http/identity';

const { apps, appFunctions, functions, users, vendorModels } = schema;

export type { AppRow };
export interface CreatorRow {
  id: number;
  firstname: string;
  lastname: string;
  email: string;
}
export interface AppWithCreator {
  app: AppRow;
  creator: CreatorRow | null;
}
export interface AppFunctionRow {
  id: number;
  name: string;
  functionKey: string;
  description: string;
  runtime: string;
  config: unknown;
  argumentSchema: unknown;
  configSchema: unknown;
}

export interface AppListFilter {
  search?: string;
  types?: string[];
}
export interface AppListOptions extends AppListFilter {
  order: 'created_at' | 'name' | 'app_key';
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const creatorColumns = {
  id: users.id,
  firstname: users.firstname,
  lastname: users.lastname,
  email: users.email,
};

function filterWhere(vendorId: number, filter: AppListFilter): SQL {
  const conditions: SQL[] = [eq(apps.vendorId, vendorId)];
  if (filter.types && filter.types.length > 0) conditions.push(inArray(apps.type, filter.types));
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(
      or(ilike(apps.name, pattern), ilike(apps.description, pattern), ilike(apps.appKey, pattern))!,
    );
  }
  return and(...conditions)!;
}

const orderColumns = {
  created_at: apps.createdAt,
  name: sql`lower(${apps.name})`,
  app_key: apps.appKey,
} as const;

export async function listApps(db: Db, vendorId: number, opts: AppListOptions): Promise<AppWithCreator[]> {
  const by = opts.dir === 'asc' ? asc : desc;
  return db
    .select({ app: apps, creator: creatorColumns })
    .from(apps)
    .leftJoin(users, eq(users.id, apps.createdBy))
    .where(filterWhere(vendorId, opts))
    .orderBy(by(orderColumns[opts.order]), by(apps.id))
    .limit(opts.limit)
    .offset(opts.offset);
}

export async function countApps(db: Db, vendorId: number, filter: AppListFilter = {}): Promise<number> {
  const [row] = await db.select({ n: count() }).from(apps).where(filterWhere(vendorId, filter));
  return row?.n ?? 0;
}

/** Who created an app (null once their account is gone). */
export async function findCreator(db: Db, userId: number | null): Promise<CreatorRow | null> {
  if (userId === null) return null;
  const rows = await db.select(creatorColumns).from(users).where(eq(users.id, userId)).limit(1);
  return rows[0] ?? null;
}

export async function insertApp(
  db: Db,
  vendorId: number,
  values: Omit<typeof apps.$inferInsert, 'vendorId' | 'id'>,
): Promise<AppRow> {
  const [row] = await db
    .insert(apps)
    .values({ ...values, vendorId })
    .returning();
  return row!;
}

export interface AppChanges {
  name: string;
  description?: string;
  completionVendorModelId?: number | null;
  parameters?: Record<string, unknown>;
  meta?: Record<string, unknown>;
}

/** Updates an app and, when `functionsData` is given, replaces its installed functions — in one transaction. */
export async function updateApp(
  db: Db,
  vendorId: number,
  appId: number,
  changes: AppChanges,
  functionsData?: { functionId: number; config: Record<string, unknown> }[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const updated = await tx
      .update(apps)
      .set({ ...changes, modifiedAt: new Date() })
      .where(and(eq(apps.vendorId, vendorId), eq(apps.id, appId)))
      .returning({ id: apps.id });
    if (updated.length === 0) return false;
    if (functionsData) {
      await tx
        .delete(appFunctions)
        .where(and(eq(appFunctions.vendorId, vendorId), eq(appFunctions.appId, appId)));
      if (functionsData.length > 0) {
        await tx.insert(appFunctions).values(
          functionsData.map((f, position) => ({
            vendorId,
            appId,
            functionId: f.functionId,
            config: f.config,
            position,
          })),
        );
      }
    }
    return true;
  });
}

export async function deleteApp(db: Db, vendorId: number, appId: number): Promise<boolean> {
  const rows = await db
    .delete(apps)
    .where(and(eq(apps.vendorId, vendorId), eq(apps.id, appId)))
    .returning({ id: apps.id });
  return rows.length > 0;
}

export async function listAppFunctions(db: Db, vendorId: number, appId: number): Promise<AppFunctionRow[]> {
  return db
    .select({
      id: functions.id,
      name: functions.name,
      functionKey: functions.functionKey,
      description: functions.description,
      runtime: functions.runtime,
      config: appFunctions.config,
      argumentSchema: functions.argumentSchema,
      configSchema: functions.configSchema,
    })
    .from(appFunctions)
    .innerJoin(functions, and(eq(functions.id, appFunctions.functionId), eq(functions.vendorId, vendorId)))
    .where(and(eq(appFunctions.vendorId, vendorId), eq(appFunctions.appId, appId)))
    .orderBy(asc(appFunctions.position), asc(functions.id));
}

/** Of `ids`, those naming a function of this vendor that this app may use (shared, or specific to it). */
export async function installableFunctionIds(
  db: Db,
  vendorId: number,
  appId: number,
  ids: number[],
): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: functions.id })
    .from(functions)
    .where(
      and(
        eq(functions.vendorId, vendorId),
        inArray(functions.id, ids),
        or(isNull(functions.specificAppId), eq(functions.specificAppId, appId)),
      ),
    );
  return new Set(rows.map((r) => r.id));
}

/** The vendor's first installed chat completion model, the default for a newly installed app. */
export async function firstVendorChatModelId(db: Db, vendorId: number): Promise<number | null> {
  const rows = await db
    .select({ id: vendorModels.id })
    .from(vendorModels)
    .where(and(eq(vendorModels.vendorId, vendorId), eq(vendorModels.type, 'chat_completion')))
    .orderBy(vendorModels.id)
    .limit(1);
  return rows[0]?.id ?? null;
}

/** Whether `modelId` is one of this vendor's chat completion models. */
export async function isVendorChatModel(db: Db, vendorId: number, modelId: number): Promise<boolean> {
  const rows = await db
    .select({ id: vendorModels.id })
    .from(vendorModels)
    .where(
      and(
        eq(vendorModels.vendorId, vendorId),
        eq(vendorModels.id, modelId),
        eq(vendorModels.type, 'chat_completion'),
      ),
    )
    .limit(1);
  return rows.length > 0;
}
