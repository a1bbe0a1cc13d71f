// The heavy part of JsonEditor (CodeMirror + JSON language), loaded on demand by JsonEditor.tsx.
import { json } from '@codemirror/lang-json';
import CodeMirror, { EditorState, EditorView, type Extension } from '@uiw/react-codemirror';
import { useMemo } from 'react';

export interface JsonEditorCoreProps {
  text: string;
  onTextChange(text: string): void;
  height: string;
  readOnly: boolean;
  ariaLabel?: string;
}

const fontTheme = EditorView.theme({
  '&': { fontSize: '12px' },
  '.cm-content, .cm-gutter': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
});

export function JsonEditorCore({ text, onTextChange, height, readOnly, ariaLabel }: JsonEditorCoreProps) {
  const extensions = useMemo(() => {
    const list: Extension[] = [json(), fontTheme, EditorView.lineWrapping, EditorState.tabSize.of(2)];
    if (ariaLabel) list.push(EditorView.contentAttributes.of({ 'aria-label': ariaLabel }));
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
