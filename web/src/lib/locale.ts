import { DEFAULT_LOCALE, LOCALE_FALLBACKS, type Locale } from '@llmor/contracts';
import { isLocale } from './session';

/** The lookup chain for a locale: itself, then its fallbacks (contracts LOCALE_FALLBACKS). */
export function localeChain(locale: string): Locale[] {
  if (!isLocale(locale)) return [DEFAULT_LOCALE];
  const chain: Locale[] = [locale, ...LOCALE_FALLBACKS[locale]];
  if (!chain.includes(DEFAULT_LOCALE)) chain.push(DEFAULT_LOCALE);
  return chain;
}

/** i18next `fallbackLng` as a per-language map. */
export function i18nextFallbacks(): Record<string, string[]> {
  return { ...LOCALE_FALLBACKS, default: [DEFAULT_LOCALE] };
}

/** First locale of the candidates that is supported, else the default. */
export function pickLocale(...candidates: Array<string | null | undefined>): Locale {
  for (const c of candidates) if (isLocale(c)) return c;
  return DEFAULT_LOCALE;
}

/** BCP-47 tag for Intl / dayjs (e.g. de_CH → de-CH). */
export function toBcp47(locale: string): string {
  return locale.replace('_', '-');
}
