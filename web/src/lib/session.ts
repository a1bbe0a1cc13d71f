import { LOCALES, type Locale, type SessionCreated, STORAGE_KEYS } from '@llmor/contracts';
import { deobfuscate, obfuscate } from './obfuscation';

export type StoredSession = SessionCreated;

/** A stored session counts only if it decodes to an object with a token and a secret (docs/reference/rules.md). */
export function isValidSession(value: unknown): value is StoredSession {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v.token === 'string' && v.token !== '' && typeof v.secret === 'string' && v.secret !== '';
}

export function encodeSession(session: StoredSession, key: string): string {
  return obfuscate(JSON.stringify({ token: session.token, secret: session.secret }), key);
}

export function decodeSession(raw: string | null | undefined, key: string): StoredSession | null {
  if (!raw) return null;
  const plain = deobfuscate(raw, key);
  if (plain === null) return null;
  try {
    const parsed: unknown = JSON.parse(plain);
    return isValidSession(parsed) ? { token: parsed.token, secret: parsed.secret } : null;
  } catch {
    return null;
  }
}

/** The obfuscation key: user agent, screen size and timezone offset of this browser. */
function browserKey(): string {
  const ua = typeof navigator === 'undefined' ? '' : navigator.userAgent;
  const size = typeof screen === 'undefined' ? '0x0' : `${screen.width}x${screen.height}`;
  return `${ua}|${size}|${new Date().getTimezoneOffset()}`;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

let cached: StoredSession | null | undefined;

export function loadSession(): StoredSession | null {
  if (cached !== undefined) return cached;
  cached = decodeSession(storage()?.getItem(STORAGE_KEYS.session), browserKey());
  return cached;
}

export function saveSession(session: StoredSession): void {
  cached = session;
  storage()?.setItem(STORAGE_KEYS.session, encodeSession(session, browserKey()));
}

export function clearSession(): void {
  cached = null;
  storage()?.removeItem(STORAGE_KEYS.session);
}

export function loadVendorKey(): string | null {
  return storage()?.getItem(STORAGE_KEYS.vendor) || null;
}

export function saveVendorKey(key: string): void {
  storage()?.setItem(STORAGE_KEYS.vendor, key);
}

export function clearVendorKey(): void {
  storage()?.removeItem(STORAGE_KEYS.vendor);
}

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

export function loadLocale(): Locale | null {
  const value = storage()?.getItem(STORAGE_KEYS.language);
  return isLocale(value) ? value : null;
}

export function saveLocale(locale: Locale): void {
  storage()?.setItem(STORAGE_KEYS.language, locale);
}

/** Reloads the page, optionally after a delay; repeated calls schedule one reload only. */
let reloadScheduled = false;
export function reloadPage(delayMs = 0): void {
  if (reloadScheduled || typeof window === 'undefined') return;
  reloadScheduled = true;
  window.setTimeout(() => window.location.reload(), delayMs);
}
