import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown, safeHref } from './markdown';

describe('widget markdown', () => {
  it('reads emphasis, code and links inline', () => {
    expect(parseInline('a **bold** and *it* and _it_ and `x<y`')).toEqual([
      { t: 'text', v: 'a ' },
      { t: 'strong', c: [{ t: 'text', v: 'bold' }] },
      { t: 'text', v: ' and ' },
      { t: 'em', c: [{ t: 'text', v: 'it' }] },
      { t: 'text', v: ' and ' },
      { t: 'em', c: [{ t: 'text', v: 'it' }] },
      { t: 'text', v: ' and ' },
      { t: 'code', v: 'x<y' },
    ]);
    expect(parseInline('see [docs](https://example.com/a?b=1) or https://example.org/x.')).toEqual([
      { t: 'text', v: 'see ' },
      { t: 'link', href: 'https://example.com/a?b=1', c: [{ t: 'text', v: 'docs' }] },
      { t: 'text', v: ' or ' },
      { t: 'link', href: 'https://example.org/x', c: [{ t: 'text', v: 'https://example.org/x' }] },
      { t: 'text', v: '.' },
    ]);
  });

  it('keeps raw HTML and unsafe links as text', () => {
    expect(parseInline('<img src=x onerror=alert(1)>')).toEqual([
      { t: 'text', v: '<img src=x onerror=alert(1)>' },
    ]);
    expect(parseInline('[click](javascript:alert(1))')).toEqual([
      { t: 'text', v: '[click](javascript:alert(1))' },
    ]);
    expect(parseInline('[rel](/relative)')).toEqual([{ t: 'text', v: '[rel](/relative)' }]);
    expect(safeHref('mailto:a@example.com')).toBe('mailto:a@example.com');
    expect(safeHref('data:text/html,x')).toBeNull();
  });

  it('leaves lone markers, snake_case and escaped markers alone', () => {
    expect(parseInline('2 * 3 * 4')).toEqual([{ t: 'text', v: '2 * 3 * 4' }]);
    expect(parseInline('snake_case_name')).toEqual([{ t: 'text', v: 'snake_case_name' }]);
    expect(parseInline('\\*not\\*')).toEqual([{ t: 'text', v: '*not*' }]);
    expect(parseInline('**unclosed')).toEqual([{ t: 'text', v: '**unclosed' }]);
  });

  it('reads paragraphs with hard breaks, headings, lists and fenced code', () => {
    const blocks = parseMarkdown(
      '# Title\nline one\nline two\n\n- a\n- **b**\n  more b\n\n3. three\n4. four\n\n```js\nlet x = "<b>";\n```\nafter',
    );
    expect(blocks).toEqual([
      { t: 'h', level: 1, c: [{ t: 'text', v: 'Title' }] },
      { t: 'p', c: [{ t: 'text', v: 'line one' }, { t: 'br' }, { t: 'text', v: 'line two' }] },
      {
        t: 'ul',
        items: [
          [{ t: 'text', v: 'a' }],
          [{ t: 'strong', c: [{ t: 'text', v: 'b' }] }, { t: 'br' }, { t: 'text', v: 'more b' }],
        ],
      },
      { t: 'ol', start: 3, items: [[{ t: 'text', v: 'three' }], [{ t: 'text', v: 'four' }]] },
      { t: 'pre', v: 'let x = "<b>";' },
      { t: 'p', c: [{ t: 'text', v: 'after' }] },
    ]);
  });

  it('shows a code fence still streaming (no closing fence yet) as code', () => {
    expect(parseMarkdown('```\npartial')).toEqual([{ t: 'pre', v: 'partial' }]);
  });
});
