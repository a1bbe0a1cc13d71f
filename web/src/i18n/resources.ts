import { LOCALES, type Locale } from '@llmor/contracts';
import i18next, { type i18n } from 'i18next';
import { i18nextFallbacks, localeChain } from '../lib/locale';
import { en_US } from './locales/en_US';

/**
 * The core texts of each locale. en_US, the last fallback of every chain, is in the entry; the other five
 * are chunks of their own, loaded for the active locale's chain only (a language switch reloads the page).
 */
const coreTexts: Record<Locale, () => Promise<object>> = {
  en_US: async () => en_US,
  de_DE: () => import('./locales/de_DE').then((m) => m.de_DE),
  de_CH: () => import('./locales/de_CH').then((m) => m.de_CH),
  gsw_CH: () => import('./locales/gsw_CH').then((m) => m.gsw_CH),
  fr_FR: () => import('./locales/fr_FR').then((m) => m.fr_FR),
  it_IT: () => import('./locales/it_IT').then((m) => m.it_IT),
};

/**
 * A configured, initialised i18next instance (no DOM, usable in unit tests) holding `resources` (by default
 * en_US only; `loadCoreTexts` adds the others).
 */
export function createI18n(locale: Locale, resources: Partial<Record<Locale, object>> = { en_US }): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(Object.entries(resources).map(([l, texts]) => [l, { translation: texts }])),
    lng: locale,
    supportedLngs: [...LOCALES],
    fallbackLng: i18nextFallbacks(),
    load: 'currentOnly',
    initAsync: false,
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}

const loaded = new WeakMap<i18n, Set<Locale>>();

/** Adds the core texts of `locale` and its fallbacks that `instance` does not hold yet (features add theirs). */
export async function loadCoreTexts(instance: i18n, locale: string): Promise<void> {
  const done = loaded.get(instance) ?? new Set<Locale>(['en_US']);
  loaded.set(instance, done);
  const missing = localeChain(locale).filter((l) => !done.has(l));
  const texts = await Promise.all(missing.map((l) => coreTexts[l]()));
  missing.forEach((l, i) => {
    // Deep, without overwriting: a feature loaded meanwhile keeps its texts under its own key.
    instance.addResourceBundle(l, 'translation', texts[i], true, false);
    done.add(l);
  });
}
