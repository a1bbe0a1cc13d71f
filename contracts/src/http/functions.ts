/**
 * Functions: vendor-owned Lua (runtime `silicon`) functions, their editor runs ("build") and stored runs.
 * docs/reference/console.md (Functions list, Function detail shell: Details / Editor / Runs); docs/reference/rules.md; docs/reference/api.md "Functions".
 *
 * Calls (all vendor-scoped, signed session required; another vendor's function or run, an unknown id or a
 * non-numeric id answers 404 `{name: 'NotFound', message: 'Function not found' | 'Run not found'}`):
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | GET /v1/vendors/{vendorId}/functions | `functionsListQuery` | `FunctionsList` (`{data, total_count, filter_count}`) |
 * | GET /v1/vendors/{vendorId}/functions/{id} | – | `{data: FunctionDetail}` (with `code`) |
 * | POST /v1/vendors/{vendorId}/functions | `functionCreateBody` | 201 `FunctionSaved` |
 * | PUT /v1/vendors/{vendorId}/functions/{id} | `functionUpdateBody` | `FunctionSaved` |
 * | PUT /v1/vendors/{vendorId}/functions/{id}/code | `functionCodeBody` | `FunctionSaved` (the editor's save icon) |
 * | DELETE /v1/vendors/{vendorId}/functions/{id} | – | 204 (its runs and app installations go with it) |
 * | POST /v1/vendors/{vendorId}/functions/{id}/build | `functionBuildBody` | `FunctionBuildResponse` |
 * | GET /v1/vendors/{vendorId}/functions/{id}/runs | `functionRunsQuery` | `FunctionRunsList` |
 * | GET /v1/vendors/{vendorId}/functions/{id}/runs/stats | – | `{data: FunctionRunStats}` (Runs tab tiles) |
 * | GET /v1/vendors/{vendorId}/functions/{id}/runs/{runId} | – | `{data: FunctionRunDetail}` |
 *
 * Validation errors answer 400 `{name: 'ValidationError', message, errors}` and change nothing. `errors` keys:
 * `name`, `function_key` (format, or `Function key already exists.` — keys are unique per vendor, another
 * vendor may use the same key), `description`, `runtime` (only `silicon`), `is_library`, `code` (≤ 64 KiB
 * UTF-8), `specific_app_id` (`Unknown app` unless it is this vendor's app), `arguments` / `config` on build
 * (`Must be a JSON object`), list filters (`app_id`: `Unknown app`, `order`, `status`, …), `_` (body not an object).
 *
 * Saving code (POST, PUT with `code`, PUT …/code) loads the chunk in the sandbox without calling `run`
 * and stores `schema.arguments` / `schema.config` as `argument_schema` / `config_schema` (null when not
 * declared). Code that does not load (syntax error, an error or a limit hit while the chunk's top level runs)
 * is still saved — the editor saves work in progress — but keeps the previously stored schemas, and the
 * answer carries `code_error: {status, message, line}` saying why. Schema loads are not stored as runs.
 *
 * Calls that run Lua (create, update, save-code, build) are limited to 120 per user and minute (429 with
 * `Retry-After`).
 *
 * Every build and every tool call from a conversation is stored as a function run and updates the
 * function's `last_run`, `run_count` and `run_count_success` in the same transaction.
 */
import { z } from 'zod';
import {
  emptyIsAbsent,
  idField,
  idParam,
  listEnvelopeSchema,
  listQuery,
  pagingQuery,
  queryBoolean,
} from './common';

/** The only runtime: Lua 5.4 in the silicon sandbox (labelled 'Silicon (lua)'). */
export const FUNCTION_RUNTIMES = ['silicon'] as const;
export type FunctionRuntime = (typeof FUNCTION_RUNTIMES)[number];
export const FUNCTION_RUNTIME_LABELS: Record<FunctionRuntime, string> = { silicon: 'Silicon (lua)' };

/** Letters, digits and underscores; also a valid tool name for every model provider. */
const FUNCTION_KEY_PATTERN = /^[A-Za-z0-9_]+$/;
const FUNCTION_KEY_MAX_LENGTH = 64;
const FUNCTION_NAME_MAX_LENGTH = 200;
const FUNCTION_DESCRIPTION_MAX_LENGTH = 4000;
/** Largest function code, in UTF-8 bytes. */
export const FUNCTION_CODE_MAX_BYTES = 64 * 1024;
export const FUNCTION_KEY_EXISTS = 'Function key already exists.';
export const FUNCTION_KEY_FORMAT = 'Use letters, digits and underscores only.';

/** Run status codes (docs/reference/api.md "Functions"): 1 success, every other value a failure. */
export const FunctionRunStatus = {
  Ok: 1,
  RuntimeError: -1,
  SyntaxError: -2,
  TimeLimit: -3,
  MemoryLimit: -4,
  NotSerialisable: -5,
  Breakpoint: -6,
} as const;
export type FunctionRunStatusCode = (typeof FunctionRunStatus)[keyof typeof FunctionRunStatus];

// ---------------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------------

const FUNCTION_ORDER_COLUMNS = ['name', 'runtime', 'last_run', 'run_count'] as const;
export type FunctionOrderColumn = (typeof FUNCTION_ORDER_COLUMNS)[number];

/**
 * GET /v1/vendors/{vendorId}/functions. Default order `name asc` (case-insensitive); `order` without
 * `order_dir` sorts ascending; functions never run sort last by `last_run` in both directions; ties break on id.
 * - `app_id`: only functions that app may use — shared ones (library or not) and those specific to it;
 *   without it every function of the vendor. Another vendor's or an unknown app → 400 `app_id`.
 * - `search`: case-insensitive substring of name, function_key or description.
 * - `runtime`: `silicon`; `is_library`: `1`/`true` or `0`/`false`. Empty values mean no filter.
 * `count` is accepted; both counts are always returned.
 */
export const functionsListQuery = listQuery(FUNCTION_ORDER_COLUMNS).extend({
  app_id: z.preprocess(emptyIsAbsent, idParam.optional()),
  search: z.string().trim().max(200).optional(),
  runtime: z.preprocess(emptyIsAbsent, z.enum(FUNCTION_RUNTIMES).optional()),
  is_library: queryBoolean,
});

const encoder = new TextEncoder();
const utf8Length = (v: string) => encoder.encode(v).length;

const codeField = z
  .string({ error: 'Must be a string' })
  .refine(
    (v) => utf8Length(v) <= FUNCTION_CODE_MAX_BYTES,
    `Must be at most ${FUNCTION_CODE_MAX_BYTES / 1024} KiB`,
  );

const functionFields = {
  name: z
    .string({ error: 'Required' })
    .trim()
    .min(1, 'Required')
    .max(FUNCTION_NAME_MAX_LENGTH, `At most ${FUNCTION_NAME_MAX_LENGTH} characters`),
  function_key: z
    .string({ error: 'Required' })
    .min(1, { error: 'Required', abort: true })
    .max(FUNCTION_KEY_MAX_LENGTH, `At most ${FUNCTION_KEY_MAX_LENGTH} characters`)
    .regex(FUNCTION_KEY_PATTERN, FUNCTION_KEY_FORMAT),
  description: z
    .string({ error: 'Must be a string' })
    .max(FUNCTION_DESCRIPTION_MAX_LENGTH, `At most ${FUNCTION_DESCRIPTION_MAX_LENGTH} characters`)
    .optional(),
  runtime: z.enum(FUNCTION_RUNTIMES, { error: 'The only runtime is silicon' }).optional(),
  is_library: z.boolean({ error: 'Must be true or false' }).optional(),
  code: codeField.optional(),
  /** The app this function is specific to (only that app may install it); null: shared. */
  specific_app_id: idField.nullable().optional(),
};

/**
 * POST /v1/vendors/{vendorId}/functions. `name` and `function_key` are required; `runtime` defaults to
 * `silicon`, `is_library` to false, `description` and `code` to ''.
 */
export const functionCreateBody = z.object(functionFields, { error: 'Must be an object' });
export type FunctionCreateBody = z.input<typeof functionCreateBody>;

/**
 * PUT /v1/vendors/{vendorId}/functions/{id} (the Details form). `name` and `function_key` are required;
 * any other field left out keeps its value. Making a function specific to an app removes it from every
 * other app it was installed in.
 */
export const functionUpdateBody = z.object(functionFields, { error: 'Must be an object' });
export type FunctionUpdateBody = z.input<typeof functionUpdateBody>;

/** PUT /v1/vendors/{vendorId}/functions/{id}/code: the editor's save icon; code and schemas only. */
export const functionCodeBody = z.object({ code: codeField }, { error: 'Must be an object' });

const jsonObject = () =>
  z.custom<Record<string, unknown>>((v) => typeof v === 'object' && v !== null && !Array.isArray(v), {
    error: 'Must be a JSON object',
  });

/**
 * POST /v1/vendors/{vendorId}/functions/{id}/build: runs `run(arguments, config)` on `code` (saved or
 * not; nothing about the function changes except its run counters) with the default sandbox limits
 * (1 s Lua time, 32 MiB). `arguments` and `config` default to `{}`.
 */
export const functionBuildBody = z.object(
  {
    code: codeField,
    arguments: jsonObject().optional(),
    config: jsonObject().optional(),
  },
  { error: 'Must be an object' },
);
export type FunctionBuildBody = z.input<typeof functionBuildBody>;

/**
 * GET /v1/vendors/{vendorId}/functions/{id}/runs: newest first. `status=1` successful runs only,
 * `status=-1` every failure (status ≠ 1); empty means all.
 */
export const functionRunsQuery = pagingQuery.extend({
  status: z.preprocess(
    emptyIsAbsent,
    z
      .enum(['1', '-1'], { error: 'Must be 1 or -1' })
      .transform((v) => Number(v) as 1 | -1)
      .optional(),
  ),
});

export const functionPath = z.object({ vendorId: idParam, functionId: idParam });
export const functionRunPath = z.object({ vendorId: idParam, functionId: idParam, runId: idParam });

// ---------------------------------------------------------------------------------------------------
// Responses
// ---------------------------------------------------------------------------------------------------

const runStatus = z.literal(Object.values(FunctionRunStatus));
const jsonSchemaOrNull = z.record(z.string(), z.unknown()).nullable();

/** A list item (everything but `code`). */
const functionSummarySchema = z.object({
  id: z.number().int(),
  vendor_id: z.number().int(),
  name: z.string(),
  description: z.string(),
  function_key: z.string(),
  runtime: z.enum(FUNCTION_RUNTIMES),
  is_library: z.boolean(),
  specific_app_id: z.number().int().nullable(),
  /** JSON schemas from the code's `schema.arguments` / `schema.config`; null when not declared. */
  argument_schema: jsonSchemaOrNull,
  config_schema: jsonSchemaOrNull,
  last_run: z.string().nullable(),
  run_count: z.number().int(),
  run_count_success: z.number().int(),
  /** Whole percent of run_count_success over run_count (rounded); null with no runs ('N/A'). */
  success_rate: z.number().nullable(),
  created_at: z.string(),
  modified_at: z.string().nullable(),
});
export type FunctionSummary = z.infer<typeof functionSummarySchema>;

export const functionDetailSchema = functionSummarySchema.extend({ code: z.string() });
export type FunctionDetail = z.infer<typeof functionDetailSchema>;

export const functionsListSchema = listEnvelopeSchema(functionSummarySchema);
export type FunctionsList = z.infer<typeof functionsListSchema>;

/** Why saved code did not load (it is saved anyway; the stored schemas were kept). */
const functionCodeErrorSchema = z.object({
  status: runStatus,
  message: z.string(),
  line: z.number().int().nullable(),
});
export type FunctionCodeError = z.infer<typeof functionCodeErrorSchema>;

/** Answer of create, update and save-code. */
export const functionSavedSchema = z.object({
  data: functionDetailSchema,
  code_error: functionCodeErrorSchema.optional(),
});
export type FunctionSaved = z.infer<typeof functionSavedSchema>;

const functionConsoleEntrySchema = z.object({
  /** 0 ok, 1 info, 2 warn, 3 error. */
  level: z.literal([0, 1, 2, 3]),
  message: z.string(),
  /** ms since the epoch */
  timestamp: z.number(),
});
export type FunctionConsoleEntry = z.infer<typeof functionConsoleEntrySchema>;

const breakpointSchema = z.object({ breakpoint: z.number().int(), string: z.string() });
const runErrorSchema = z.object({ message: z.string(), line: z.number().int().nullable() });

export const functionBuildResponseSchema = z.object({
  data: z.object({
    status: runStatus,
    /** ms, rounded up */
    took: z.number(),
    /** peak Lua memory in bytes */
    memory: z.number(),
    /** `run`'s first return value; null unless status is 1 */
    result: z.unknown(),
    console: z.array(functionConsoleEntrySchema),
    /** The stored run (GET …/runs/{run_id}). */
    run_id: z.number().int(),
  }),
  /** Only with status -6: the line of `breakpoint(value)` and the value rendered. */
  debug: breakpointSchema.optional(),
  /** Only with a failure other than -6. */
  error: runErrorSchema.optional(),
  argument_schema: z.record(z.string(), z.unknown()).optional(),
  config_schema: z.record(z.string(), z.unknown()).optional(),
});
export type FunctionBuildResponse = z.infer<typeof functionBuildResponseSchema>;

const functionRunSchema = z.object({
  id: z.number().int(),
  status: runStatus,
  took: z.number(),
  memory: z.number(),
  created_at: z.string(),
  /** The conversation a tool call ran in; null for editor runs. */
  conversation_id: z.number().int().nullable(),
});
export type FunctionRun = z.infer<typeof functionRunSchema>;

export const functionRunDetailSchema = functionRunSchema.extend({
  arguments: z.unknown(),
  config: z.unknown(),
  result: z.unknown(),
  error: runErrorSchema.nullable(),
  console: z.array(functionConsoleEntrySchema),
  debug: breakpointSchema.nullable(),
});
export type FunctionRunDetail = z.infer<typeof functionRunDetailSchema>;

export const functionRunsListSchema = listEnvelopeSchema(functionRunSchema);
export type FunctionRunsList = z.infer<typeof functionRunsListSchema>;

/** The Runs tab tiles. */
export const functionRunStatsSchema = z.object({
  total_runs: z.number().int(),
  success_runs: z.number().int(),
  /** Whole percent; null with no runs. */
  success_rate: z.number().nullable(),
  last_run: z.string().nullable(),
  runtime: z.enum(FUNCTION_RUNTIMES),
  /** Mean duration of the stored runs in ms (rounded); null with no runs. */
  average_took: z.number().nullable(),
});
export type FunctionRunStats = z.infer<typeof functionRunStatsSchema>;
