/**
 * Apps: the installable catalogue, installed apps, their parameter definitions (the Configuration form)
 * and the icon search. docs/reference/console.md (Apps list, Install dialog, App page), docs/reference/console.md (Details, Configuration).
 *
 * Calls (all vendor-scoped; another vendor's app or an unknown/non-numeric id answers 404):
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | GET /v1/vendors/{vendorId}/apps | `appsListQuery` | `AppsList` (`{data, total_count, filter_count}`) |
 * | GET /v1/vendors/{vendorId}/apps/available | – | `AvailableAppsResponse` (`{data: {app_key: …}}`) |
 * | GET /v1/vendors/{vendorId}/apps/{appId} | `appGetQuery` | `{data: App}` |
 * | GET /v1/vendors/{vendorId}/apps/{appId}/parameters | – | `{data: ParameterDefinition[]}` |
 * | POST /v1/vendors/{vendorId}/apps | `appInstallBody` | 201 `{data: App}` (creator and functions embedded) |
 * | PUT /v1/vendors/{vendorId}/apps/{appId} | `appUpdateBody` | `{data: App}` (creator and functions embedded) |
 * | DELETE /v1/vendors/{vendorId}/apps/{appId} | – | 204 |
 * | GET /icons.json?q= (public) | `iconsQuery` | `{data: string[]}` (at most ICON_SEARCH_LIMIT = 20 names) |
 * | GET /icons/{name}.svg (public) | – | the SVG (image/svg+xml) |
 *
 * Validation errors answer 400 `{name: 'ValidationError', message, errors}`. `errors` keys:
 * - top-level fields by name: `name`, `description`, `completion_vendor_model_id`, `app_key`, `_` (body not an object);
 * - parameters as a nested map **parameter name → sub key → message**:
 *   `{"errors": {"parameters": {"temperature": {"value": "Must be at most 2"}}}}`. The sub key is `value`
 *   for the value as a whole, the locale for one text of a `text.localized` value (`{"greeting": {"xx_XX":
 *   "Unknown locale"}}`), the zero-based index for one message of a `conversation` value
 *   (`{"sample_conversation": {"1": "Role must be user or assistant"}}`). An unknown key:
 *   `{"parameters": {"foo": {"value": "Unknown parameter"}}}`. `parameters` that is not an object:
 *   `{"errors": {"parameters": "Must be an object"}}`;
 * - functions: `{"errors": {"functions": {"functions_data": "…"}}}` and `{"errors": {"function_config": {"<id>": "…"}}}`.
 * - list filters: `app_type`, `resolve`, `order`, … (a message naming the allowed values).
 */
import { z } from 'zod';
import { APP_TYPES, LOCALES } from '../constants';
import { dataEnvelopeSchema, listEnvelopeSchema, listQuery } from './common';

/** Icon references in app meta and manifests: `icon:<tabler icon name>`, e.g. `icon:robot`. */
export const ICON_SCHEME = 'icon:';
/** Where the server serves an icon's SVG: `icon:robot` → `/icons/robot.svg`. */
export const iconSvgPath = (ref: string): string | null =>
  ref.startsWith(ICON_SCHEME) ? `/icons/${ref.slice(ICON_SCHEME.length)}.svg` : null;

// ---------------------------------------------------------------------------------------------------
// Parameter definitions (GET …/apps/{appId}/parameters): `{name, type, params}`.
// The value of a definition lives in `app.parameters[params.value_key ?? name]`; `visual.header` has no value.
// ---------------------------------------------------------------------------------------------------

export const PARAMETER_TYPES = [
  'text',
  'text.localized',
  'number',
  'switch',
  'select',
  'select.icon',
  'conversation',
  'visual.header',
  'silicon',
] as const;
type ParameterType = (typeof PARAMETER_TYPES)[number];

/** Grid widths of the 12-column Configuration form (other values map to the nearest wider bucket). */
export const VISUAL_GRID_BUCKETS = [12, 6, 4, 3] as const;
/** Largest `silicon` (Lua) parameter value, in UTF-8 bytes. */
export const SILICON_MAX_BYTES = 64 * 1024;
/** Largest `text`/`text.localized` value without a `max_length` of its own, in characters. */
export const TEXT_MAX_LENGTH_DEFAULT = 64 * 1024;
/** Most messages in a `conversation` parameter. */
export const CONVERSATION_MAX_ITEMS = 100;

const parameterName = z.string().regex(/^[a-z][a-z0-9_]*$/, 'Use lower-case letters, digits and underscores');

const baseParams = {
  value_key: parameterName.optional(),
  label: z.string().optional(),
  description: z.string().optional(),
  placeholder: z.string().optional(),
  hint: z.string().optional(),
  visual_grid: z.number().int().min(1).max(12).optional(),
};

const locale = z.enum(LOCALES);

export const parameterDefinition = z.discriminatedUnion('type', [
  z.strictObject({
    name: parameterName,
    type: z.literal('text'),
    params: z.strictObject({
      ...baseParams,
      multiline: z.boolean().optional(),
      max_length: z.number().int().positive().optional(),
    }),
  }),
  z.strictObject({
    name: parameterName,
    type: z.literal('text.localized'),
    params: z.strictObject({
      ...baseParams,
      multiline: z.boolean().optional(),
      max_length: z.number().int().positive().optional(),
      default_locale: locale,
      available_locales: z.array(locale).min(1),
    }),
  }),
  z.strictObject({
    name: parameterName,
    type: z.literal('number'),
    params: z.strictObject({
      ...baseParams,
      min: z.number().optional(),
      max: z.number().optional(),
      step: z.number().positive().optional(),
    }),
  }),
  z.strictObject({ name: parameterName, type: z.literal('switch'), params: z.strictObject(baseParams) }),
  z.strictObject({
    name: parameterName,
    type: z.literal('select'),
    params: z.strictObject({
      ...baseParams,
      /** value → label. A `placeholder` also allows `null` (nothing chosen). */
      options: z.record(z.string(), z.string()),
    }),
  }),
  /** An icon picker: the value is a tabler icon name (`robot`), or null. */
  z.strictObject({ name: parameterName, type: z.literal('select.icon'), params: z.strictObject(baseParams) }),
  /** Sample messages: `[{role: 'user'|'assistant', message}]`. */
  z.strictObject({
    name: parameterName,
    type: z.literal('conversation'),
    params: z.strictObject(baseParams),
  }),
  /** A heading in the form; carries no value. */
  z.strictObject({
    name: parameterName,
    type: z.literal('visual.header'),
    params: z.strictObject({
      title: z.string(),
      subtitle: z.string().optional(),
      visual_grid: z.number().int().min(1).max(12).optional(),
    }),
  }),
  /** Lua code (the `silicon` app's script), at most SILICON_MAX_BYTES. */
  z.strictObject({ name: parameterName, type: z.literal('silicon'), params: z.strictObject(baseParams) }),
]);
export type ParameterDefinition = z.infer<typeof parameterDefinition>;
export type ParameterDefinitionOf<T extends ParameterType> = Extract<ParameterDefinition, { type: T }>;

export type ConversationRole = 'user' | 'assistant';
export interface ConversationSample {
  role: ConversationRole;
  message: string;
}
/** The value of a `text.localized` parameter: locale → text. */
export type LocalizedText = Partial<Record<(typeof LOCALES)[number], string>>;

// ---------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------

/** A comma-joined list of allowed values (`app_type=chatbot,silicon`); unknown values answer 400. */
function commaList<const T extends readonly [string, ...string[]]>(allowed: T) {
  return z
    .string()
    .max(500)
    .optional()
    .transform((value, ctx) => {
      const items = (value ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const unknown = items.filter((i) => !(allowed as readonly string[]).includes(i));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown value: ${unknown.join(', ')}. Allowed: ${allowed.join(', ')}`,
        });
        return z.NEVER;
      }
      return [...new Set(items)] as T[number][];
    });
}

const APP_ORDER_COLUMNS = ['created_at', 'name', 'app_key'] as const;
export type AppOrderColumn = (typeof APP_ORDER_COLUMNS)[number];

/**
 * GET /v1/vendors/{vendorId}/apps. Default order `created_at desc`; `order` without `order_dir` sorts
 * ascending; ties break on id. `search` matches name, description and app_key (case-insensitive
 * substring). `count` is accepted; both counts are always returned.
 */
export const appsListQuery = listQuery(APP_ORDER_COLUMNS).extend({
  resolve: commaList(['creator']),
  search: z.string().trim().max(200).optional(),
  app_type: commaList(APP_TYPES),
});

/** GET /v1/vendors/{vendorId}/apps/{appId}: `resolve=creator,functions` embeds them. */
export const appGetQuery = z.object({
  resolve: commaList(['creator', 'functions']),
  locale: z.string().optional(),
});

/**
 * A JSON object, passed through as sent: unlike `z.record` it keeps every own key (even `__proto__`),
 * so the server can name unknown keys instead of silently dropping them.
 */
const jsonObject = () =>
  z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    error: 'Must be an object',
  });
const parametersObject = jsonObject();

/** POST /v1/vendors/{vendorId}/apps: parameters are merged over the manifest's defaults, then validated. */
export const appInstallBody = z.object({
  app_key: z
    .string({ error: 'App key is required' })
    .trim()
    .min(1, 'App key is required')
    .max(100, 'Unknown app'),
  parameters: parametersObject.optional(),
});
export type AppInstallBody = z.input<typeof appInstallBody>;

/**
 * PUT /v1/vendors/{vendorId}/apps/{appId}. Omitted optional fields stay as they are; unknown fields
 * (the web may send the whole app back: id, app_key, meta, creator…) are ignored.
 * - `parameters` replaces the stored parameters; keys it leaves out take the manifest's default.
 * - `completion_vendor_model_id`: null or one of this vendor's `chat_completion` models.
 * - `functions` replaces the installed functions (order kept): each `id` a function of this vendor,
 *   `config` an object (default `{}`).
 */
export const appUpdateBody = z.object({
  name: z
    .string({ error: 'Name is required' })
    .trim()
    .min(1, 'Name is required')
    .max(200, 'Max length is 200 characters.'),
  description: z
    .string({ error: 'Must be a string' })
    .trim()
    .max(2000, 'Max length is 2000 characters.')
    .optional(),
  completion_vendor_model_id: z
    .number({ error: 'Must be a model id or null' })
    .int('Must be a model id or null')
    .positive('Must be a model id or null')
    .max(2_147_483_647, 'Must be a model id or null')
    .nullable()
    .optional(),
  parameters: parametersObject.optional(),
  functions: z
    .array(
      z.object({
        id: z
          .number({ error: 'Must be a function id' })
          .int('Must be a function id')
          .positive('Must be a function id')
          .max(2_147_483_647, 'Must be a function id'),
        config: jsonObject().optional(),
      }),
      { error: 'Must be a list of functions' },
    )
    .max(100, 'At most 100 functions')
    .optional(),
});
export type AppUpdateBody = z.input<typeof appUpdateBody>;

/** GET /icons.json?q=: case-insensitive substring of tabler icon names; exact, then prefix, then others, A-Z. */
export const iconsQuery = z.object({
  q: z.string().trim().max(100).optional(),
  locale: z.string().optional(),
});

// ---------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------

const appMetaDataSchema = z.object({
  /** `icon:<name>` (see ICON_SCHEME), or null. Follows the app's `icon` parameter when it has one. */
  icon: z.string().nullable(),
  icon_is_standalone: z.boolean(),
});

const appCreatorSchema = z.object({
  id: z.number().int(),
  firstname: z.string(),
  lastname: z.string(),
  email: z.string(),
});

/** An installed function (`resolve=functions`), in installation order. */
const appFunctionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  function_key: z.string(),
  description: z.string(),
  runtime: z.string(),
  config: z.record(z.string(), z.unknown()),
  argument_schema: z.unknown(),
  config_schema: z.unknown(),
});
export type AppFunction = z.infer<typeof appFunctionSchema>;

const appSchema = z.object({
  id: z.number().int(),
  vendor_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  app_key: z.string(),
  type: z.enum(APP_TYPES),
  created_at: z.string(),
  modified_at: z.string().nullable(),
  completion_vendor_model_id: z.number().int().nullable(),
  parameters: z.record(z.string(), z.unknown()),
  meta: z.object({ data: appMetaDataSchema }),
  /** Only with `resolve=creator`; null when the creator was deleted. */
  creator: z.object({ data: appCreatorSchema }).nullable().optional(),
  /** Only with `resolve=functions`. */
  functions: z.array(appFunctionSchema).optional(),
});
export type App = z.infer<typeof appSchema>;

const availableAppSchema = z.object({
  name: z.string(),
  description: z.string(),
  type: z.enum(APP_TYPES),
  /** `icon:<name>`. */
  icon: z.string(),
});
export type AvailableApp = z.infer<typeof availableAppSchema>;

export const appsListSchema = listEnvelopeSchema(appSchema);
export type AppsList = z.infer<typeof appsListSchema>;
export const appResponseSchema = dataEnvelopeSchema(appSchema);
export type AppResponse = z.infer<typeof appResponseSchema>;
export const availableAppsResponseSchema = z.object({ data: z.record(z.string(), availableAppSchema) });
export type AvailableAppsResponse = z.infer<typeof availableAppsResponseSchema>;
export const appParametersResponseSchema = z.object({ data: z.array(parameterDefinition) });
export type AppParametersResponse = z.infer<typeof appParametersResponseSchema>;
const iconsResponseSchema = z.object({ data: z.array(z.string()) });
export type IconsResponse = z.infer<typeof iconsResponseSchema>;
