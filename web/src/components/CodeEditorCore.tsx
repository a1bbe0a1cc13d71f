// The heavy part of CodeEditor (CodeMirror + the Lua mode), loaded on demand by CodeEditor.tsx.
import { StreamLanguage } from '@codemirror/language';
import { lua } from '@codemirror/legacy-modes/mode/lua';
import CodeMirror, { EditorState, EditorView, type Extension } from '@uiw/react-codemirror';
import { useMemo } from 'react';

export interface CodeEditorCoreProps {
  value: string;
  onChange?(value: string): void;
  language: 'lua' | 'plain';
  height: string;
  dark: boolean;
  readOnly: boolean;
  ariaLabel?: string;
}

const fontTheme = EditorView.theme({
  '&': { fontSize: '12px' },
  '.cm-content, .cm-gutter': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
});

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
    const list: Extension[] = [fontTheme, EditorView.lineWrapping, EditorState.tabSize.of(2)];
    if (language === 'lua') list.push(StreamLanguage.define(lua));
    if (ariaLabel) list.push(EditorView.contentAttributes.of({ 'aria-label': ariaLabel }));
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
