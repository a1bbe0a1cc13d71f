import { LOCALES, type Locale } from '@llmor/contracts';
import { i18n } from './index';

/**
 * A feature's own texts, kept beside the feature (features/<area>/i18n.ts) and added under the key
 * `<area>` when the feature's module loads: `t('<area>.someKey')`. Missing keys fall back through
 * the locale chain like every other text.
 */
export function addFeatureMessages(area: string, messages: Record<Locale, object>): void {
  for (const locale of LOCALES) {
    i18n.addResourceBundle(locale, 'translation', { [area]: messages[locale] }, true, true);
  }
}
