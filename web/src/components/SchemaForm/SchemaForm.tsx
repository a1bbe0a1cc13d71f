import { Alert, Button, Loader } from '@mantine/core';
import { Component, lazy, type ReactNode, type Ref, Suspense, useImperativeHandle, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldSuggestions, FormSchema, FormValues } from './schema';
import './i18n';

export interface SchemaFormHandle {
  /** Submits the form (validating first when `validate` is set), as an outside button would. */
  submit(): void;
}

export interface SchemaFormProps {
  /** A JSON schema of an object (docs/reference/rules.md rules apply to its properties). */
  schema: FormSchema;
  /** Controlled values. */
  value: FormValues;
  onChange(value: FormValues): void;
  /** Called on submit (a `submit()` through the ref, Enter in a field, or `<button type="submit" form={id}>`). */
  onSubmit?(value: FormValues): void;
  /** Messages shown under fields, by property name (e.g. a server's `x-error`s). They do not block submit. */
  fieldErrors?: Record<string, string>;
  /** Values offered on text fields, by property name (free text stays allowed). */
  suggestions?: Record<string, FieldSuggestions>;
  /** Check the values against the schema in the browser before `onSubmit` (default: no, the server validates). */
  validate?: boolean;
  disabled?: boolean;
  /** The form element's id and the prefix of its inputs' ids (`<id>_<property>`). */
  id?: string;
  testId?: string;
  ref?: Ref<SchemaFormHandle>;
}

const SchemaFormImpl = lazy(() => import('./SchemaFormImpl'));

function LoadFailed() {
  const { t } = useTranslation();
  return (
    <Alert
      color="red"
      variant="light"
      title={t('schemaForm.loadFailed')}
      data-testid="schema-form-load-failed"
    >
      <Button size="xs" variant="light" color="red" onClick={() => window.location.reload()}>
        {t('schemaForm.reload')}
      </Button>
    </Alert>
  );
}

/** The form's chunk can fail to load (offline, or a new deployment replaced it): say so instead of crashing the page. */
class ChunkBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidCatch(error: unknown) {
    console.error('The schema form could not be loaded', error);
  }
  override render() {
    return this.state.failed ? <LoadFailed /> : this.props.children;
  }
}

/**
 * A form generated from a JSON schema (rjsf with the Mantine theme, loaded lazily): string inputs typed by
 * their description (password / email / url), nullable numbers, integer step 1, required marks, enums as
 * selects with 'Please select...'. Controlled; external per-field errors; submit from outside via ref.
 */
export function SchemaForm({ ref, ...props }: SchemaFormProps) {
  const inner = useRef<SchemaFormHandle>(null);
  const latest = useRef(props);
  latest.current = props;
  useImperativeHandle(ref, () => ({
    // Before the form's chunk has loaded there is nothing to validate with: hand over the values as they are.
    submit: () => (inner.current ? inner.current.submit() : latest.current.onSubmit?.(latest.current.value)),
  }));
  return (
    <ChunkBoundary>
      <Suspense fallback={<Loader size="sm" data-testid="schema-form-loading" />}>
        <SchemaFormImpl {...props} handleRef={inner} />
      </Suspense>
    </ChunkBoundary>
  );
}
