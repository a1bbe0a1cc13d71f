export type { SchemaFormHandle, SchemaFormProps } from './SchemaForm';
export { SchemaForm } from './SchemaForm';
export type { FieldSuggestions, FormPropertySchema, FormSchema, FormValues } from './schema';
export {
  hasProperties,
  primaryType,
  schemaDefaults,
  schemaFieldErrors,
  schemaOtherErrors,
  stringInputKind,
  toNumberOrNull,
} from './schema';
