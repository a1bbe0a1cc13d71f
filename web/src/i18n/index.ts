import { setLocaleSource } from '../lib/api/client';
import { pickLocale } from '../lib/locale';
import { loadLocale } from '../lib/session';
import { createI18n } from './resources';

/** The app's i18next instance: the stored locale (localStorage 'language'), else en_US. */
export const i18n = createI18n(pickLocale(loadLocale()));

export function currentLocale(): string {
  return i18n.language;
}

setLocaleSource(currentLocale);
