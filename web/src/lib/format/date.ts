/** Date patterns per locale (docs/reference/console.md). Locales not listed use the en_US pattern. */
export const DATE_FORMATS: Record<string, string> = {
  en_US: 'MM/dd/yyyy',
  en_GB: 'dd/MM/yyyy',
  de_DE: 'dd.MM.yyyy',
  de_CH: 'dd.MM.yyyy',
  gsw_CH: 'dd.MM.yyyy',
  fr_CH: 'dd.MM.yyyy',
  it_CH: 'dd.MM.yyyy',
  fr_FR: 'dd/MM/yyyy',
  it_IT: 'dd/MM/yyyy',
};

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
