import { Stack, Switch, Text, Textarea } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import type { FormSchema } from '../../../components/SchemaForm';
import { SchemaForm } from '../../../components/SchemaForm';
import { parseJsonObjectText, prettyJson, schemaHasProperties } from '../lib';

interface ObjectValueEditorTexts {
  editAsJson: string;
  jsonLabel: string;
  invalidJson: string;
  notObject: string;
  noSchema?: string;
}

export interface ObjectValueEditorProps {
  /** A JSON schema of an object; a form is rendered when it declares properties. */
  schema: Record<string, unknown> | null | undefined;
  value: Record<string, unknown>;
  onChange(value: Record<string, unknown>): void;
  /** Whether the JSON text currently parses to an object (the value is only updated when it does). */
  onValidityChange?(valid: boolean): void;
  texts: ObjectValueEditorTexts;
  /** Starts in JSON mode (e.g. with no schema). */
  defaultJson?: boolean;
  /** An outside message (e.g. a server error) under the editor. */
  error?: string;
  testId: string;
  /** The rjsf form id (input ids are `<formId>_<property>`). */
  formId: string;
}

/**
 * An object value as a schema form, or as a JSON textarea behind an 'Edit as JSON' toggle (docs/reference/rules.md):
 * empty text is {}, unparseable text 'Invalid JSON format', a non-object 'Must be a valid JSON object'.
 */
export function ObjectValueEditor({
  schema,
  value,
  onChange,
  onValidityChange,
  texts,
  defaultJson = false,
  error,
  testId,
  formId,
}: ObjectValueEditorProps) {
  const hasForm = schemaHasProperties(schema);
  const [jsonMode, setJsonMode] = useState(defaultJson);
  const asJson = jsonMode || !hasForm;
  const [text, setText] = useState(() => prettyJson(value));
  const [parseError, setParseError] = useState<'invalid' | 'notObject' | null>(null);
  // The last value this editor produced: an outside change (another value) replaces the text.
  const emitted = useRef<unknown>(value);

  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(prettyJson(value));
    setParseError(null);
    onValidityChange?.(true);
  }, [value, onValidityChange]);

  const onText = (next: string) => {
    setText(next);
    const parsed = parseJsonObjectText(next);
    if (!parsed.ok) {
      setParseError(parsed.error);
      onValidityChange?.(false);
      return;
    }
    setParseError(null);
    onValidityChange?.(true);
    emitted.current = parsed.value;
    onChange(parsed.value);
  };

  const switchMode = (json: boolean) => {
    if (!json && parseError) {
      // Back to the form: drop the unparseable text, the form shows the last valid value.
      setParseError(null);
      onValidityChange?.(true);
    }
    setText(prettyJson(value));
    setJsonMode(json);
  };

  const jsonError =
    parseError === 'invalid' ? texts.invalidJson : parseError === 'notObject' ? texts.notObject : null;

  return (
    <Stack gap="sm" data-testid={testId} data-mode={asJson ? 'json' : 'form'}>
      {hasForm ? (
        <Switch
          label={texts.editAsJson}
          checked={jsonMode}
          onChange={(e) => switchMode(e.currentTarget.checked)}
          data-testid={`${testId}-json-toggle`}
        />
      ) : (
        texts.noSchema && (
          <Text size="xs" c="dimmed">
            {texts.noSchema}
          </Text>
        )
      )}
      {asJson ? (
        <Textarea
          label={texts.jsonLabel}
          value={text}
          onChange={(e) => onText(e.currentTarget.value)}
          autosize
          minRows={6}
          maxRows={20}
          spellCheck={false}
          styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)', fontSize: 12 } }}
          error={jsonError ?? error}
          errorProps={{ 'data-testid': `${testId}-error` }}
          data-testid={`${testId}-json`}
        />
      ) : (
        <>
          <SchemaForm
            schema={schema as FormSchema}
            value={value}
            onChange={(next) => {
              emitted.current = next;
              setText(prettyJson(next));
              onChange(next);
            }}
            id={formId}
            testId={`${testId}-form`}
          />
          {error && (
            <Text size="sm" c="red" data-testid={`${testId}-error`}>
              {error}
            </Text>
          )}
        </>
      )}
    </Stack>
  );
}
