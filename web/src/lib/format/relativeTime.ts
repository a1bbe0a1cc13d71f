import { formatDate, toDate } from './date';

export type RelativeTime =
  | { kind: 'now' }
  | { kind: 'minutes'; count: number }
  | { kind: 'hours'; count: number }
  | { kind: 'date' };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** 'just now' under 1 minute, minutes under 60 minutes, hours under 24 hours, else a date (docs/reference/console.md). */
export function relativeTime(value: Date | string | number, now: Date | number = Date.now()): RelativeTime {
  const diff = toDate(now).getTime() - toDate(value).getTime();
  if (diff < MINUTE) return { kind: 'now' };
  if (diff < HOUR) return { kind: 'minutes', count: Math.floor(diff / MINUTE) };
  if (diff < DAY) return { kind: 'hours', count: Math.floor(diff / HOUR) };
  return { kind: 'date' };
}

export type Translate = (
  key: 'time.justNow' | 'time.minutesAgo' | 'time.hoursAgo',
  options?: { count?: number },
) => string;

/** Translated relative time; uses the keys time.justNow, time.minutesAgo, time.hoursAgo. */
export function formatRelativeTime(
  value: Date | string | number,
  locale: string,
  t: Translate,
  now: Date | number = Date.now(),
): string {
  const rel = relativeTime(value, now);
  switch (rel.kind) {
    case 'now':
      return t('time.justNow');
    case 'minutes':
      return t('time.minutesAgo', { count: rel.count });
    case 'hours':
      return t('time.hoursAgo', { count: rel.count });
    default:
      return formatDate(value, locale);
  }
}
