/** The parts of a keyboard event the composer looks at. */
export interface KeyPress {
  key: string;
  shiftKey: boolean;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
}

/** Enter alone sends the message (docs/reference/console.md, Conversations page). */
export function isSendKey(e: KeyPress): boolean {
  return e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey;
}

/** Shift, Alt or Ctrl with Enter inserts a newline. */
export function isNewlineKey(e: KeyPress): boolean {
  return e.key === 'Enter' && (e.shiftKey || e.altKey || e.ctrlKey);
}
