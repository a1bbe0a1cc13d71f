import { describe, expect, it } from 'vitest';
import { idField, idParam, pagingQuery } from './http/common';
import { hasUnstorableText, JSON_MAX_DEPTH, jsonInputProblem, TOO_DEEP_TEXT, UNSTORABLE_TEXT } from './json';

const nested = (depth: number): unknown => {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value };
  return value;
};

describe('ids (docs/adr/0022)', () => {
  it('a path or query id is canonical decimal digits in range', () => {
    expect(idParam.parse('1')).toBe(1);
    expect(idParam.parse('2147483647')).toBe(2_147_483_647);
    for (const bad of [
      '0x10',
      '1e3',
      ' 1',
      '1 ',
      '+1',
      '01',
      '0',
      '-1',
      '1.5',
      '',
      'abc',
      '2147483648',
      '99999999999',
    ])
      expect(idParam.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('a body id is a JSON number, never coerced', () => {
    expect(idField.parse(7)).toBe(7);
    for (const bad of [true, [1], '1', 0, -1, 1.5, 2_147_483_648, null])
      expect(idField.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });

  it('paging is digits too', () => {
    expect(pagingQuery.parse({ page: '2', page_size: '50' })).toMatchObject({ page: 2, page_size: 50 });
    expect(pagingQuery.parse({})).toMatchObject({ page: 0, page_size: 20 });
    for (const bad of [{ page: '0x10' }, { page_size: '0' }, { page_size: '101' }, { page: '1e3' }])
      expect(pagingQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
  });
});

describe('JSON input rules (docs/adr/0022)', () => {
  it('refuses nesting past the limit, wherever it is', () => {
    expect(jsonInputProblem(nested(JSON_MAX_DEPTH))).toBeNull();
    expect(jsonInputProblem(nested(JSON_MAX_DEPTH + 1))?.message).toBe(TOO_DEEP_TEXT);
    expect(jsonInputProblem({ ok: 1, deep: nested(10_000) })).toMatchObject({ message: TOO_DEEP_TEXT });
  });

  it('refuses NUL and unpaired surrogates in strings and keys, naming the path', () => {
    expect(jsonInputProblem({ a: [{ b: 'x\u0000' }] })).toEqual({
      path: ['a', 0, 'b'],
      message: UNSTORABLE_TEXT,
    });
    expect(jsonInputProblem({ a: { 'k\ud800': 1 } })).toEqual({ path: ['a'], message: UNSTORABLE_TEXT });
    for (const bad of ['\u0000', 'a\ud800', '\udc00b', '\ud800\ud800', 'x\udfff\ud83d'])
      expect(hasUnstorableText(bad), JSON.stringify(bad)).toBe(true);
    for (const good of ['', 'plain', 'Grüezi', '😀', 'a\ud83d\ude00b', '\t\n'])
      expect(hasUnstorableText(good), JSON.stringify(good)).toBe(false);
  });
});
