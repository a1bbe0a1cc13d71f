import type { PlanInterval } from '@llmor/contracts';

export interface Period {
  start: Date;
  end: Date;
}

/** `anchor` plus `n` months, the day clamped to the target month's last day (Jan 31 + 1 → Feb 28/29). */
export function addMonths(anchor: Date, n: number): Date {
  const d = new Date(anchor);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + n);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d;
}

const monthsOf = (interval: PlanInterval) => (interval === 'year' ? 12 : 1);

/** The calendar month (UTC) holding `now`: the period of vendors without a subscription period. */
export function calendarMonth(now: Date): Period {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { start, end: addMonths(start, 1) };
}

/**
 * The period holding `now`: the subscription's stored period while it lasts, then the following
 * ones of the plan's interval from its end (a late or missing renewal from Stripe does not freeze the
 * counters); the calendar month without a stored period.
 */
export function currentPeriod(
  stored: { start: Date | null; end: Date | null },
  interval: PlanInterval,
  now: Date,
): Period {
  if (!stored.start || !stored.end) return calendarMonth(now);
  if (now < stored.end) return { start: stored.start, end: stored.end };
  const step = monthsOf(interval);
  let n = 0;
  while (addMonths(stored.end, n + step) <= now) n += step;
  return { start: addMonths(stored.end, n), end: addMonths(stored.end, n + step) };
}
