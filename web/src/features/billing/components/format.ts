import type { LimitKey, Plan } from '@llmor/contracts';
import { formatDate } from '../../../lib/format/date';
import { formatMinor } from '../money';

export const LIMIT_ORDER: readonly LimitKey[] = ['requests', 'tokens', 'apps', 'members'];

/** A count with thousands separators in the page's language. */
export const formatCount = (n: number, locale: string) => n.toLocaleString(locale.replace('_', '-'));

export const formatPeriod = (start: string | null, end: string | null, locale: string) =>
  start && end ? `${formatDate(start, locale)} – ${formatDate(end, locale)}` : '';

/** `CHF 19.00 per month`. */
export function planPrice(plan: Pick<Plan, 'price_minor' | 'currency' | 'interval'>, perInterval: string) {
  return `${formatMinor(plan.price_minor, plan.currency)} ${perInterval}`;
}
