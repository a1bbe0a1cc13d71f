import { DATE_FORMATS } from '@llmor/contracts';

/** The locale's date pattern (docs/reference/console.md; contracts' DATE_FORMATS, shared with the server's texts). */
export function datePattern(locale: string): string {
  return DATE_FORMATS[locale] ?? 'MM/dd/yyyy';
}

export function toDate(value: Date | string | number): Date {
  return value instanceof Date ? value : new Date(value);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** Formats a date (local time) with the locale's pattern: dd, MM, yyyy, HH, mm tokens. */
export function formatDate(
  value: Date | string | number,
  locale: string,
  pattern = datePattern(locale),
): string {
  const d = toDate(value);
  if (Number.isNaN(d.getTime())) return '';
  return pattern.replace(/yyyy|MM|dd|HH|mm/g, (token) => {
    switch (token) {
      case 'yyyy':
        return String(d.getFullYear()).padStart(4, '0');
      case 'MM':
        return pad(d.getMonth() + 1);
      case 'dd':
        return pad(d.getDate());
      case 'HH':
        return pad(d.getHours());
      default:
        return pad(d.getMinutes());
    }
  });
}

/** Date and time, e.g. 05.01.2024 14:03. */
export function formatDateTime(value: Date | string | number, locale: string): string {
  return formatDate(value, locale, `${datePattern(locale)} HH:mm`);
}
