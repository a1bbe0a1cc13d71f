import { addFeatureMessages } from '../../i18n/feature';
import { type Messages, mapMessages } from '../../i18n/types';

/** Texts of App settings → Usage (docs/reference/console.md "App settings: Usage"): `t('usage.…')`. */
const en_US = {
  title: 'Usage',
  loading: 'Loading usage…',
  utcHint: 'Days are counted in UTC.',
  periods: {
    today: 'Today',
    last_7_days: 'Last 7 days',
    last_30_days: 'Last 30 days',
    total: 'Total',
  },
  promptTokens: 'Prompt Tokens',
  completionTokens: 'Completion Tokens',
  requests: 'Requests',
  cost: 'Cost',
};

export type UsageMessages = Messages<typeof en_US>;

const de_DE: UsageMessages = {
  title: 'Nutzung',
  loading: 'Nutzung wird geladen…',
  utcHint: 'Tage werden in UTC gezählt.',
  periods: {
    today: 'Heute',
    last_7_days: 'Letzte 7 Tage',
    last_30_days: 'Letzte 30 Tage',
    total: 'Gesamt',
  },
  promptTokens: 'Prompt-Tokens',
  completionTokens: 'Antwort-Tokens',
  requests: 'Anfragen',
  cost: 'Kosten',
};

const de_CH: UsageMessages = mapMessages(de_DE, (s) => s.replace(/ß/g, 'ss'));

const gsw_CH: UsageMessages = {
  title: 'Nutzig',
  loading: 'Nutzig wird glade…',
  utcHint: 'D Täg wärded in UTC zellt.',
  periods: {
    today: 'Hüt',
    last_7_days: 'Letschti 7 Täg',
    last_30_days: 'Letschti 30 Täg',
    total: 'Total',
  },
  promptTokens: 'Prompt-Tokens',
  completionTokens: 'Antwort-Tokens',
  requests: 'Aafrage',
  cost: 'Choschte',
};

const fr_FR: UsageMessages = {
  title: 'Utilisation',
  loading: "Chargement de l'utilisation…",
  utcHint: 'Les jours sont comptés en UTC.',
  periods: {
    today: 'Aujourd’hui',
    last_7_days: '7 derniers jours',
    last_30_days: '30 derniers jours',
    total: 'Total',
  },
  promptTokens: 'Tokens du prompt',
  completionTokens: 'Tokens de réponse',
  requests: 'Requêtes',
  cost: 'Coût',
};

const it_IT: UsageMessages = {
  title: 'Utilizzo',
  loading: 'Caricamento utilizzo…',
  utcHint: 'I giorni sono contati in UTC.',
  periods: {
    today: 'Oggi',
    last_7_days: 'Ultimi 7 giorni',
    last_30_days: 'Ultimi 30 giorni',
    total: 'Totale',
  },
  promptTokens: 'Token del prompt',
  completionTokens: 'Token di risposta',
  requests: 'Richieste',
  cost: 'Costo',
};

addFeatureMessages('usage', { en_US, de_DE, de_CH, gsw_CH, fr_FR, it_IT });
