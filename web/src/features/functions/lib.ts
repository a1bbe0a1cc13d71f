/**
 * Pure rules of the functions screens (docs/reference/rules.md): success rate, status colours,
 * console deltas, argument defaults from a schema and the JSON-object text rules. Unit-tested in lib.test.ts.
 */
import { FunctionRunStatus, isPlainObject } from '@llmor/contracts';

/** Whole percent of successful runs over all runs; null with zero runs ('N/A'). */
export function successRatePercent(runCount: number, successCount: number): number | null {
  if (!runCount || runCount <= 0) return null;
  return Math.round((successCount / runCount) * 100);
}

export type StatusColor = 'blue' | 'green' | 'red';

/** Result status display (docs/reference/rules.md): -6 (breakpoint) blue, positive green, anything else red. */
export function statusColor(status: number): StatusColor {
  if (status === FunctionRunStatus.Breakpoint) return 'blue';
  if (status > 0) return 'green';
  return 'red';
}

export type ConsoleMarker = 'ok' | 'info' | 'error';

/** Console level marker: 0 ok, 1 info, otherwise error (docs/reference/console.md). */
export function consoleMarker(level: number): ConsoleMarker {
  if (level === 0) return 'ok';
  if (level === 1) return 'info';
  return 'error';
}

/** Milliseconds since the previous entry (0 for the first). */
export function consoleDeltas(entries: ReadonlyArray<{ timestamp: number }>): number[] {
  return entries.map((entry, i) => (i === 0 ? 0 : Math.max(0, entry.timestamp - entries[i - 1]!.timestamp)));
}

/** The detail route's id: '+' creates, digits name a function, anything else is not found (docs/reference/rules.md). */
export function functionRouteId(id: string | undefined): { kind: 'new' } | { kind: 'id'; id: number } | null {
  if (id === '+') return { kind: 'new' };
  if (id && /^\d+$/.test(id)) {
    const n = Number(id);
    if (n > 0 && n <= 2_147_483_647) return { kind: 'id', id: n };
  }
  return null;
}

type JsonSchema = Record<string, unknown>;

/** A schema's type: the first non-null one of a type list. */
function schemaType(schema: JsonSchema): unknown {
  const type = schema.type;
  if (Array.isArray(type))
    return type.find((t) => t !== 'null') ?? (type.includes('null') ? 'null' : undefined);
  return type;
}

/**
 * The initial value of a schema (docs/reference/rules.md, 'Default argument values from schema'): the schema's own
 * `default` when it has one; else string '', number/integer 0, boolean false, null null, an array with one
 * default item, an object of its properties' defaults. Any other type throws.
 */
export function defaultValueFromSchema(schema: unknown): unknown {
  if (!isPlainObject(schema)) throw new Error('Unsupported schema: not an object');
  if (schema.default !== undefined) return structuredClone(schema.default);
  const type = schemaType(schema) ?? (isPlainObject(schema.properties) ? 'object' : undefined);
  switch (type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return 0;
    case 'boolean':
      return false;
    case 'null':
      return null;
    case 'array':
      return schema.items === undefined ? [] : [defaultValueFromSchema(schema.items)];
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = isPlainObject(schema.properties) ? schema.properties : {};
      for (const [key, property] of Object.entries(properties)) out[key] = defaultValueFromSchema(property);
      return out;
    }
    default:
      throw new Error(`Unsupported schema type: ${type === undefined ? '(none)' : JSON.stringify(type)}`);
  }
}

/**
 * The values a form starts with for an object schema: its defaults, or {} when there is no schema or it
 * cannot be defaulted (the error is reported to `onError`).
 */
export function initialObjectValues(
  schema: Record<string, unknown> | null | undefined,
  onError?: (error: unknown) => void,
): Record<string, unknown> {
  if (!schema) return {};
  try {
    const value = defaultValueFromSchema(schema);
    return isPlainObject(value) ? value : {};
  } catch (error) {
    onError?.(error);
    return {};
  }
}

/** Whether a JSON schema of an object declares at least one property (then a form is rendered). */
export function schemaHasProperties(schema: unknown): schema is { properties: Record<string, unknown> } {
  return (
    isPlainObject(schema) && isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0
  );
}

export type JsonObjectParse =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; error: 'invalid' | 'notObject' };

/**
 * Argument / config JSON text (docs/reference/rules.md): empty text is {}, unparseable text 'invalid' ('Invalid JSON
 * format'), valid JSON that is not a plain object 'notObject' ('Must be a valid JSON object').
 */
export function parseJsonObjectText(text: string): JsonObjectParse {
  if (text.trim() === '') return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'invalid' };
  }
  return isPlainObject(value) ? { ok: true, value } : { ok: false, error: 'notObject' };
}

/** Pretty JSON for display; `undefined` shows as null. */
export function prettyJson(value: unknown): string {
  try {
    return JSON.stringify(value === undefined ? null : value, null, 2) ?? 'null';
  } catch {
    return String(value);
  }
}

/** Keeps the values already entered and fills in defaults for properties that have none yet. */
export function mergeDefaults(
  current: Record<string, unknown>,
  defaults: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...defaults };
  for (const [key, value] of Object.entries(current)) out[key] = value;
  return out;
}
