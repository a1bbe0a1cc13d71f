export type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

/**
 * The request target (path + query) exactly as sent and signed. Arrays are comma-joined (spec 01 §7:
 * app_type), null/undefined values are left out, and `locale` is added unless the caller set it.
 */
export function buildTarget(path: string, query: Query = {}, locale?: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  if (locale && !params.has('locale')) params.append('locale', locale);
  const qs = params.toString();
  if (!qs) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${qs}`;
}
