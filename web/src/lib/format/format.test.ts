import { describe, expect, it } from 'vitest';
import { datePattern, formatDate, formatDateTime } from './date';
import { initials } from './initials';
import { formatRelativeTime, relativeTime } from './relativeTime';

const NOW = new Date(2024, 5, 15, 12, 0, 0); // 15 June 2024, 12:00 local time
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const MIN = 60_000;
const HOUR = 60 * MIN;

describe('date formats per locale', () => {
  const d = new Date(2024, 0, 5, 14, 3); // 5 January 2024
  it.each([
    ['en_US', '01/05/2024'],
    ['en_GB', '05/01/2024'],
    ['de_DE', '05.01.2024'],
    ['de_CH', '05.01.2024'],
    ['gsw_CH', '05.01.2024'],
    ['fr_CH', '05.01.2024'],
    ['it_CH', '05.01.2024'],
    ['fr_FR', '05/01/2024'],
    ['it_IT', '05/01/2024'],
  ])('%s → %s', (locale, expected) => {
    expect(formatDate(d, locale)).toBe(expected);
  });

  it('uses the documented patterns', () => {
    expect(datePattern('de_DE')).toBe('dd.MM.yyyy');
    expect(datePattern('en_US')).toBe('MM/dd/yyyy');
    expect(datePattern('en_GB')).toBe('dd/MM/yyyy');
    expect(datePattern('xx_XX')).toBe('MM/dd/yyyy');
  });

  it('formats date and time, and tolerates bad input', () => {
    expect(formatDateTime(d, 'de_CH')).toBe('05.01.2024 14:03');
    expect(formatDate('not a date', 'en_US')).toBe('');
  });
});

describe('relative time', () => {
  it('is "just now" under one minute', () => {
    expect(relativeTime(NOW, NOW)).toEqual({ kind: 'now' });
    expect(relativeTime(ago(59_999), NOW)).toEqual({ kind: 'now' });
    expect(relativeTime(new Date(NOW.getTime() + 5000), NOW)).toEqual({ kind: 'now' });
  });

  it('counts minutes from 1 minute to under 60', () => {
    expect(relativeTime(ago(MIN), NOW)).toEqual({ kind: 'minutes', count: 1 });
    expect(relativeTime(ago(59 * MIN + 59_999), NOW)).toEqual({ kind: 'minutes', count: 59 });
  });

  it('counts hours from 60 minutes to under 24 hours', () => {
    expect(relativeTime(ago(HOUR), NOW)).toEqual({ kind: 'hours', count: 1 });
    expect(relativeTime(ago(24 * HOUR - 1), NOW)).toEqual({ kind: 'hours', count: 23 });
  });

  it('falls back to a date from 24 hours on', () => {
    expect(relativeTime(ago(24 * HOUR), NOW)).toEqual({ kind: 'date' });
  });

  it('formats with translations and the locale date', () => {
    const t = (key: string, o?: { count?: number }) =>
      ({
        'time.justNow': 'just now',
        'time.minutesAgo': `${o?.count}m ago`,
        'time.hoursAgo': `${o?.count}h ago`,
      })[key] ?? key;
    expect(formatRelativeTime(ago(30_000), 'en_US', t, NOW)).toBe('just now');
    expect(formatRelativeTime(ago(5 * MIN), 'en_US', t, NOW)).toBe('5m ago');
    expect(formatRelativeTime(ago(3 * HOUR), 'en_US', t, NOW)).toBe('3h ago');
    expect(formatRelativeTime(ago(48 * HOUR), 'en_US', t, NOW)).toBe('06/13/2024');
    expect(formatRelativeTime(ago(48 * HOUR), 'de_CH', t, NOW)).toBe('13.06.2024');
  });
});

describe('avatar initials', () => {
  it('takes the first letters of the first two words', () => {
    expect(initials('Ada Lovelace')).toBe('AL');
    expect(initials('ada byron lovelace')).toBe('AB');
    expect(initials('  Grace   Hopper ')).toBe('GH');
    expect(initials('Cher')).toBe('C');
    expect(initials('Élodie Ünal')).toBe('ÉÜ');
    expect(initials('')).toBe('');
    expect(initials(null)).toBe('');
  });
});
