import { Input } from '@mantine/core';
import { lazy, type ReactNode } from 'react';
import { EditorFrame } from './EditorFrame';

const Core = lazy(() => import('./CodeEditorCore').then((m) => ({ default: m.CodeEditorCore })));

export interface CodeEditorProps {
  value: string;
  onChange?(value: string): void;
  /** Lua highlighting (silicon scripts) or none. Default lua. */
  language?: 'lua' | 'plain';
  /** CSS height, e.g. 600 (px) or '70vh'. Default 400 px. */
  height?: number | string;
  dark?: boolean;
  readOnly?: boolean;
  label?: ReactNode;
  description?: ReactNode;
  error?: ReactNode;
  required?: boolean;
  'data-testid'?: string;
}

/**
 * A code editor (CodeMirror, lazy-loaded in its own chunk): tab size 2, font size 12, line wrapping,
 * optional dark theme (docs/reference/console.md). Used for silicon (Lua) parameters and the function editor.
 */
export function CodeEditor({
  value,
  onChange,
  language = 'lua',
  height = 400,
  dark = false,
  readOnly = false,
  label,
  description,
  error,
  required,
  'data-testid': testId,
}: CodeEditorProps) {
  const cssHeight = typeof height === 'number' ? `${height}px` : height;
  return (
    <Input.Wrapper label={label} description={description} error={error} required={required}>
      <EditorFrame testId={testId} hasError={!!error} height={cssHeight}>
        <Core
          value={value}
          onChange={onChange}
          language={language}
          height={cssHeight}
          dark={dark}
          readOnly={readOnly}
          ariaLabel={typeof label === 'string' ? label : undefined}
        />
      </EditorFrame>
    </Input.Wrapper>
  );
}
