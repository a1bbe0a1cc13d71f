/**
 * Validation of app parameters against their definitions (pure; no database).
 * Errors are a nested map: parameter name → sub key → message (contracts/src/http/apps.ts documents the keys).
 */
import {
  CONVERSATION_MAX_ITEMS,
  isPlainObject,
  type ParameterDefinition,
  SILICON_MAX_BYTES,
  TEXT_MAX_LENGTH_DEFAULT,
} from '@llmor/contracts';

type ParameterErrors = Record<string, Record<string, string>>;
export type ParametersResult =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; errors: ParameterErrors };

export interface ValidateOptions {
  /** Whether a name is an icon of the bundled set (`select.icon`). */
  isIcon: (name: string) => boolean;
}

/** Where a definition's value lives in `app.parameters`; null for definitions without a value. */
export function valueKeyOf(def: ParameterDefinition): string | null {
  return def.type === 'visual.header' ? null : (def.params.value_key ?? def.name);
}

type Check = { value: unknown } | { errors: Record<string, string> };
const fail = (message: string, sub = 'value'): Check => ({ errors: { [sub]: message } });

/** Sets an own property even for keys like `__proto__` (plain assignment would change the prototype). */
function put<T>(target: Record<string, T>, key: string, value: NoInfer<T>): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
const maxLengthText = (n: number) => `Max length is ${n} characters.`;

function checkValue(
  def: Exclude<ParameterDefinition, { type: 'visual.header' }>,
  v: unknown,
  opts: ValidateOptions,
): Check {
  switch (def.type) {
    case 'text': {
      if (typeof v !== 'string') return fail('Must be a string');
      const max = def.params.max_length ?? TEXT_MAX_LENGTH_DEFAULT;
      return v.length > max ? fail(maxLengthText(max)) : { value: v };
    }
    case 'text.localized': {
      if (!isPlainObject(v)) return fail('Must be an object of locale to text');
      const max = def.params.max_length ?? TEXT_MAX_LENGTH_DEFAULT;
      const allowed: readonly string[] = def.params.available_locales;
      const errors: Record<string, string> = {};
      for (const [locale, text] of Object.entries(v)) {
        if (!allowed.includes(locale)) put(errors, locale, 'Unknown locale');
        else if (typeof text !== 'string') put(errors, locale, 'Must be a string');
        else if (text.length > max) put(errors, locale, maxLengthText(max));
      }
      return Object.keys(errors).length ? { errors } : { value: { ...v } };
    }
    case 'number': {
      if (typeof v !== 'number' || !Number.isFinite(v)) return fail('Must be a number');
      const { min, max } = def.params;
      if (min !== undefined && v < min) return fail(`Must be at least ${min}`);
      if (max !== undefined && v > max) return fail(`Must be at most ${max}`);
      return { value: v };
    }
    case 'switch':
      return typeof v === 'boolean' ? { value: v } : fail('Must be true or false');
    case 'select': {
      if (v === null && def.params.placeholder !== undefined) return { value: null };
      const options = Object.keys(def.params.options);
      return typeof v === 'string' && Object.hasOwn(def.params.options, v)
        ? { value: v }
        : fail(`Must be one of: ${options.join(', ')}`);
    }
    case 'select.icon':
      if (v === null) return { value: null };
      return typeof v === 'string' && opts.isIcon(v) ? { value: v } : fail('Unknown icon');
    case 'conversation': {
      if (!Array.isArray(v)) return fail('Must be a list of messages');
      if (v.length > CONVERSATION_MAX_ITEMS) return fail(`At most ${CONVERSATION_MAX_ITEMS} messages`);
      const errors: Record<string, string> = {};
      const items: { role: string; message: string }[] = [];
      v.forEach((item: unknown, i) => {
        if (!isPlainObject(item) || (item.role !== 'user' && item.role !== 'assistant')) {
          errors[i] = 'Role must be user or assistant';
        } else if (typeof item.message !== 'string') errors[i] = 'Message must be a string';
        else if (item.message.length > TEXT_MAX_LENGTH_DEFAULT)
          errors[i] = maxLengthText(TEXT_MAX_LENGTH_DEFAULT);
        else items.push({ role: item.role, message: item.message });
      });
      return Object.keys(errors).length ? { errors } : { value: items };
    }
    case 'silicon':
      if (typeof v !== 'string') return fail('Must be a string');
      return Buffer.byteLength(v, 'utf8') > SILICON_MAX_BYTES
        ? fail(`Max size is ${SILICON_MAX_BYTES} bytes`)
        : { value: v };
  }
}

/**
 * Validates a whole parameters object: every key must belong to a definition, every value must fit its
 * type. Keys a definition has but `values` lacks are left out (callers merge defaults first).
 */
export function validateParameters(
  definitions: readonly ParameterDefinition[],
  values: Record<string, unknown>,
  opts: ValidateOptions,
): ParametersResult {
  const errors: ParameterErrors = {};
  const value: Record<string, unknown> = {};
  const known = new Set<string>();
  for (const def of definitions) {
    if (def.type === 'visual.header') continue;
    const key = valueKeyOf(def)!;
    known.add(key);
    if (!Object.hasOwn(values, key)) continue;
    const check = checkValue(def, values[key], opts);
    if ('errors' in check) errors[def.name] = check.errors;
    else value[key] = check.value;
  }
  for (const key of Object.keys(values)) {
    if (!known.has(key)) put(errors, key, { value: 'Unknown parameter' });
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, value };
}
