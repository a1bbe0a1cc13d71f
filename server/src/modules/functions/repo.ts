/** Data access for functions and their runs. Every function takes the vendor id and puts it in every `where`. */
import {
  and,
  asc,
  avg,
  count,
  desc,
  eq,
  getTableColumns,
  ilike,
  inArray,
  isNull,
  ne,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type Db, schema } from '../../platform/db';
import { jsonList } from '../../platform/db/json';
import type { Bound } from '../../platform/db/prepared';
import { likePattern } from '../../platform/db/search';

const { appFunctions, functions, functionRuns } = schema;

export type FunctionRow = typeof functions.$inferSelect;
export type FunctionRunRow = typeof functionRuns.$inferSelect;
export type FunctionListRow = Omit<FunctionRow, 'code'>;

export interface FunctionListFilter {
  search?: string;
  runtime?: string;
  isLibrary?: boolean;
  /** Only functions this app may use: shared ones and those specific to it. */
  appId?: number;
}
export interface FunctionListOptions extends FunctionListFilter {
  order: 'name' | 'runtime' | 'last_run' | 'run_count';
  dir: 'asc' | 'desc';
  offset: number;
  limit: number;
}

function filterWhere(vendorId: number, filter: FunctionListFilter): SQL {
  const conditions: SQL[] = [eq(functions.vendorId, vendorId)];
  if (filter.runtime) conditions.push(eq(functions.runtime, filter.runtime));
  if (filter.isLibrary !== undefined) conditions.push(eq(functions.isLibrary, filter.isLibrary));
  if (filter.appId !== undefined) {
    conditions.push(or(isNull(functions.specificAppId), eq(functions.specificAppId, filter.appId))!);
  }
  if (filter.search) {
    const pattern = likePattern(filter.search);
    conditions.push(
      or(
        ilike(functions.name, pattern),
        ilike(functions.functionKey, pattern),
        ilike(functions.description, pattern),
      )!,
    );
  }
  return and(...conditions)!;
}

function orderBy(order: FunctionListOptions['order'], dir: 'asc' | 'desc'): SQL[] {
  const d = dir === 'asc' ? sql.raw('asc') : sql.raw('desc');
  const byId = dir === 'asc' ? asc(functions.id) : desc(functions.id);
  switch (order) {
    case 'name':
      return [sql`lower(${functions.name}) ${d}`, byId];
    case 'runtime':
      return [sql`${functions.runtime} ${d}`, sql`lower(${functions.name}) asc`, byId];
    case 'last_run':
      // Functions never run sort last either way.
      return [sql`${functions.lastRun} ${d} nulls last`, byId];
    case 'run_count':
      return [sql`${functions.runCount} ${d}`, byId];
  }
}

const { code: _code, ...listColumns } = getTableColumns(functions);

export async function listFunctions(
  db: Db,
  vendorId: number,
  opts: FunctionListOptions,
): Promise<FunctionListRow[]> {
  return db
    .select(listColumns)
    .from(functions)
    .where(filterWhere(vendorId, opts))
    .orderBy(...orderBy(opts.order, opts.dir))
    .limit(opts.limit)
    .offset(opts.offset);
}

export async function countFunctions(
  db: Db,
  vendorId: number,
  filter: FunctionListFilter = {},
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(functions).where(filterWhere(vendorId, filter));
  return row?.n ?? 0;
}

export async function findFunction(db: Db, vendorId: number, id: number): Promise<FunctionRow | null> {
  const rows = await db
    .select()
    .from(functions)
    .where(and(eq(functions.vendorId, vendorId), eq(functions.id, id)))
    .limit(1);
  return rows[0] ?? null;
}

/** Whether another function of this vendor (not `exceptId`) has this key. */
export async function functionKeyTaken(
  db: Db,
  vendorId: number,
  functionKey: string,
  exceptId?: number,
): Promise<boolean> {
  const rows = await db
    .select({ id: functions.id })
    .from(functions)
    .where(
      and(
        eq(functions.vendorId, vendorId),
        eq(functions.functionKey, functionKey),
        exceptId === undefined ? undefined : ne(functions.id, exceptId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export type FunctionValues = Pick<
  typeof functions.$inferInsert,
  | 'name'
  | 'functionKey'
  | 'description'
  | 'runtime'
  | 'isLibrary'
  | 'code'
  | 'argumentSchema'
  | 'configSchema'
  | 'specificAppId'
  | 'createdBy'
>;

export async function insertFunction(db: Db, vendorId: number, values: FunctionValues): Promise<FunctionRow> {
  const [row] = await db
    .insert(functions)
    .values({ ...values, vendorId })
    .returning();
  return row!;
}

export type FunctionChanges = Partial<Omit<FunctionValues, 'createdBy'>>;

/**
 * Updates a function. When it becomes specific to an app, its installations in other apps are removed
 * in the same transaction (only that app may use it).
 */
export async function updateFunction(
  db: Db,
  vendorId: number,
  id: number,
  changes: FunctionChanges,
): Promise<FunctionRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(functions)
      .set({ ...changes, modifiedAt: new Date() })
      .where(and(eq(functions.vendorId, vendorId), eq(functions.id, id)))
      .returning();
    if (!row) return null;
    if (row.specificAppId !== null) {
      await tx
        .delete(appFunctions)
        .where(
          and(
            eq(appFunctions.vendorId, vendorId),
            eq(appFunctions.functionId, id),
            ne(appFunctions.appId, row.specificAppId),
          ),
        );
    }
    return row;
  });
}

export async function deleteFunction(db: Db, vendorId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(functions)
    .where(and(eq(functions.vendorId, vendorId), eq(functions.id, id)))
    .returning({ id: functions.id });
  return rows.length > 0;
}

// ---------------------------------------------------------------------------------------------------
// Runs
// ---------------------------------------------------------------------------------------------------

export type RunValues = Pick<
  typeof functionRuns.$inferInsert,
  | 'conversationId'
  | 'status'
  | 'took'
  | 'memory'
  | 'arguments'
  | 'config'
  | 'result'
  | 'error'
  | 'console'
  | 'debug'
>;

/**
 * Stores a run and counts it on its function (last_run, run_count, run_count_success) in one transaction.
 * Null when the function is gone (deleted while it ran): nothing is stored then.
 */
export async function insertRun(
  db: Db,
  vendorId: number,
  functionId: number,
  values: RunValues,
): Promise<FunctionRunRow | null> {
  return db.transaction(async (tx) => {
    const now = new Date();
    const counted = await tx
      .update(functions)
      .set({
        lastRun: now,
        runCount: sql`${functions.runCount} + 1`,
        runCountSuccess: sql`${functions.runCountSuccess} + ${values.status === 1 ? 1 : 0}`,
      })
      .where(and(eq(functions.vendorId, vendorId), eq(functions.id, functionId)))
      .returning({ id: functions.id });
    if (counted.length === 0) return null;
    const [row] = await tx
      .insert(functionRuns)
      .values({ ...values, vendorId, functionId, createdAt: now })
      .returning();
    return row!;
  });
}

function runsWhere(vendorId: number, functionId: number, status?: 1 | -1): SQL {
  return and(
    eq(functionRuns.vendorId, vendorId),
    eq(functionRuns.functionId, functionId),
    status === 1 ? eq(functionRuns.status, 1) : status === -1 ? ne(functionRuns.status, 1) : undefined,
  )!;
}

export interface RunListRow {
  id: number;
  status: number;
  took: number;
  memory: number;
  createdAt: Date;
  conversationId: number | null;
}

export async function listRuns(
  db: Db,
  vendorId: number,
  functionId: number,
  opts: { status?: 1 | -1; offset: number; limit: number },
): Promise<RunListRow[]> {
  return db
    .select({
      id: functionRuns.id,
      status: functionRuns.status,
      took: functionRuns.took,
      memory: functionRuns.memory,
      createdAt: functionRuns.createdAt,
      conversationId: functionRuns.conversationId,
    })
    .from(functionRuns)
    .where(runsWhere(vendorId, functionId, opts.status))
    .orderBy(desc(functionRuns.id))
    .limit(opts.limit)
    .offset(opts.offset);
}

export async function countRuns(
  db: Db,
  vendorId: number,
  functionId: number,
  status?: 1 | -1,
): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(functionRuns)
    .where(runsWhere(vendorId, functionId, status));
  return row?.n ?? 0;
}

export async function averageTook(db: Db, vendorId: number, functionId: number): Promise<number | null> {
  const [row] = await db
    .select({ took: avg(functionRuns.took) })
    .from(functionRuns)
    .where(runsWhere(vendorId, functionId));
  return row?.took == null ? null : Math.round(Number(row.took));
}

export async function findRun(
  db: Db,
  vendorId: number,
  functionId: number,
  runId: number,
): Promise<FunctionRunRow | null> {
  const rows = await db
    .select()
    .from(functionRuns)
    .where(
      and(
        eq(functionRuns.vendorId, vendorId),
        eq(functionRuns.functionId, functionId),
        eq(functionRuns.id, runId),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

// ---------------------------------------------------------------------------------------------------
// Installed functions (conversations)
// ---------------------------------------------------------------------------------------------------

export interface InstalledFunctionRow {
  id: number;
  vendorId: number;
  name: string;
  functionKey: string;
  description: string;
  runtime: string;
  code: string;
  argumentSchema: unknown;
  config: unknown;
}

/**
 * The functions installed in an app, in installation order, with the app's config for each. A function
 * made specific to another app is left out even if an installation row survived.
 */
export async function listInstalledFunctions(
  db: Db,
  vendorId: number,
  appId: number,
): Promise<InstalledFunctionRow[]> {
  return installedFunctionsQuery(db, vendorId, appId);
}

function installedFunctionsQuery(db: Db, vendorId: Bound<number>, appId: Bound<number>) {
  return db
    .select({
      id: functions.id,
      vendorId: functions.vendorId,
      name: functions.name,
      functionKey: functions.functionKey,
      description: functions.description,
      runtime: functions.runtime,
      code: functions.code,
      argumentSchema: functions.argumentSchema,
      config: appFunctions.config,
    })
    .from(appFunctions)
    .innerJoin(functions, and(eq(functions.id, appFunctions.functionId), eq(functions.vendorId, vendorId)))
    .where(
      and(
        eq(appFunctions.vendorId, vendorId),
        eq(appFunctions.appId, appId),
        or(isNull(functions.specificAppId), eq(functions.specificAppId, appId)),
      ),
    )
    .orderBy(asc(appFunctions.position), asc(functions.id));
}

/**
 * `listInstalledFunctions` as one JSON value (a list in installation order), to read with other rows in
 * one statement (a reply's first write reads its tools).
 */
export function installedFunctionsJson(
  db: Db,
  vendorId: Bound<number>,
  appId: Bound<number>,
): SQL<InstalledFunctionRow[]> {
  // In the sorted subquery's order: PostgreSQL keeps it for a plain aggregate over the subquery, which its
  // manual ("Aggregate Expressions") says usually works without promising it; tools are listed in any order.
  return jsonList<InstalledFunctionRow>(installedFunctionsQuery(db, vendorId, appId).as('installed'));
}

/** The config schemas of these functions of the vendor (id → schema; null when none declared). */
export async function configSchemasOf(
  db: Db,
  vendorId: number,
  ids: number[],
): Promise<Map<number, unknown>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: functions.id, configSchema: functions.configSchema })
    .from(functions)
    .where(and(eq(functions.vendorId, vendorId), inArray(functions.id, ids)));
  return new Map(rows.map((r) => [r.id, r.configSchema]));
}
