import { mapMessages } from '../types';
import { de_DE } from './de_DE';

/**
 * Swiss Standard German: de_DE with 'ss' for 'ß' (Swiss orthography) and a few Swiss usages.
 * Kept complete (not only the differences) so it never depends on the fallback chain.
 */
const base = mapMessages(de_DE, (s) => s.replaceAll('ß', 'ss'));

export const de_CH: typeof de_DE = {
  ...base,
  login: { ...base.login, emailPlaceholder: 'sie@beispiel.ch' },
  pages: {
    ...base.pages,
    settings: { ...base.pages.settings, address: 'Rechnungsadresse', paymentMethods: 'Zahlungsarten' },
  },
};
