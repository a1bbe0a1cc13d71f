import '@mantine/dates/styles.css';
import type Form from '@rjsf/core';
import { Form as MantineForm } from '@rjsf/mantine';
import type { ErrorSchema, RJSFSchema } from '@rjsf/utils';
import validator from '@rjsf/validator-ajv8';
import { type Ref, useImperativeHandle, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { SchemaFormHandle, SchemaFormProps } from './SchemaForm';
import { buildUiSchema, type FormValues } from './schema';
import { templates, widgets } from './widgets';

/** The rjsf form behind <SchemaForm/> (its own chunk: rjsf, ajv and the Mantine theme load on first use). */
export default function SchemaFormImpl({
  schema,
  value,
  onChange,
  onSubmit,
  fieldErrors,
  suggestions,
  validate = false,
  disabled,
  id = 'schema-form',
  testId,
  handleRef,
}: SchemaFormProps & { handleRef: Ref<SchemaFormHandle> }) {
  const { t } = useTranslation();
  const formRef = useRef<Form<FormValues, RJSFSchema>>(null);
  const uiSchema = useMemo(
    () => buildUiSchema(schema, { selectPlaceholder: t('schemaForm.selectPlaceholder') }, suggestions),
    [schema, t, suggestions],
  );
  const extraErrors = useMemo(() => {
    if (!fieldErrors || Object.keys(fieldErrors).length === 0) return undefined;
    const errors: Record<string, { __errors: string[] }> = {};
    for (const [key, message] of Object.entries(fieldErrors)) errors[key] = { __errors: [message] };
    return errors as ErrorSchema<FormValues>;
  }, [fieldErrors]);

  useImperativeHandle(handleRef, () => ({
    submit: () => formRef.current?.submit(),
  }));

  return (
    <div data-testid={testId}>
      <MantineForm
        ref={formRef}
        id={id}
        idPrefix={id}
        schema={schema as RJSFSchema}
        uiSchema={uiSchema}
        formData={value}
        validator={validator}
        widgets={widgets}
        templates={templates}
        extraErrors={extraErrors}
        noValidate={!validate}
        noHtml5Validate
        showErrorList={false}
        disabled={disabled}
        onChange={(event) => onChange((event.formData ?? {}) as FormValues)}
        onSubmit={(event) => onSubmit?.((event.formData ?? {}) as FormValues)}
      />
    </div>
  );
}
