import { describe, expect, it } from 'vitest';
import { de_CH } from '../i18n/locales/de_CH';
import { de_DE } from '../i18n/locales/de_DE';
import { en_US } from '../i18n/locales/en_US';
import { fr_FR } from '../i18n/locales/fr_FR';
import { gsw_CH } from '../i18n/locales/gsw_CH';
import { it_IT } from '../i18n/locales/it_IT';
import { createI18n, loadCoreTexts } from '../i18n/resources';
import { localeChain, pickLocale, toBcp47 } from './locale';

const messages = { en_US, de_DE, de_CH, gsw_CH, fr_FR, it_IT };

describe('locale fallbacks', () => {
  it('resolves the chains from the contracts', () => {
    expect(localeChain('en_US')).toEqual(['en_US']);
    expect(localeChain('de_DE')).toEqual(['de_DE', 'en_US']);
    expect(localeChain('de_CH')).toEqual(['de_CH', 'de_DE', 'en_US']);
    expect(localeChain('gsw_CH')).toEqual(['gsw_CH', 'de_CH', 'de_DE', 'en_US']);
    expect(localeChain('fr_FR')).toEqual(['fr_FR', 'en_US']);
    expect(localeChain('it_IT')).toEqual(['it_IT', 'en_US']);
    expect(localeChain('xx')).toEqual(['en_US']);
  });

  it('picks the first supported locale', () => {
    expect(pickLocale(null, 'nope', 'fr_FR', 'de_DE')).toBe('fr_FR');
    expect(pickLocale(undefined)).toBe('en_US');
    expect(toBcp47('gsw_CH')).toBe('gsw-CH');
  });

  it('i18next falls back along the chain', () => {
    const i18n = createI18n('gsw_CH', {
      en_US: { only: { en: 'EN', de: 'EN-de', ch: 'EN-ch' } },
      de_DE: { only: { de: 'DE', ch: 'DE-ch' } },
      de_CH: { only: { ch: 'CH' } },
      gsw_CH: {},
      fr_FR: {},
      it_IT: {},
    });
    // Keys of these made-up resources are not the app's typed keys.
    const t = i18n.t as unknown as (key: string) => string;
    expect(t('only.ch')).toBe('CH');
    expect(t('only.de')).toBe('DE');
    expect(t('only.en')).toBe('EN');
    void i18n.changeLanguage('fr_FR');
    expect(t('only.de')).toBe('EN-de');
  });

  it('translates real texts and pluralises counts in every locale', () => {
    const en = createI18n('en_US');
    expect(en.t('app.init.errorTitle')).toBe('Houston, we have a problem');
    expect(en.t('app.init.errorMessage', { error: 'boom' })).toBe(
      'Could not initialize the application. Please contact support. Error: boom',
    );
    expect(en.t('time.minutesAgo', { count: 5 })).toBe('5m ago');
    const de = createI18n('de_CH', messages);
    expect(de.t('errors.dismiss')).toBe('Schliessen');
    expect(de.t('time.hoursAgo', { count: 2 })).toBe('vor 2 Std.');
    expect(createI18n('gsw_CH', messages).t('user.signOut')).toBe('Abmälde');
  });

  it('loads the texts of the active locale and its fallbacks only, keeping what features added', async () => {
    const i18n = createI18n('gsw_CH');
    // Before loading: en_US, the last fallback, answers.
    expect(i18n.t('user.signOut')).toBe('Sign out');
    i18n.addResourceBundle('de_CH', 'translation', { apps: { title: 'Apps CH' } }, true, true);
    await loadCoreTexts(i18n, 'gsw_CH');
    expect(i18n.t('user.signOut')).toBe('Abmälde');
    expect(i18n.getResourceBundle('de_CH', 'translation')).toMatchObject({ apps: { title: 'Apps CH' } });
    expect(i18n.getResourceBundle('de_CH', 'translation').errors.dismiss).toBe('Schliessen');
    expect(i18n.hasResourceBundle('de_DE', 'translation')).toBe(true);
    expect(i18n.hasResourceBundle('fr_FR', 'translation')).toBe(false);
    await loadCoreTexts(i18n, 'fr_FR');
    await i18n.changeLanguage('fr_FR');
    expect(i18n.t('user.signOut')).toBe(fr_FR.user.signOut);
  });

  it('has no ß in Swiss locales and the same keys everywhere', () => {
    expect(JSON.stringify(messages.de_CH)).not.toContain('ß');
    expect(JSON.stringify(messages.gsw_CH)).not.toContain('ß');
    const keys = (o: object, prefix = ''): string[] =>
      Object.entries(o).flatMap(([k, v]) =>
        typeof v === 'string' ? [`${prefix}${k}`] : keys(v as object, `${prefix}${k}.`),
      );
    const en = keys(messages.en_US).sort();
    for (const l of Object.keys(messages) as (keyof typeof messages)[])
      expect(keys(messages[l]).sort()).toEqual(en);
  });
});
