import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, schema } from '../../platform/db';

const { usageRecords } = schema;

/** Sums of one period. */
export interface UsageSums {
  tokensPrompt: number;
  tokensCompletion: number;
  requests: number;
  costMinor: number;
}

/** Where each period starts (`total` has no start). */
export interface PeriodStarts {
  today: Date;
  last7Days: Date;
  last30Days: Date;
}

export interface UsageTotals {
  today: UsageSums;
  last7Days: UsageSums;
  last30Days: UsageSums;
  total: UsageSums;
}

/**
 * `coalesce(sum(column) filter (where created_at >= since), 0)`. Sums are bigint/numeric, which the
 * drivers hand over as strings (node-postgres) or BigInts (PGlite): mapped to numbers.
 */
function sumSince(column: AnyPgColumn, since?: Date): SQL<number> {
  const filter = since
    ? sql` filter (where ${usageRecords.createdAt} >= ${since.toISOString()}::timestamptz)`
    : sql``;
  return sql<number>`coalesce(sum(${column})${filter}, 0)`.mapWith(Number);
}

function sumsSince(since?: Date) {
  return {
    tokensPrompt: sumSince(usageRecords.tokensPrompt, since),
    tokensCompletion: sumSince(usageRecords.tokensCompletion, since),
    requests: sumSince(usageRecords.requests, since),
    costMinor: sumSince(usageRecords.costMinor, since),
  };
}

/**
 * The vendor's usage (or one of its apps') summed over the four periods in one query: every figure is
 * a conditional aggregate over the vendor's rows.
 */
export async function sumUsage(
  db: Db,
  vendorId: number,
  starts: PeriodStarts,
  appId?: number,
): Promise<UsageTotals> {
  const where = [eq(usageRecords.vendorId, vendorId)];
  if (appId !== undefined) where.push(eq(usageRecords.appId, appId));
  const [row] = await db
    .select({
      today: sumsSince(starts.today),
      last7Days: sumsSince(starts.last7Days),
      last30Days: sumsSince(starts.last30Days),
      total: sumsSince(),
    })
    .from(usageRecords)
    .where(and(...where));
  return row!;
}
