// Shared by the lazily loaded editor cores (CodeEditorCore, JsonEditorCore) only: keeps CodeMirror out of the main chunk.
import { EditorState, EditorView, type Extension } from '@uiw/react-codemirror';

const fontTheme = EditorView.theme({
  '&': { fontSize: '12px' },
  '.cm-content, .cm-gutter': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace' },
});

/** Font size 12 in a monospace font, line wrapping, tab size 2 (docs/reference/console.md). */
export const baseExtensions = (): Extension[] => [
  fontTheme,
  EditorView.lineWrapping,
  EditorState.tabSize.of(2),
];

/** The editor's content is labelled for assistive technology. */
export const ariaLabelExtension = (ariaLabel: string): Extension =>
  EditorView.contentAttributes.of({ 'aria-label': ariaLabel });
