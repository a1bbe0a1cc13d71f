import { LOCALES, type Locale } from '@llmor/contracts';
import i18next, { type i18n } from 'i18next';
import { i18nextFallbacks } from '../lib/locale';
import { de_CH } from './locales/de_CH';
import { de_DE } from './locales/de_DE';
import { en_US } from './locales/en_US';
import { fr_FR } from './locales/fr_FR';
import { gsw_CH } from './locales/gsw_CH';
import { it_IT } from './locales/it_IT';

export const messages = { en_US, de_DE, de_CH, gsw_CH, fr_FR, it_IT } satisfies Record<Locale, unknown>;

/** A configured, initialised i18next instance (no DOM, usable in unit tests). */
export function createI18n(locale: Locale, overrides?: Partial<Record<Locale, object>>): i18n {
  const instance = i18next.createInstance();
  const resources: Record<string, { translation: object }> = {};
  for (const l of LOCALES) resources[l] = { translation: overrides?.[l] ?? messages[l] };
  void instance.init({
    resources,
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
