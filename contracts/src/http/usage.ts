/**
 * Usage: the tokens, requests and cost the completion engine recorded (one `usage_records` row per
 * model request), summed over four periods for the App settings → Usage page (docs/reference/console.md).
 *
 * Calls (vendor-scoped, signed session required):
 *
 * - `GET /v1/vendors/{vendorId}/usage?app_id=` → 200 `{data: UsageStats}`.
 *   Without `app_id` the whole vendor; with it only that app. Another vendor's app or an unknown id →
 *   404 `{name: 'NotFound', message: 'App not found'}`; a non-numeric `app_id` → 400 with a field error.
 *
 * Periods (days are UTC days): `today` since 00:00 UTC of the current day, `last_7_days` the last 7 × 24 h,
 * `last_30_days` the last 30 × 24 h, `total` everything.
 *
 * Counts are formatted with thousands separators (`12,345`), costs in the vendor's currency
 * (`CHF 0.15`); with no usage every count is `0` and the cost the currency's zero (`CHF 0.00`).
 */
import { z } from 'zod';
import { idParam } from './common';

const emptyIsAbsent = (v: unknown) => (v === '' ? undefined : v);

/** Query of `GET /v1/vendors/{vendorId}/usage`. */
export const usageQuery = z.object({
  app_id: z.preprocess(emptyIsAbsent, idParam.optional()),
  locale: z.string().optional(),
});
export type UsageQuery = z.infer<typeof usageQuery>;

export const USAGE_PERIODS = ['today', 'last_7_days', 'last_30_days', 'total'] as const;
export type UsagePeriod = (typeof USAGE_PERIODS)[number];

/** The sums of one period, raw and formatted. `cost_minor` is in the vendor currency's minor units. */
const usagePeriodStatsSchema = z.object({
  tokens_prompt: z.number(),
  tokens_completion: z.number(),
  request_count: z.number(),
  cost_minor: z.number(),
  tokens_prompt_formatted: z.string(),
  tokens_completion_formatted: z.string(),
  request_count_formatted: z.string(),
  cost_formatted: z.string(),
});
export type UsagePeriodStats = z.infer<typeof usagePeriodStatsSchema>;

const usageStatsSchema = z.object({
  today: usagePeriodStatsSchema,
  last_7_days: usagePeriodStatsSchema,
  last_30_days: usagePeriodStatsSchema,
  total: usagePeriodStatsSchema,
});
export type UsageStats = z.infer<typeof usageStatsSchema>;

export const usageResponseSchema = z.object({ data: usageStatsSchema });
export type UsageResponse = z.infer<typeof usageResponseSchema>;
