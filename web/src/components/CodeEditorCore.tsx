// The heavy part of CodeEditor (CodeMirror + the Lua mode), loaded on demand by CodeEditor.tsx.
import { StreamLanguage } from '@codemirror/language';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import CodeMirror, { type Extension } from '@uiw/react-codemirror';
import { useMemo } from 'react';
import { ariaLabelExtension, baseExtensions } from './editorTheme';

export interface CodeEditorCoreProps {
  value: string;
  onChange?(value: string): void;
  language: 'lua' | 'plain';
  height: string;
  dark: boolean;
  readOnly: boolean;
  ariaLabel?: string;
}

export function CodeEditorCore({
  value,
  onChange,
  language,
  height,
  dark,
  readOnly,
  ariaLabel,
}: CodeEditorCoreProps) {
  const extensions = useMemo(() => {
    const list: Extension[] = baseExtensions();
    if (language === 'lua') list.push(StreamLanguage.define(lua));
    if (ariaLabel) list.push(ariaLabelExtension(ariaLabel));
    return list;
  }, [language, ariaLabel]);
  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      height={height}
      theme={dark ? 'dark' : 'light'}
      readOnly={readOnly}
      extensions={extensions}
      indentWithTab
      basicSetup={{ tabSize: 2 }}
    />
  );
}
