import { describe, expect, it } from 'vitest';
import { canOfferCreate, jsonEditorHeight, parseJsonText } from './editorRules';

describe('editor rules', () => {
  it('offers create only with a handler and more than 2 typed characters', () => {
    expect(canOfferCreate('abc', true)).toBe(true);
    expect(canOfferCreate('ab', true)).toBe(false);
    expect(canOfferCreate('  ab  ', true)).toBe(false);
    expect(canOfferCreate('abcdef', false)).toBe(false);
  });

  it('sizes the JSON editor max(200, rows × 20) px', () => {
    expect(jsonEditorHeight(10)).toBe(200);
    expect(jsonEditorHeight(5)).toBe(200);
    expect(jsonEditorHeight(30)).toBe(600);
  });

  it('parses JSON text or reports it invalid', () => {
    expect(parseJsonText('{"a": 1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonText('{"a": ')).toEqual({ ok: false });
    expect(parseJsonText('null')).toEqual({ ok: true, value: null });
  });
});
