import { ICON_SEARCH_LIMIT, type IconsResponse } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';

/** GET /icons.json?q= (public) → {data: names}; the first ICON_SEARCH_LIMIT (20) are used. */
export async function searchIcons(q: string): Promise<string[]> {
  const r = await apiRequest<IconsResponse>('/icons.json', {
    query: { q: q.trim() || undefined },
    signed: false,
  });
  return r.data.slice(0, ICON_SEARCH_LIMIT);
}

/** Where the server serves an icon's SVG. */
export const iconUrl = (name: string) => `/icons/${encodeURIComponent(name)}.svg`;
