/**
 * Install parameters against a catalogue entry's JSON schema (ajv). A failure yields the schema to
 * re-render the install form with: submitted values as `default`s (never secrets) and a message per
 * field (`x-error` on the property, `x-errors` map at the top). Shape documented in contracts/http/models.ts.
 */
import type { ParameterSchema } from '@llmor/contracts';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { type CatalogueEntry, secretKeys } from './catalogue';

// ajv-formats is CommonJS; depending on the loader the function is the module or its `default`.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as typeof addFormatsModule;

const ajv = new Ajv({ allErrors: true, strict: true });
addFormats(ajv, ['uri', 'email']);
ajv.addKeyword({ keyword: 'x-secret', schemaType: 'boolean' });
ajv.addKeyword({ keyword: 'x-list-models', schemaType: 'boolean' });
ajv.addKeyword({ keyword: 'x-deployment', schemaType: 'boolean' });

const compiled = new Map<string, ValidateFunction>();
function validatorFor(entry: CatalogueEntry): ValidateFunction {
  let v = compiled.get(entry.id);
  if (!v) {
    v = ajv.compile(entry.schema);
    compiled.set(entry.id, v);
  }
  return v;
}

export type ParameterCheck =
  | { ok: true; parameters: Record<string, unknown>; secrets: Record<string, string> }
  | { ok: false; schema: ParameterSchema };

function messageFor(e: ErrorObject, prop: ParameterSchema['properties'][string] | undefined): string {
  switch (e.keyword) {
    case 'required':
      return 'This field is required.';
    case 'additionalProperties':
      return 'Unknown parameter.';
    case 'type':
      return `Must be ${e.params.type === 'integer' ? 'a whole number' : `a ${e.params.type}`}.`;
    case 'minLength':
      return e.params.limit === 1 ? 'Must not be empty.' : `Must be at least ${e.params.limit} characters.`;
    case 'maxLength':
      return `Must be at most ${e.params.limit} characters.`;
    case 'minimum':
      return `Must be at least ${e.params.limit}.`;
    case 'maximum':
      return `Must be at most ${e.params.limit}.`;
    case 'enum':
      return `Must be one of: ${(prop?.enum ?? []).map(String).join(', ')}.`;
    case 'format':
    case 'pattern':
      return prop?.format === 'uri' ? 'Must be a valid http:// or https:// URL.' : 'Has an invalid format.';
    default:
      return e.message ? `${e.message[0]!.toUpperCase()}${e.message.slice(1)}.` : 'Is invalid.';
  }
}

/** Which field an ajv error belongs to: a property name, or `_` for the object as a whole. */
function fieldOf(e: ErrorObject): string {
  if (e.keyword === 'required') return String(e.params.missingProperty);
  if (e.keyword === 'additionalProperties') return String(e.params.additionalProperty);
  const first = e.instancePath.split('/')[1];
  return first ? first.replace(/~1/g, '/').replace(/~0/g, '~') : '_';
}

/**
 * Validates submitted parameters. Empty strings and nulls for optional fields count as "not given"
 * (forms send them for untouched inputs). On success: the non-secret parameters to store and the
 * secrets to encrypt, separately.
 */
export function checkParameters(entry: CatalogueEntry, submitted: Record<string, unknown>): ParameterCheck {
  const required = new Set(entry.schema.required);
  const input: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(submitted)) {
    if ((v === '' || v === null) && !required.has(k)) continue;
    input[k] = v;
  }
  const validate = validatorFor(entry);
  const secrets = new Set(secretKeys(entry));
  if (validate(input)) {
    const parameters: Record<string, unknown> = {};
    const secretValues: Record<string, string> = {};
    for (const [k, v] of Object.entries(input)) {
      if (secrets.has(k)) secretValues[k] = v as string;
      else parameters[k] = v;
    }
    return { ok: true, parameters, secrets: secretValues };
  }

  const errors: Record<string, string> = {};
  for (const e of validate.errors ?? []) {
    const field = fieldOf(e);
    if (errors[field] !== undefined) continue; // first message per field
    errors[field] = messageFor(e, entry.schema.properties[field]);
  }
  return { ok: false, schema: failureSchema(entry, input, errors) };
}

/**
 * The entry's schema to re-render the form with: the submitted values as `default`s (never secrets)
 * and `errors` (field → message) as `x-error` on each property and the `x-errors` map.
 */
export function failureSchema(
  entry: CatalogueEntry,
  submitted: Record<string, unknown>,
  errors: Record<string, string>,
): ParameterSchema {
  const schema = structuredClone(entry.schema);
  const secrets = new Set(secretKeys(entry));
  for (const [k, prop] of Object.entries(schema.properties)) {
    if (k in submitted && !secrets.has(k)) prop.default = submitted[k];
    if (errors[k] !== undefined) prop['x-error'] = errors[k];
  }
  schema['x-errors'] = errors;
  return schema;
}
