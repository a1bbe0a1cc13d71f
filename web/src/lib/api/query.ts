type QueryValue = string | number | boolean | null | undefined | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

/**
 * The request target (path + query) exactly as sent and signed. Arrays are comma-joined (docs/reference/api.md:
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

/** The query of a searchable, sortable, paged list call (docs/reference/api.md "Conventions"); an empty search is left out. */
export function listQuery(q: {
  page?: unknown;
  page_size?: unknown;
  order?: string;
  order_dir?: 'asc' | 'desc';
  search?: string;
}): Query {
  return {
    page: Number(q.page ?? 0),
    page_size: Number(q.page_size ?? 20),
    order: q.order,
    order_dir: q.order_dir,
    search: q.search || undefined,
  };
}
