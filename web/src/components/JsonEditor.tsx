import { Input, Text } from '@mantine/core';
import { lazy, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EditorFrame } from './EditorFrame';
import './editorMessages';
import { JSON_EDITOR_DEFAULT_ROWS, jsonEditorHeight, parseJsonText } from './editorRules';

const Core = lazy(() => import('./JsonEditorCore').then((m) => ({ default: m.JsonEditorCore })));

export interface JsonEditorProps {
  /** Any JSON value; shown pretty-printed. */
  value: unknown;
  /** Called with the parsed value; never while the text is not valid JSON. */
  onChange?(value: unknown): void;
  /** Told whether the text parses, so a form can refuse to save while it does not. */
  onValidityChange?(valid: boolean): void;
  /** Height is max(200, rows × 20) px (docs/reference/console.md). Default 10. */
  rows?: number;
  label?: ReactNode;
  description?: ReactNode;
  /** An outside error (e.g. from the server), shown under the editor. */
  error?: ReactNode;
  readOnly?: boolean;
  'data-testid'?: string;
}

const pretty = (value: unknown) => JSON.stringify(value ?? null, null, 2);

/**
 * A JSON editor (CodeMirror, lazy-loaded in its own chunk). While the text does not parse, it shows
 * 'The JSON document is invalid.' and the value is not updated (docs/reference/rules.md).
 */
export function JsonEditor({
  value,
  onChange,
  onValidityChange,
  rows = JSON_EDITOR_DEFAULT_ROWS,
  label,
  description,
  error,
  readOnly = false,
  'data-testid': testId,
}: JsonEditorProps) {
  const { t } = useTranslation();
  const [text, setText] = useState(() => pretty(value));
  const [invalid, setInvalid] = useState(false);
  // The last value this editor produced: an outside change (a different value) replaces the text.
  const emitted = useRef<unknown>(value);

  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(pretty(value));
    setInvalid(false);
  }, [value]);

  const onTextChange = (next: string) => {
    setText(next);
    const parsed = parseJsonText(next);
    setInvalid(!parsed.ok);
    onValidityChange?.(parsed.ok);
    if (!parsed.ok) return;
    emitted.current = parsed.value;
    onChange?.(parsed.value);
  };

  const height = `${jsonEditorHeight(rows)}px`;
  const shownError = invalid ? t('editors.jsonInvalid') : error;
  return (
    <Input.Wrapper
      label={label}
      description={description}
      error={
        shownError ? (
          <Text component="span" inherit data-testid={testId ? `${testId}-error` : undefined}>
            {shownError}
          </Text>
        ) : undefined
      }
    >
      <EditorFrame testId={testId} hasError={!!shownError} invalid={invalid} height={height}>
        <Core
          text={text}
          onTextChange={onTextChange}
          height={height}
          readOnly={readOnly}
          ariaLabel={typeof label === 'string' ? label : undefined}
        />
      </EditorFrame>
    </Input.Wrapper>
  );
}
