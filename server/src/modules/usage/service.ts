import type { UsageQuery, UsageStats } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { vendorApp } from '../vendors/owned';
import type { VendorRow } from '../vendors/repo';
import { presentUsage } from './present';
import { type PeriodStarts, sumUsage } from './repo';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Days are UTC days: `today` starts at 00:00 UTC; the 7- and 30-day periods are rolling 24-hour days. */
export function periodStarts(now: Date): PeriodStarts {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return {
    today: new Date(midnight),
    last7Days: new Date(now.getTime() - 7 * DAY_MS),
    last30Days: new Date(now.getTime() - 30 * DAY_MS),
  };
}

/** The vendor's usage, or one app's; another vendor's or an unknown app answers 404. */
export async function getUsage(
  ctx: AppContext,
  vendor: VendorRow,
  query: UsageQuery,
  now: Date = new Date(),
): Promise<UsageStats> {
  if (query.app_id !== undefined) await vendorApp(ctx.db, vendor.id, query.app_id);
  const totals = await sumUsage(ctx.db, vendor.id, periodStarts(now), query.app_id);
  return presentUsage(totals, vendor.currency);
}
