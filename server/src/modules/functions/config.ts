/**
 * Checks an app's config for a function against the function's `config_schema` (JSON Schema, from the
 * function's Lua `schema.config`). Used by the apps module when an app's functions are saved.
 * Schemas are user-written: unknown keywords are ignored, and a schema ajv cannot compile is not enforced.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';

const ajv = new Ajv({ allErrors: false, strict: false, validateFormats: false });
/** Compiled validators by schema JSON, least recently used first out; evicted ones leave ajv's cache too. */
const cache = new LRUCache<string, { schema: Record<string, unknown>; validate: ValidateFunction | null }>({
  max: 500,
  dispose: (entry) => {
    if (entry.validate) ajv.removeSchema(entry.schema);
  },
});

function validatorFor(schema: Record<string, unknown>): ValidateFunction | null {
  const key = JSON.stringify(schema);
  const hit = cache.get(key);
  if (hit) return hit.validate;
  let validate: ValidateFunction | null;
  try {
    validate = ajv.compile(schema);
  } catch {
    validate = null;
  }
  cache.set(key, { schema, validate });
  return validate;
}

function describe(e: ErrorObject): string {
  const field =
    e.keyword === 'required'
      ? String(e.params.missingProperty)
      : e.keyword === 'additionalProperties'
        ? String(e.params.additionalProperty)
        : e.instancePath.replace(/^\//, '').replace(/\//g, '.');
  const what =
    e.keyword === 'required'
      ? 'is required'
      : e.keyword === 'additionalProperties'
        ? 'is not a known setting'
        : (e.message ?? 'is invalid');
  return field ? `${field}: ${what}` : `The config ${what}`;
}

/** null when `config` satisfies `schema` (or there is no usable schema); otherwise one message. */
export function checkFunctionConfig(schema: unknown, config: Record<string, unknown>): string | null {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return null;
  const validate = validatorFor(schema as Record<string, unknown>);
  if (!validate || validate(config)) return null;
  const first = validate.errors?.[0];
  return first ? describe(first) : 'The config is invalid';
}
