import { LOCALES, type Locale } from './constants';

/**
 * How the console's locales write dates and name themselves, shared by the server's texts (messages.ts) and
 * the console. Apart from the catalogue so that formatting a date does not load every text in every locale.
 */

/** BCP 47 tag of a console locale (`de_CH` → `de-CH`; `gsw_CH` formats as `de-CH`). */
export const bcp47 = (locale: Locale): string => (locale === 'gsw_CH' ? 'de-CH' : locale.replace('_', '-'));

/** Date patterns per locale (docs/reference/console.md); locales not listed use the en_US pattern. */
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

/** A calendar day (`yyyy-mm-dd`) in the locale's date pattern. */
export function formatDay(isoDay: string, locale: Locale): string {
  const [y, m, d] = isoDay.split('-');
  if (!y || !m || !d) return isoDay;
  const pattern = DATE_FORMATS[locale] ?? DATE_FORMATS.en_US!;
  return pattern.replace('yyyy', y).replace('MM', m).replace('dd', d.slice(0, 2));
}

/** `value` if it names a console locale. */
export const asLocale = (value: unknown): Locale | undefined =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value) ? (value as Locale) : undefined;
