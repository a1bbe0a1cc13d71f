// The heavy part of JsonEditor (CodeMirror + JSON language), loaded on demand by JsonEditor.tsx.
import { json } from '@codemirror/lang-json';
import CodeMirror, { type Extension } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { ariaLabelExtension, baseExtensions } from './editorTheme';

export interface JsonEditorCoreProps {
  text: string;
  onTextChange(text: string): void;
  height: string;
  readOnly: boolean;
  ariaLabel?: string;
}

export function JsonEditorCore({ text, onTextChange, height, readOnly, ariaLabel }: JsonEditorCoreProps) {
  const extensions = useMemo(() => {
    const list: Extension[] = [json(), ...baseExtensions()];
    if (ariaLabel) list.push(ariaLabelExtension(ariaLabel));
    return list;
  }, [ariaLabel]);
  return (
    <CodeMirror
      value={text}
      onChange={onTextChange}
      height={height}
      readOnly={readOnly}
      extensions={extensions}
      basicSetup={{ tabSize: 2 }}
    />
  );
}
