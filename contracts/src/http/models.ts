/**
 * Models: the catalogue of available models, installing one with schema-validated parameters, and the
 * vendor's installed models (list, detail, delete, picker search).
 *
 * Calls (all vendor-scoped, signed session required):
 *
 * - `GET /v1/vendors/{vendorId}/avamodels/available?limit=100&search=&type=`
 *   → 200 `{data: AvailableModel[], total_count, filter_count}` (limit 1..100, default 100;
 *   `search` matches name, description, provider and id, case-insensitive; `type` filters).
 * - `POST /v1/vendors/{vendorId}/avamodels/{modelId}/install` `{parameters: {...}}`
 *   → 201 `{data: InstalledModelDetail}`; unknown `modelId` → 404; parameters that fail the model's
 *   schema → 400 `{name: 'ValidationError', message, code: 52, errors: {parameters}}`, nothing stored:
 *   `errors.parameters` is the model's schema to re-render the form with — each submitted property with
 *   `default` set to the submitted value (never a secret's), each failing one with `"x-error": "<message>"`,
 *   and `"x-errors"` mapping every failing property (an unknown one under its own name; `_` for the object
 *   as a whole) to its message.
 * - `POST /v1/vendors/{vendorId}/avamodels/{modelId}/provider-models` `{parameters}` → 200 `{data: [{id}]}`:
 *   the models the provider's server lists, for the install form; 400 when the entry's provider lists none
 *   or no base URL is given (or the outbound guard refuses it), 502/504 when that server fails or is silent.
 * - `GET /v1/vendors/{vendorId}/models?page=0&page_size=20&order=name|type&order_dir=asc|desc&type=&search=`
 *   → 200 `{data: InstalledModel[], total_count, filter_count}`; no `order` = insertion order.
 * - `GET /v1/vendors/{vendorId}/models/search?type=chat_completion&search=` → 200 `{data: VendorModelPick[]}` (≤ 20, by name).
 * - `GET /v1/vendors/{vendorId}/models/{id}` → 200 `{data: InstalledModelDetail}`.
 * - `DELETE /v1/vendors/{vendorId}/models/{id}` → 204.
 *   Another vendor's id, an unknown id or a non-numeric id → 404 `{name: 'NotFound', message: 'Model not found'}`.
 *
 * Secrets (parameters whose schema property has `"x-secret": true`, e.g. `api_key`) are encrypted at
 * rest and never returned: not in `parameters`, not in error bodies; detail answers only `secret_hints`.
 */
import { z } from 'zod';
import { AVAILABLE_MODELS_LIMIT } from '../constants';
import { digitsParam, listQuery } from './common';

const MODEL_TYPES = ['chat_completion', 'embedding'] as const;
export type ModelType = (typeof MODEL_TYPES)[number];

const MODEL_PROVIDERS = [
  'openai',
  'anthropic',
  'openai-compatible',
  'builtin',
  // Their own AI SDK packages (docs/adr/0038-providers.md).
  'google',
  'mistral',
  'groq',
  'deepseek',
  // Azure OpenAI, Amazon Bedrock and Ollama (ADR 0039).
  'azure',
  'amazon-bedrock',
  'ollama',
] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

/** Empty query values (`type=`) mean "no filter". */
const optionalType = z.preprocess((v) => (v === '' ? undefined : v), z.enum(MODEL_TYPES).optional());
const optionalSearch = z.string().trim().max(200).optional();

export const availableModelsQuery = z.object({
  limit: digitsParam(AVAILABLE_MODELS_LIMIT).pipe(z.number().min(1)).default(AVAILABLE_MODELS_LIMIT),
  search: optionalSearch,
  type: optionalType,
  locale: z.string().optional(),
});
export type AvailableModelsQuery = z.infer<typeof availableModelsQuery>;

/** Path of the install call: the catalogue id (`openai-gpt-4o-mini`). */
export const modelKeyParam = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,99}$/);

export const installModelBody = z.object({
  parameters: z.record(z.string(), z.unknown()).default({}),
});

const MODEL_ORDER_COLUMNS = ['name', 'type'] as const;
export const modelsListQuery = listQuery(MODEL_ORDER_COLUMNS).extend({
  type: optionalType,
  search: optionalSearch,
});
export type ModelsListQuery = z.infer<typeof modelsListQuery>;

export const MODEL_PICKER_LIMIT = 20;
export const modelSearchQuery = z.object({
  type: optionalType,
  search: optionalSearch,
  locale: z.string().optional(),
});
export type ModelSearchQuery = z.infer<typeof modelSearchQuery>;

/** One parameter of a model's schema (JSON Schema draft-07 subset, plus our `x-` annotations). */
const parameterPropertySchema = z.looseObject({
  type: z.enum(['string', 'integer', 'number', 'boolean']),
  title: z.string(),
  description: z.string(),
  default: z.unknown().optional(),
  enum: z.array(z.unknown()).optional(),
  format: z.string().optional(),
  minLength: z.number().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
  /** Secret: encrypted at rest, never returned; the form masks it (its description mentions "password"). */
  'x-secret': z.literal(true).optional(),
  /** The provider's server lists its models (`…/provider-models`): the form offers them for this field. */
  'x-list-models': z.literal(true).optional(),
  /**
   * The field takes a deployment name (Azure OpenAI): its list names the models the resource can serve, which
   * a deployment's name often repeats but need not; the form says so.
   */
  'x-deployment': z.literal(true).optional(),
  /** Only in a code-52 error body: the message for this property. */
  'x-error': z.string().optional(),
});
export type ParameterProperty = z.infer<typeof parameterPropertySchema>;

const parameterSchemaSchema = z.looseObject({
  type: z.literal('object'),
  properties: z.record(z.string(), parameterPropertySchema),
  required: z.array(z.string()),
  additionalProperties: z.literal(false),
  /** Only in a code-52 error body: message per property name (`_` for the object as a whole). */
  'x-errors': z.record(z.string(), z.string()).optional(),
});
export type ParameterSchema = z.infer<typeof parameterSchemaSchema>;

/** A catalogue entry, as the install modal shows it. */
export const availableModelSchema = z.object({
  /** Stable catalogue key, e.g. `openai-gpt-4o-mini`; the install path's `{modelId}`. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  /** Icon reference, e.g. `icon:openai`; the web maps it to an image. */
  image: z.string(),
  type: z.enum(MODEL_TYPES),
  provider: z.enum(MODEL_PROVIDERS),
  /** Default cost per 1K tokens in integer minor units of the vendor's currency. */
  cost_per_1k: z.number(),
  cost_per_1k_formatted: z.string(),
  schema: parameterSchemaSchema,
});
export type AvailableModel = z.infer<typeof availableModelSchema>;

/** A row of the installed-models list. */
export const installedModelSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  type: z.enum(MODEL_TYPES),
  provider: z.enum(MODEL_PROVIDERS).nullable(),
  /** The catalogue id it was installed from. */
  model_key: z.string(),
  /** Integer minor units. */
  cost_per_1k: z.number(),
  /** Formatted by the server in the vendor's currency, e.g. `CHF 0.15`. */
  cost_per_1k_formatted: z.string(),
  prepaid: z.boolean(),
  /** null when not prepaid. */
  available_tokens: z.number().nullable(),
  /** `Unlimited` when not prepaid, else the number with thousands separators (`1,000,000`). */
  available_tokens_formatted: z.string(),
  created_at: z.string(),
});
export type InstalledModel = z.infer<typeof installedModelSchema>;

/** Single model: the list row plus its non-secret parameters and a hint per secret that is set. */
export const installedModelDetailSchema = installedModelSchema.extend({
  description: z.string(),
  parameters: z.record(z.string(), z.unknown()),
  /** e.g. `{api_key: '…abcd'}`: the last 4 characters of a secret (`…` only for secrets shorter than 12). */
  secret_hints: z.record(z.string(), z.string()),
});
export type InstalledModelDetail = z.infer<typeof installedModelDetailSchema>;

/**
 * `POST …/avamodels/{modelId}/provider-models` `{parameters}`: the install parameters typed so far (base URL or
 * resource, key or AWS credentials); the server asks the provider's server (`GET {base}/models`, Ollama
 * `GET {base}/tags`, Azure `GET …/openai/v1/models`, Bedrock `GET /foundation-models` and `/inference-profiles`).
 */
export const providerModelsBody = z.object({
  parameters: z.record(z.string(), z.unknown()).default({}),
});

/** The model names the provider's server offers, sorted (at most PROVIDER_MODELS_LIMIT). */
export const providerModelsSchema = z.object({ data: z.array(z.object({ id: z.string() })) });
export type ProviderModels = z.infer<typeof providerModelsSchema>;
export const PROVIDER_MODELS_LIMIT = 500;

/** Picker entry (`/models/search`). */
const vendorModelPickSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  image: z.string().nullable(),
  cost_per_1k_formatted: z.string(),
});
export type VendorModelPick = z.infer<typeof vendorModelPickSchema>;

/** `GET …/models/search`: at most MODEL_PICKER_LIMIT picks, by name. */
export const vendorModelPicksSchema = z.object({ data: z.array(vendorModelPickSchema) });
export type VendorModelPicks = z.infer<typeof vendorModelPicksSchema>;
