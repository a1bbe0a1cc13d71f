import { describe, expect, it } from 'vitest';
import {
  consoleDeltas,
  consoleMarker,
  defaultValueFromSchema,
  functionRouteId,
  initialObjectValues,
  mergeDefaults,
  parseJsonObjectText,
  schemaHasProperties,
  statusColor,
  successRatePercent,
} from './lib';

describe('success rate', () => {
  it('is a whole percent, N/A (null) without runs', () => {
    expect(successRatePercent(0, 0)).toBeNull();
    expect(successRatePercent(3, 2)).toBe(67);
    expect(successRatePercent(3, 1)).toBe(33);
    expect(successRatePercent(8, 1)).toBe(13); // 12.5 rounds up
    expect(successRatePercent(4, 4)).toBe(100);
    expect(successRatePercent(5, 0)).toBe(0);
  });
});

describe('status colour', () => {
  it('-6 blue, positive green, anything else red', () => {
    expect(statusColor(-6)).toBe('blue');
    expect(statusColor(1)).toBe('green');
    expect(statusColor(2)).toBe('green');
    expect(statusColor(0)).toBe('red');
    expect(statusColor(-1)).toBe('red');
    expect(statusColor(-2)).toBe('red');
  });
});

describe('console', () => {
  it('marks 0 ok, 1 info, others error', () => {
    expect(consoleMarker(0)).toBe('ok');
    expect(consoleMarker(1)).toBe('info');
    expect(consoleMarker(2)).toBe('error');
    expect(consoleMarker(3)).toBe('error');
  });
  it('measures the time between entries', () => {
    expect(consoleDeltas([])).toEqual([]);
    expect(consoleDeltas([{ timestamp: 1000 }, { timestamp: 1003 }, { timestamp: 1010 }])).toEqual([0, 3, 7]);
  });
});

describe('route id', () => {
  it("accepts '+' and positive integers only", () => {
    expect(functionRouteId('+')).toEqual({ kind: 'new' });
    expect(functionRouteId('12')).toEqual({ kind: 'id', id: 12 });
    expect(functionRouteId('abc')).toBeNull();
    expect(functionRouteId('1.5')).toBeNull();
    expect(functionRouteId('0')).toBeNull();
    expect(functionRouteId('')).toBeNull();
    expect(functionRouteId(undefined)).toBeNull();
  });
});

describe('default values from a schema', () => {
  it('gives empty values per type', () => {
    expect(defaultValueFromSchema({ type: 'string' })).toBe('');
    expect(defaultValueFromSchema({ type: 'number' })).toBe(0);
    expect(defaultValueFromSchema({ type: 'integer' })).toBe(0);
    expect(defaultValueFromSchema({ type: 'boolean' })).toBe(false);
    expect(defaultValueFromSchema({ type: 'null' })).toBeNull();
    expect(defaultValueFromSchema({ type: ['string', 'null'] })).toBe('');
  });

  it('prefers the schema default', () => {
    expect(defaultValueFromSchema({ type: 'string', default: 'Zurich' })).toBe('Zurich');
    const value = { a: [1] };
    const copy = defaultValueFromSchema({ type: 'object', default: value });
    expect(copy).toEqual(value);
    expect(copy).not.toBe(value);
  });

  it('fills arrays with one default item and objects with their properties', () => {
    expect(defaultValueFromSchema({ type: 'array', items: { type: 'number' } })).toEqual([0]);
    expect(defaultValueFromSchema({ type: 'array' })).toEqual([]);
    expect(
      defaultValueFromSchema({
        type: 'object',
        properties: {
          city: { type: 'string' },
          days: { type: 'integer', default: 3 },
          tags: { type: 'array', items: { type: 'object', properties: { x: { type: 'boolean' } } } },
        },
      }),
    ).toEqual({ city: '', days: 3, tags: [{ x: false }] });
    expect(defaultValueFromSchema({ properties: { a: { type: 'string' } } })).toEqual({ a: '' });
  });

  it('throws for unsupported types', () => {
    expect(() => defaultValueFromSchema({ type: 'date' })).toThrow(/Unsupported schema type/);
    expect(() => defaultValueFromSchema({})).toThrow(/Unsupported/);
    expect(() => defaultValueFromSchema({ type: 'object', properties: { a: {} } })).toThrow();
    expect(() => defaultValueFromSchema(null)).toThrow();
  });

  it('initial object values fall back to {} and report the error', () => {
    const errors: unknown[] = [];
    expect(initialObjectValues(null)).toEqual({});
    expect(
      initialObjectValues({ type: 'object', properties: { a: { type: 'x' } } }, (e) => errors.push(e)),
    ).toEqual({});
    expect(errors).toHaveLength(1);
    expect(initialObjectValues({ type: 'object', properties: { n: { type: 'number' } } })).toEqual({ n: 0 });
  });

  it('merges defaults under entered values', () => {
    expect(mergeDefaults({ a: 1 }, { a: 0, b: '' })).toEqual({ a: 1, b: '' });
  });
});

describe('JSON object text', () => {
  it('empty is {}, invalid and non-objects are errors', () => {
    expect(parseJsonObjectText('')).toEqual({ ok: true, value: {} });
    expect(parseJsonObjectText('  \n')).toEqual({ ok: true, value: {} });
    expect(parseJsonObjectText('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseJsonObjectText('{a:1}')).toEqual({ ok: false, error: 'invalid' });
    expect(parseJsonObjectText('[1]')).toEqual({ ok: false, error: 'notObject' });
    expect(parseJsonObjectText('null')).toEqual({ ok: false, error: 'notObject' });
    expect(parseJsonObjectText('"x"')).toEqual({ ok: false, error: 'notObject' });
  });

  it('knows when a schema has properties', () => {
    expect(schemaHasProperties({ type: 'object', properties: { a: {} } })).toBe(true);
    expect(schemaHasProperties({ type: 'object', properties: {} })).toBe(false);
    expect(schemaHasProperties(null)).toBe(false);
  });
});
