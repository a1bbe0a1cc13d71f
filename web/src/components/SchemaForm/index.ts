export type { SchemaFormHandle } from './SchemaForm';
export { SchemaForm } from './SchemaForm';
export type { FieldSuggestions, FormSchema, FormValues } from './schema';
export {
  hasProperties,
  primaryType,
  schemaDefaults,
  schemaFieldErrors,
  schemaOtherErrors,
} from './schema';
