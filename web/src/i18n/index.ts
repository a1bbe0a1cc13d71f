import type { Locale } from '@llmor/contracts';
import { setLocaleSource } from '../lib/api/client';
import { pickLocale } from '../lib/locale';
import { loadLocale } from '../lib/session';
import { createI18n, loadCoreTexts } from './resources';

/**
 * The app's i18next instance: the stored locale (localStorage 'language'), else en_US. Its texts beyond
 * en_US arrive with `loadLanguageTexts` (main.tsx awaits it before the first render).
 */
export const i18n = createI18n(pickLocale(loadLocale()));

function currentLocale(): string {
  return i18n.language;
}

/** Loads the texts of the current locale's chain. */
export function loadLanguageTexts(): Promise<void> {
  return loadCoreTexts(i18n, i18n.language);
}

/** Switches the language in place, its texts loaded first (the app's default locale on a first visit). */
export async function changeLanguage(locale: Locale): Promise<void> {
  await loadCoreTexts(i18n, locale);
  await i18n.changeLanguage(locale);
}

setLocaleSource(currentLocale);
