import { describe, expect, it } from 'vitest';
import {
  buildUiSchema,
  schemaDefaults,
  schemaFieldErrors,
  schemaOtherErrors,
  stringInputKind,
  toNumberOrNull,
} from './schema';

describe('schema form rules (docs/reference/rules.md)', () => {
  it('types strings by what their description mentions; secrets are always masked', () => {
    expect(stringInputKind({ type: 'string', description: 'Treated like a password.' })).toBe('password');
    expect(stringInputKind({ type: 'string', description: 'Your e-mail address' })).toBe('email');
    expect(stringInputKind({ type: 'string', description: 'Contact Email' })).toBe('email');
    expect(stringInputKind({ type: 'string', description: 'URL of the API' })).toBe('url');
    expect(stringInputKind({ type: 'string', description: 'The model name, curly braces' })).toBe('text');
    expect(stringInputKind({ type: 'string', description: 'The URL; a password' })).toBe('password');
    expect(stringInputKind({ type: 'string', description: '', 'x-secret': true })).toBe('password');
  });

  it('numbers are null when empty or invalid; integers must be whole', () => {
    expect(toNumberOrNull('')).toBeNull();
    expect(toNumberOrNull('abc')).toBeNull();
    expect(toNumberOrNull('-')).toBeNull();
    expect(toNumberOrNull(undefined)).toBeNull();
    expect(toNumberOrNull(Number.NaN)).toBeNull();
    expect(toNumberOrNull('12')).toBe(12);
    expect(toNumberOrNull(1.5)).toBe(1.5);
    expect(toNumberOrNull(1.5, true)).toBeNull();
    expect(toNumberOrNull(0, true)).toBe(0);
  });

  it('builds the uiSchema: password, email/url input types, number widget with integer step, select placeholder', () => {
    const ui = buildUiSchema(
      {
        type: 'object',
        properties: {
          key: { type: 'string', description: 'like a password' },
          mail: { type: 'string', description: 'email' },
          url: { type: 'string', description: 'URL' },
          name: { type: 'string', description: 'plain' },
          count: { type: 'integer' },
          ratio: { type: 'number' },
          size: { type: 'string', enum: ['s', 'm'] },
        },
      },
      { selectPlaceholder: 'Please select...' },
    );
    expect(ui.key).toEqual({ 'ui:widget': 'password' });
    expect(ui.mail).toEqual({ 'ui:options': { inputType: 'email' } });
    expect(ui.url).toEqual({ 'ui:options': { inputType: 'url' } });
    expect(ui.name).toBeUndefined();
    expect(ui.count).toEqual({ 'ui:widget': 'nullableNumber', 'ui:options': { step: 1 } });
    expect(ui.ratio).toEqual({ 'ui:widget': 'nullableNumber', 'ui:options': {} });
    expect(ui.size).toEqual({ 'ui:placeholder': 'Please select...' });
  });

  it('reads defaults and the code-52 annotations', () => {
    const schema = {
      type: 'object' as const,
      properties: {
        base_url: { type: 'string', default: 'ftp://x', 'x-error': 'Must be a valid URL.' },
        model: { type: 'string' },
        cost: { type: 'integer', default: 0 },
      },
      'x-errors': { base_url: 'Must be a valid URL.', extra: 'Unknown parameter.', _: 'Whole object.' },
    };
    expect(schemaDefaults(schema)).toEqual({ base_url: 'ftp://x', cost: 0 });
    expect(schemaFieldErrors(schema)).toEqual({ base_url: 'Must be a valid URL.' });
    expect(schemaOtherErrors(schema)).toEqual(['extra: Unknown parameter.', 'Whole object.']);
    expect(schemaOtherErrors({ type: 'object', properties: {} })).toEqual([]);
  });
});
