/**
 * Pure helpers of the schema-driven form (docs/reference/rules.md): which input a property gets, the values a
 * schema starts with, and the number rule. No React, no rjsf: unit-tested in schema.test.ts.
 */

/** The JSON-schema subset the form renders: an object of scalar properties. */
export interface FormPropertySchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  enum?: unknown[];
  format?: string;
  [keyword: string]: unknown;
}

export interface FormSchema {
  type?: 'object';
  properties?: Record<string, FormPropertySchema>;
  required?: string[];
  [keyword: string]: unknown;
}

export type FormValues = Record<string, unknown>;

/** How a string property is typed in: docs/reference/rules.md — by what its description mentions. */
export type StringInputKind = 'password' | 'email' | 'url' | 'text';

const mentions = {
  password: /password/i,
  email: /\be-?mail\b/i,
  url: /\burls?\b/i,
};

/** Password first (a secret must never show), then email, then url. `x-secret` also masks. */
export function stringInputKind(property: FormPropertySchema): StringInputKind {
  const description = typeof property.description === 'string' ? property.description : '';
  if (property['x-secret'] === true || mentions.password.test(description)) return 'password';
  if (mentions.email.test(description)) return 'email';
  if (mentions.url.test(description)) return 'url';
  return 'text';
}

export function primaryType(property: FormPropertySchema): string | undefined {
  return Array.isArray(property.type) ? property.type.find((t) => t !== 'null') : property.type;
}

export function hasProperties(schema: FormSchema | null | undefined): boolean {
  return !!schema?.properties && Object.keys(schema.properties).length > 0;
}

/** The value a number input reports: a finite number, else null (empty or invalid input). */
export function toNumberOrNull(value: unknown, integer = false): number | null {
  let n: number;
  if (typeof value === 'number') n = value;
  else if (typeof value === 'string' && value.trim() !== '') n = Number(value.trim());
  else return null;
  if (!Number.isFinite(n)) return null;
  if (integer && !Number.isInteger(n)) return null;
  return n;
}

/** The values a schema starts with: every property's `default` (a code-52 schema carries the submitted values there). */
export function schemaDefaults(schema: FormSchema | null | undefined): FormValues {
  const values: FormValues = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (property.default !== undefined) values[key] = structuredClone(property.default);
  }
  return values;
}

/** Messages per property from `x-error` annotations (the code-52 schema of docs/reference/console.md). */
export function schemaFieldErrors(schema: FormSchema | null | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, property] of Object.entries(schema?.properties ?? {})) {
    if (typeof property['x-error'] === 'string' && property['x-error']) errors[key] = property['x-error'];
  }
  return errors;
}

/** Messages of the top-level `x-errors` map that no rendered property shows (unknown parameters, `_`). */
export function schemaOtherErrors(schema: FormSchema | null | undefined): string[] {
  const map = schema?.['x-errors'];
  if (!map || typeof map !== 'object') return [];
  const shown = schema?.properties ?? {};
  return Object.entries(map as Record<string, unknown>)
    .filter(([key, message]) => typeof message === 'string' && !(key in shown))
    .map(([key, message]) => (key === '_' ? String(message) : `${key}: ${String(message)}`));
}

export interface UiTexts {
  selectPlaceholder: string;
}

/** Values a text field offers while still taking any text (a server's model names), and a note under it. */
export interface FieldSuggestions {
  options: string[];
  loading?: boolean;
  /** Shown under the field's description, e.g. how many were found or why none could be listed. */
  note?: string;
}

/** The rjsf uiSchema that applies the docs/reference/rules.md rules to each property. */
export function buildUiSchema(
  schema: FormSchema,
  texts: UiTexts,
  suggestions: Record<string, FieldSuggestions> = {},
): Record<string, unknown> {
  const ui: Record<string, unknown> = {
    'ui:submitButtonOptions': { norender: true },
  };
  for (const [key, property] of Object.entries(schema.properties ?? {})) {
    const type = primaryType(property);
    if (Array.isArray(property.enum)) {
      ui[key] = { 'ui:placeholder': texts.selectPlaceholder };
    } else if (type === 'string' && suggestions[key] && stringInputKind(property) === 'text') {
      ui[key] = { 'ui:widget': 'suggestions', 'ui:options': { suggestions: suggestions[key] } };
    } else if (type === 'string') {
      const kind = stringInputKind(property);
      if (kind === 'password') ui[key] = { 'ui:widget': 'password' };
      else if (kind !== 'text') ui[key] = { 'ui:options': { inputType: kind } };
    } else if (type === 'number' || type === 'integer') {
      ui[key] = { 'ui:widget': 'nullableNumber', 'ui:options': type === 'integer' ? { step: 1 } : {} };
    }
  }
  return ui;
}
