/** Pure rules of the shared editors and pickers (docs/reference/rules.md); unit-tested beside. */

/** Search debounce of EntityPicker, in ms. */
export const PICKER_DEBOUNCE_MS = 250;
/** The create option needs more than this many typed characters. */
const PICKER_CREATE_MIN_EXCLUSIVE = 2;

/** Whether EntityPicker offers 'create "text"': only with a create handler and more than 2 characters. */
export function canOfferCreate(text: string, hasCreateHandler: boolean): boolean {
  return hasCreateHandler && text.trim().length > PICKER_CREATE_MIN_EXCLUSIVE;
}

/** Default rows of a JSON editor. */
export const JSON_EDITOR_DEFAULT_ROWS = 10;

/** Height in px of a JSON editor with the given rows: max(200, rows × 20). */
export const jsonEditorHeight = (rows: number) => Math.max(200, rows * 20);

/** Parses editor text: the value, or `invalid` (then the value must not be updated). */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
