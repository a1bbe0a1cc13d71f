import { INVALID_ACCESS_TOKEN } from '@llmor/contracts';
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

const networkError = (cause: unknown) =>
  new ApiError(0, { name: 'NetworkError', message: cause instanceof Error ? cause.message : String(cause) });

/**
 * The caller's signal, also aborted when the browser goes offline. Offline, a request fails at once
 * instead of waiting for the network to return and then running, possibly long after the user left
 * the screen (docs/adr/0028-console-data-layer.md).
 */
function whileOnline(callerSignal: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (callerSignal?.aborted || !navigator.onLine) abort();
  callerSignal?.addEventListener('abort', abort);
  window.addEventListener('offline', abort);
  return {
    signal: controller.signal,
    release: () => {
      callerSignal?.removeEventListener('abort', abort);
      window.removeEventListener('offline', abort);
    },
  };
}

/** One call to the API: same origin, JSON, signed, with X-Vendor and locale (docs/reference/api.md). */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const target = buildTarget(path, options.query, options.withLocale === false ? null : currentLocale());
  const hasBody = method !== 'GET' && method !== 'DELETE' ? true : options.body !== undefined;
  const headers = await requestHeaders(
    method,
    target,
    { ...options.headers, ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
    options.signed !== false,
  );

  let response: Response;
  const offline = whileOnline(options.signal);
  try {
    response = await fetch(target, {
      method,
      headers,
      body: hasBody ? JSON.stringify(options.body ?? {}) : undefined,
      credentials: 'same-origin',
      signal: offline.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw networkError(error);
  } finally {
    offline.release();
  }

  return answerOf<T>(response.status, response.statusText, await parseBody(response), options);
}

/** Accept, signature and X-Vendor over the caller's headers (docs/reference/api.md). */
async function requestHeaders(
  method: string,
  target: string,
  extra: Record<string, string> = {},
  signed = true,
): Promise<Record<string, string>> {
  const headers: Record<string, string> = { Accept: 'application/json', ...extra };
  if (signed) {
    const session = loadSession();
    if (session) headers['X-AccessToken'] = await accessTokenHeader(session, method, target);
  }
  const vendorKey = loadVendorKey();
  if (vendorKey) headers['X-Vendor'] = vendorKey;
  return headers;
}

/** A parsed answer, or the ApiError it is (an invalid session clears it and reloads). */
function answerOf<T>(
  status: number,
  statusText: string,
  body: unknown,
  options: Pick<RequestOptions, 'skipInvalidSessionHandler'>,
): T {
  if (status >= 300) {
    const error = new ApiError(status, body, statusText);
    if (!options.skipInvalidSessionHandler && isInvalidSessionError(error)) {
      clearSession();
      clearVendorKey();
      reloadPage();
    }
    throw error;
  }
  return body as T;
}

/**
 * POSTs a file as it is (`application/octet-stream`), reporting the share sent (0–1) as it goes: fetch
 * cannot report upload progress, XMLHttpRequest can. Errors as `apiRequest`'s.
 */
export async function apiUpload<T>(
  path: string,
  options: { query?: Query; file: Blob; onProgress?(sent: number): void; signal?: AbortSignal },
): Promise<T> {
  const target = buildTarget(path, options.query, currentLocale());
  const headers = await requestHeaders('POST', target, { 'Content-Type': 'application/octet-stream' });
  const xhr = new XMLHttpRequest();
  const done = new Promise<T>((resolve, reject) => {
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) options.onProgress?.(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, { name: 'NetworkError', message: 'The upload failed.' }));
    xhr.onabort = () => reject(new DOMException('The upload was stopped.', 'AbortError'));
    xhr.onload = () => {
      let body: unknown = xhr.responseText || undefined;
      try {
        body = body === undefined ? undefined : JSON.parse(xhr.responseText);
      } catch {
        // Not JSON: keep the text.
      }
      try {
        resolve(answerOf<T>(xhr.status, xhr.statusText, body, {}));
      } catch (error) {
        reject(error);
      }
    };
  });
  xhr.open('POST', target);
  for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
  options.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
  xhr.send(options.file);
  return done;
}
