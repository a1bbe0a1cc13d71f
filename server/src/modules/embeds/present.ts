import {
  EMBED_DEFAULT_APPEARANCE,
  type Embed,
  type EmbedAppearance,
  embedAppearanceSchema,
  maskEmbedToken,
} from '@llmor/contracts';
import type { EmbedRow } from './repo';

/** The stored look with the widget's defaults under it (rows may predate a field). */
export function appearanceOf(row: EmbedRow): EmbedAppearance {
  const stored = embedAppearanceSchema.partial().safeParse(row.appearance);
  return { ...EMBED_DEFAULT_APPEARANCE, ...(stored.success ? stored.data : {}) };
}

export const allowedOriginsOf = (row: EmbedRow): string[] =>
  Array.isArray(row.allowedOrigins) ? row.allowedOrigins.filter((o) => typeof o === 'string') : [];

/** docs/reference/rules.md; the token in full only for the answer of the POST that made it. */
export function presentEmbed(row: EmbedRow, token: 'full' | 'masked' = 'masked'): Embed {
  return {
    id: row.id,
    name: row.name,
    token: token === 'full' ? row.token : maskEmbedToken(row.token),
    vendor_id: row.vendorId,
    vendor_app_id: row.vendorAppId,
    vendor_client_id: row.vendorClientId,
    allowed_origins: allowedOriginsOf(row),
    appearance: appearanceOf(row),
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
  };
}
