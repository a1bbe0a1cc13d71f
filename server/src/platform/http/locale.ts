import { asLocale, type ErrorBody, type Locale, localize } from '@llmor/contracts';
import type { FastifyRequest } from 'fastify';

/**
 * The locale a request is answered in (docs/adr/0030): the `locale` query parameter the console adds to
 * every call. Without one (outside callers) the answer keeps the English texts docs/reference/api.md quotes.
 */
export function requestLocale(request: FastifyRequest): Locale | undefined {
  const query = request.url.indexOf('?');
  if (query < 0) return undefined;
  return asLocale(new URLSearchParams(request.url.slice(query + 1)).get('locale'));
}

/** An error answer with its message and field messages in `locale` (texts the catalogue knows). */
export function localizeErrorBody(body: ErrorBody, locale: Locale | undefined): ErrorBody {
  if (!locale) return body;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') return localize(value, locale);
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, walk(v)]));
    }
    return value;
  };
  return {
    ...body,
    message: localize(body.message, locale),
    ...(body.errors ? { errors: walk(body.errors) as ErrorBody['errors'] } : {}),
  };
}

/** A catalogue text (English) in the request's locale: for answers a person reads that are not errors. */
export function inRequestLocale(request: FastifyRequest, text: string): string {
  const locale = requestLocale(request);
  return locale ? localize(text, locale) : text;
}
