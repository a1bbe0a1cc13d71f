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

/** ISO 3166-1 alpha-2 codes of the countries a billing address may name (officially assigned ones). */
export const COUNTRY_CODES = `
  AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE
  BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD
  CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM
  DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF
  GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU
  ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN
  KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME
  MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA
  NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM
  PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI
  SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK
  TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI
  VN VU WF WS YE YT ZA ZM ZW
`
  .trim()
  .split(/\s+/);
