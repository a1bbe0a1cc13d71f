import type { FieldErrors } from '@llmor/contracts';
import type { z } from 'zod';
import { validationError } from './errors';

/** Zod issues → the docs/reference/api.md field-error map (dotted paths, one message or a list per field). */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const errors: Record<string, string | string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : '_';
    const existing = errors[key];
    if (existing === undefined) errors[key] = issue.message;
    else errors[key] = Array.isArray(existing) ? [...existing, issue.message] : [existing, issue.message];
  }
  return errors;
}

/** Validates at the edge: bad input answers 400 with field errors and never reaches a service. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(fieldErrors(result.error.issues));
  return result.data;
}
