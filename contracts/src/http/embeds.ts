/**
 * Web embeds (docs/reference/api.md "Reaching an app from outside"; docs/reference/console.md "App settings: Embeds"; docs/reference/rules.md): a chat
 * widget a vendor puts on its own pages with `<script src="{origin}/embed/js/{token}"></script>`.
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | GET /v1/vendors/{vendorId}/apps/{appId}/embed | `embedsQuery` | list of `Embed` (token masked) |
 * | POST /v1/vendors/{vendorId}/apps/{appId}/embed | `embedBody` | 201 `{data: Embed}` with the token in full |
 * | GET/PUT/DELETE /v1/vendors/{vendorId}/apps/{appId}/embed/{embedId} | – / `embedUpdateBody` / – | `{data: Embed}` (masked) / 204 |
 * | GET /v1/vendors/{vendorId}/apps/{appId}/embed/{embedId}/code | – | `{data: EmbedCode}` (the token in full, for copy and Embed Code) |
 * | GET /embed/js/{token} | – (no session) | the widget script; unknown token → 404 |
 *
 * The widget calls the conversation routes with `X-EmbedToken: <token>` from pages whose origin is in
 * `allowed_origins` (empty = any page); another origin → 403 there and on the relay's `join`.
 */
import { z } from 'zod';
import { EMBED_TOKEN_MASK } from '../constants';
import { idParam, listQuery } from './common';

export const EMBED_ORDER_COLUMNS = ['name', 'created_at'] as const;
export const EMBED_POSITIONS = ['bottom-right', 'bottom-left'] as const;
type EmbedPosition = (typeof EMBED_POSITIONS)[number];
const EMBED_NAME_MAX_LENGTH = 100;
const EMBED_ORIGINS_MAX = 50;
const EMBED_TITLE_MAX_LENGTH = 60;
const EMBED_WELCOME_MAX_LENGTH = 1000;
/** What the widget shows when the embed sets no look of its own. */
export const EMBED_DEFAULT_COLOR = '#1971c2';
export const EMBED_ORIGIN_FORMAT = 'Use an origin such as https://example.com or http://localhost:8080';
const EMBED_COLOR_FORMAT = 'Use a hex colour such as #1971c2';
export const EMBED_ORIGIN_REFUSED = 'This page may not use this chat.';
/** The header the widget authenticates with (docs/reference/api.md "Outside callers"). */
export const EMBED_TOKEN_HEADER = 'x-embedtoken';

/**
 * An origin as a browser sends it (`scheme://host[:port]`, http or https, nothing after the host), in
 * its canonical form (lower case, default port dropped); null for anything else.
 */
export function canonicalOrigin(value: string): string | null {
  const text = value.trim().replace(/\/$/, '');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  const onlyOrigin = !url.username && !url.password && url.pathname === '/' && !/[?#]/.test(text);
  return onlyOrigin ? url.origin : null;
}

/** Whether a page of `origin` (the request's `Origin` header) may use an embed allowing `allowed`. */
export function embedAllowsOrigin(allowed: readonly string[], origin: string | undefined): boolean {
  if (allowed.length === 0) return true;
  const canonical = origin ? canonicalOrigin(origin) : null;
  return canonical !== null && allowed.includes(canonical);
}

/** `abcd…wxyz`: lists and GET never carry an embed's token in full (docs/reference/console.md). */
export function maskEmbedToken(token: string): string {
  return `${token.slice(0, EMBED_TOKEN_MASK)}…${token.slice(-EMBED_TOKEN_MASK)}`;
}

const origin = z.string({ error: 'Must be a string' }).transform((value, ctx) => {
  const canonical = canonicalOrigin(value);
  if (canonical === null) ctx.addIssue({ code: 'custom', message: EMBED_ORIGIN_FORMAT });
  return canonical ?? value;
});

export const embedAppearanceSchema = z.object(
  {
    title: z.string().trim().max(EMBED_TITLE_MAX_LENGTH, `At most ${EMBED_TITLE_MAX_LENGTH} characters`),
    color: z.string().regex(/^#[0-9a-fA-F]{6}$/, EMBED_COLOR_FORMAT),
    welcome_text: z
      .string()
      .trim()
      .max(EMBED_WELCOME_MAX_LENGTH, `At most ${EMBED_WELCOME_MAX_LENGTH} characters`),
    position: z.enum(EMBED_POSITIONS),
  },
  { error: 'Must be an object' },
);
export type EmbedAppearance = z.infer<typeof embedAppearanceSchema>;

export const EMBED_DEFAULT_APPEARANCE: EmbedAppearance = {
  title: '',
  color: EMBED_DEFAULT_COLOR,
  welcome_text: '',
  position: 'bottom-right',
};

/** `POST …/embed`: the name is required; no origins = any page; the look defaults to the widget's own. */
export const embedBody = z.object(
  {
    name: z
      .string({ error: 'Required' })
      .trim()
      .min(1, 'Required')
      .max(EMBED_NAME_MAX_LENGTH, `At most ${EMBED_NAME_MAX_LENGTH} characters`),
    allowed_origins: z
      .array(origin, { error: 'Must be a list of origins' })
      .max(EMBED_ORIGINS_MAX, `At most ${EMBED_ORIGINS_MAX} origins`)
      .transform((list) => [...new Set(list)])
      .default([]),
    appearance: embedAppearanceSchema.partial().default({}),
  },
  { error: 'Must be an object' },
);
export type EmbedBody = z.input<typeof embedBody>;

/** `PUT …/embed/{embedId}`: the fields given replace the stored ones (`appearance` as a whole). */
export const embedUpdateBody = z.object(
  {
    name: embedBody.shape.name.optional(),
    allowed_origins: embedBody.shape.allowed_origins.unwrap().optional(),
    appearance: embedAppearanceSchema.partial().optional(),
  },
  { error: 'Must be an object' },
);
export type EmbedUpdateBody = z.input<typeof embedUpdateBody>;

export const embedsQuery = listQuery(EMBED_ORDER_COLUMNS);
export type EmbedsQuery = z.input<typeof embedsQuery>;

export const embedAppPath = z.object({ vendorId: idParam, appId: idParam });
export const embedPath = embedAppPath.extend({ embedId: idParam });
/** `/embed/js/{token}`: tokens are URL-safe base64; anything else names no embed. */
export const embedScriptPath = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/) });

/** docs/reference/rules.md. `token` is masked (`maskEmbedToken`) except in the answer of the POST that made it. */
export const embedSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  token: z.string(),
  vendor_id: z.number().int(),
  vendor_app_id: z.number().int(),
  vendor_client_id: z.number().int().nullable(),
  allowed_origins: z.array(z.string()),
  appearance: embedAppearanceSchema,
  created_by: z.number().int().nullable(),
  created_at: z.string(),
  modified_at: z.string().nullable(),
});
export type Embed = z.infer<typeof embedSchema>;

/** What the console's copy-token button and Embed Code modal need: the token and the script's address. */
export const embedCodeSchema = z.object({ token: z.string(), script_url: z.string() });
export type EmbedCode = z.infer<typeof embedCodeSchema>;

/** The `<script>` tag a vendor pastes into its pages. */
export const embedSnippet = (scriptUrl: string) => `<script src="${scriptUrl}" async></script>`;

/**
 * What the server hands the widget script it serves for a token: it wraps the built widget in
 * `(function (<EMBED_CONFIG_NAME>) { … })(<this object as JSON>)`, so the widget reads a free variable
 * of that name (a minifier keeps it, unlike a placeholder literal it could fold away).
 */
export interface EmbedWidgetConfig {
  token: string;
  app_id: number;
  /** The embed's title, else the app's name. */
  title: string;
  color: string;
  welcome_text: string;
  position: EmbedPosition;
}
export const EMBED_CONFIG_NAME = '__llmorEmbedConfig';
/** Where `npm run build -w web` writes the widget, inside the console's build folder. */
export const EMBED_WIDGET_FILE = 'embed/widget.js';
