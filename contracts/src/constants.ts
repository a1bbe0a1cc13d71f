/** Business constants shared by server and web (docs/reference/console.md). */
export const LOCALES = ['en_US', 'de_DE', 'de_CH', 'gsw_CH', 'fr_FR', 'it_IT'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en_US';
/** Fallback chains: de_CH → de_DE → en_US, gsw_CH → de_CH, fr/it → en_US. */
export const LOCALE_FALLBACKS: Record<Locale, Locale[]> = {
  en_US: [],
  de_DE: ['en_US'],
  de_CH: ['de_DE', 'en_US'],
  gsw_CH: ['de_CH', 'de_DE', 'en_US'],
  fr_FR: ['en_US'],
  it_IT: ['en_US'],
};
export const LOCALE_LABELS: Record<Locale, string> = {
  en_US: 'English',
  de_DE: 'Deutsch',
  de_CH: 'Deutsch (Schweiz)',
  gsw_CH: 'Schwiizerdütsch',
  fr_FR: 'Français',
  it_IT: 'Italiano',
};

export const STORAGE_KEYS = { session: 'llmorsession', vendor: 'llmorvendor', language: 'language' } as const;

export const PAGE_SIZE_DEFAULT = 20;
export const PAGE_SIZE_MAX = 100;
export const HISTORY_PAGE_SIZE = 20;
export const RELAY_LOG_CAP = 100;
export const AVAILABLE_MODELS_LIMIT = 100;
export const FUNCTION_LIBRARY_PAGE_SIZE = 20;
export const ICON_SEARCH_LIMIT = 20;

export const SIGNATURE_MAX_SKEW_SECONDS = 300;
export const INVALID_SESSION_RELOAD_MS = 3000;
export const STATE_FETCH_DELAY_MS = 1000;
export const LOADING_BUTTON_MIN_MS = 400;
export const CONVERSATION_TOKEN_TAIL = 6;
export const CLIENT_TOKEN_TAIL = 8;
export const EMBED_TOKEN_MASK = 4;
export const DOCUMENT_PREVIEW_CHARS = 70;
export const HASH_PREVIEW_CHARS = 7;

export const CURRENCY_APP_DEFAULT = 'CHF';
export const CURRENCY_INPUT_DEFAULT = 'EUR';

export const RELAY_PATH = '/stream';
export const SOCKET_OPTIONS = {
  path: RELAY_PATH,
  transports: ['websocket'],
  timeout: 20_000,
  reconnectionDelay: 1_000,
  reconnectionDelayMax: 5_000,
  randomizationFactor: 0.5,
} as const;
export const SOCKET_WAIT = { tries: 50, intervalMs: 100 } as const;

export const APP_TYPES = ['chatbot', 'oneshot', 'silicon', 'generic'] as const;
export type AppType = (typeof APP_TYPES)[number];
