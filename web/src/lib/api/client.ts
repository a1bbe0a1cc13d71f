import { INVALID_ACCESS_TOKEN } from '@llmor/contracts';
import { events } from '../events';
import { clearSession, clearVendorKey, loadSession, loadVendorKey, reloadPage } from '../session';
import { accessTokenHeader } from '../signing';
import { ApiError } from './error';
import { buildTarget, type Query } from './query';

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  query?: Query;
  body?: unknown;
  /** Sign with the stored session (default true). */
  signed?: boolean;
  /** Do not broadcast client-did-receive-error for this call (spec 01 §8). */
  skipDefaultErrorHandler?: boolean;
  /** Do not clear the session and reload on a 401 "Invalid access token" (the caller handles it). */
  skipInvalidSessionHandler?: boolean;
  /** Add `locale=<current>` to the query (default true). */
  withLocale?: boolean;
  signal?: AbortSignal;
  /** Extra request headers (e.g. X-Relay-Socket on POST /v1/conversations/{token}); signing and vendor headers win. */
  headers?: Record<string, string>;
}

let currentLocale: () => string | null = () => null;

/** Tells the client how to read the current locale (set by i18n at start-up). */
export function setLocaleSource(source: () => string | null): void {
  currentLocale = source;
}

/** The locale the calls carry (the console's current one). */
export const apiLocale = (): string | null => currentLocale();

export function isInvalidSessionError(error: unknown): boolean {
  return error instanceof ApiError && error.status === 401 && error.message.includes(INVALID_ACCESS_TOKEN);
}

async function parseBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One call to the API: same origin, JSON, signed, with X-Vendor and locale (spec 01 §7). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const target = buildTarget(path, options.query, options.withLocale === false ? null : currentLocale());
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const hasBody = method !== 'GET' && method !== 'DELETE' ? true : options.body !== undefined;
  if (hasBody) headers['Content-Type'] = 'application/json';
  if (options.signed !== false) {
    const session = loadSession();
    if (session) headers['X-AccessToken'] = await accessTokenHeader(session, method, target);
  }
  const vendorKey = loadVendorKey();
  if (vendorKey) headers['X-Vendor'] = vendorKey;

  let response: Response;
  try {
    response = await fetch(target, {
      method,
      headers,
      body: hasBody ? JSON.stringify(options.body ?? {}) : undefined,
      credentials: 'same-origin',
      signal: options.signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, {
      name: 'NetworkError',
      message: error instanceof Error ? error.message : String(error),
    });
  }

  const body = await parseBody(response);
  if (response.status >= 300) {
    const error = new ApiError(response.status, body, response.statusText);
    if (!options.skipInvalidSessionHandler && isInvalidSessionError(error)) {
      clearSession();
      clearVendorKey();
      reloadPage();
    }
    if (!options.skipDefaultErrorHandler) events.emit('client-did-receive-error', error);
    throw error;
  }
  return body as T;
}
