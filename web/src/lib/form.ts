import { asLocale, type Locale } from '@llmor/contracts';
import type { FormErrors, UseFormReturnType } from '@mantine/form';
import type { TFunction } from 'i18next';
import type { z } from 'zod';
import { fieldError } from '../components/FieldError';
import { i18n } from '../i18n';
import { apiLocale } from './api/client';
import { isApiError } from './api/error';
import { type NotifyOptions, notifyError } from './notify';

/**
 * Field errors by dotted path (`name`, `parameters.temperature.value`, `function_config.3`), each with
 * its messages: the one shape every form reads the server's errors in.
 */
export type FieldMessages = Record<string, string[]>;

/**
 * The server's field errors (docs/reference/api.md: per field a message, a list of messages, or a nested map, as in
 * `{parameters: {temperature: {value: "…"}}}`) flattened to dotted paths. The one mapper of the console.
 */
export function serverFieldErrors(errors: unknown, prefix = ''): FieldMessages {
  const out: FieldMessages = {};
  const add = (path: string, message: string) => {
    out[path] = [...(out[path] ?? []), message];
  };
  const walk = (value: unknown, path: string) => {
    if (value === undefined || value === null || value === '') return;
    if (typeof value === 'string') return add(path, value);
    if (Array.isArray(value)) {
      for (const item of value) walk(item, path);
      return;
    }
    if (typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key);
      return;
    }
    add(path, String(value));
  };
  walk(errors, prefix);
  return out;
}

/** A failed save (docs/reference/console.md): the server's message as an error toast (else `fallback`), and its field errors. */
export function submitErrors(error: unknown, fallback: string, toast?: NotifyOptions): FieldMessages {
  // A write that could not reach the server says so, not "failed: Unknown Error".
  const offline = isApiError(error) && error.status === 0;
  notifyError(
    offline
      ? i18n.t('errors.networkMessage')
      : ((isApiError(error) ? error.serverMessage : undefined) ?? fallback),
    toast,
  );
  return isApiError(error) ? serverFieldErrors(error.fieldErrors) : {};
}

/** The errors under `prefix`, the prefix removed: `errorsUnder(m, 'parameters')` → `{'temperature.value': […]}`. */
export function errorsUnder(errors: FieldMessages, prefix: string): FieldMessages {
  const out: FieldMessages = {};
  for (const [path, messages] of Object.entries(errors)) {
    if (path === prefix) out[''] = messages;
    else if (path.startsWith(`${prefix}.`)) out[path.slice(prefix.length + 1)] = messages;
  }
  return out;
}

/** Field messages as Mantine form errors (one message as text, several as a list). */
export function toFormErrors(errors: FieldMessages): FormErrors {
  return Object.fromEntries(Object.entries(errors).map(([path, messages]) => [path, fieldError(messages)]));
}

/**
 * Mantine form validation with a contracts zod schema: the form refuses what the server would refuse,
 * with the same messages, except the common ones, which are localised.
 */
let localizeText: ((text: string, locale: Locale) => string) | null = null;

/**
 * The server's message catalogue, which also translates the schemas' field messages (docs/adr/0030). It
 * arrives with the first form that validates rather than with the first screen (ADR 0017).
 */
async function loadFieldMessages(): Promise<void> {
  localizeText ??= (await import('./fieldMessages')).localize;
}

function fieldMessage(text: string): string {
  const locale = asLocale(apiLocale());
  return localizeText && locale ? localizeText(text, locale) : text;
}

export function zodFormValidate<T>(schema: z.ZodType, t: TFunction) {
  void loadFieldMessages();
  return (values: T): FormErrors => {
    const result = schema.safeParse(values);
    if (result.success) return {};
    const errors: FieldMessages = {};
    for (const issue of result.error.issues) {
      const path = issue.path.map(String).join('.');
      if (errors[path]) continue;
      const missing =
        (issue.code === 'too_small' && issue.origin === 'string' && Number(issue.minimum) === 1) ||
        (issue.code === 'invalid_type' && issue.input === undefined);
      errors[path] = [missing ? t('form.required') : fieldMessage(issue.message)];
    }
    return toFormErrors(errors);
  };
}

/**
 * `zodFormValidate` for a form of the first screen, whose schema (and zod) loads on its first submit
 * rather than with the page (ADR 0017): sets the form's errors, true when there are none.
 */
export async function validateWithLazySchema<T extends object>(
  form: UseFormReturnType<T>,
  loadSchema: () => Promise<z.ZodType>,
  t: TFunction,
): Promise<boolean> {
  const [schema] = await Promise.all([loadSchema(), loadFieldMessages()]);
  const errors = zodFormValidate<T>(schema, t)(form.getValues());
  form.setErrors(errors);
  return Object.keys(errors).length === 0;
}
