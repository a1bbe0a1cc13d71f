/**
 * The widget's markdown: a small parser for what replies use (paragraphs with hard line breaks,
 * headings, fenced code, bullet and numbered lists, bold, italics, inline code, links), turned into
 * DOM nodes with `textContent` only. Raw HTML is never interpreted: `<b>` stays the text "<b>".
 * Links keep only http, https and mailto addresses.
 */

export type Inline =
  | { t: 'text'; v: string }
  | { t: 'strong' | 'em'; c: Inline[] }
  | { t: 'code'; v: string }
  | { t: 'link'; href: string; c: Inline[] }
  | { t: 'br' };

export type Block =
  | { t: 'p'; c: Inline[] }
  | { t: 'h'; level: number; c: Inline[] }
  | { t: 'pre'; v: string }
  | { t: 'ul'; items: Inline[][] }
  | { t: 'ol'; start: number; items: Inline[][] };

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** An absolute http(s) or mailto address, else null (no `javascript:`, no relative paths). */
export function safeHref(href: string): string | null {
  try {
    const url = new URL(href);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

const BULLET = /^\s*[-*+]\s+(.*)$/;
const NUMBERED = /^\s*(\d{1,9})[.)]\s+(.*)$/;
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/;
const FENCE = /^\s{0,3}(```|~~~)/;

/** Lines joined with hard breaks (a reply's newlines are meant as written). */
function linesInline(lines: string[]): Inline[] {
  return lines.flatMap((line, i) =>
    i === 0 ? parseInline(line) : [{ t: 'br' as const }, ...parseInline(line)],
  );
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  // `as`: the closure below resets it, which control-flow narrowing does not see.
  let list = null as { kind: 'ul' | 'ol'; start: number; items: string[][] } | null;

  const flush = () => {
    if (paragraph.length) blocks.push({ t: 'p', c: linesInline(paragraph) });
    paragraph = [];
    if (list) {
      const items = list.items.map(linesInline);
      blocks.push(list.kind === 'ul' ? { t: 'ul', items } : { t: 'ol', start: list.start, items });
    }
    list = null;
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !lines[i]!.trimStart().startsWith(fence[1]!); i++) code.push(lines[i]!);
      blocks.push({ t: 'pre', v: code.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) {
      flush();
      blocks.push({ t: 'h', level: heading[1]!.length, c: parseInline(heading[2]!) });
      continue;
    }
    const bullet = BULLET.exec(line);
    const numbered = bullet ? null : NUMBERED.exec(line);
    if (bullet || numbered) {
      const kind = bullet ? 'ul' : 'ol';
      if (paragraph.length || list?.kind !== kind) flush();
      list ??= { kind, start: numbered ? Number(numbered[1]) : 1, items: [] };
      list.items.push([bullet ? bullet[1]! : numbered![2]!]);
      continue;
    }
    // An indented line right after an item continues it; anything else ends the list.
    if (list && /^\s/.test(line)) {
      list.items.at(-1)!.push(line.trim());
      continue;
    }
    if (list) flush();
    paragraph.push(line);
  }
  flush();
  return blocks;
}

const URL_START = /^https?:\/\/[^\s<>()]+/;
const TRAILING_PUNCTUATION = /[.,;:!?'"]+$/;
const ESCAPABLE = /[\\`*_[\]()#+\-.!~>]/;

/** Emphasis by `*`/`_` (once or twice), inline code, `[text](url)`, bare http(s) URLs, backslash escapes. */
export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  const pushText = (v: string) => {
    const last = out.at(-1);
    if (last?.t === 'text') last.v += v;
    else if (v) out.push({ t: 'text', v });
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const rest = text.slice(i);
    if (ch === '\\' && ESCAPABLE.test(text[i + 1] ?? '')) {
      pushText(text[i + 1]!);
      i += 2;
      continue;
    }
    if (ch === '`') {
      const end = text.indexOf('`', i + 1);
      if (end > i + 1) {
        out.push({ t: 'code', v: text.slice(i + 1, end) });
        i = end + 1;
        continue;
      }
    }
    if (ch === '*' || ch === '_') {
      const double = text[i + 1] === ch;
      const marker = double ? ch + ch : ch;
      const wordBefore = ch === '_' && /\w/.test(text[i - 1] ?? '');
      const opens =
        !wordBefore && text[i + marker.length] !== undefined && !/\s/.test(text[i + marker.length]!);
      const end = opens ? closingMarker(text, marker, i + marker.length) : -1;
      if (end > 0) {
        out.push({ t: double ? 'strong' : 'em', c: parseInline(text.slice(i + marker.length, end)) });
        i = end + marker.length;
        continue;
      }
    }
    if (ch === '[') {
      const link = /^\[([^\]]+)\]\(\s*([^)\s]+)\s*\)/.exec(rest);
      const href = link ? safeHref(link[2]!) : null;
      if (link && href) {
        out.push({ t: 'link', href, c: parseInline(link[1]!) });
        i += link[0].length;
        continue;
      }
    }
    if ((ch === 'h' || ch === 'H') && !/\w/.test(text[i - 1] ?? '')) {
      const bare = URL_START.exec(rest);
      if (bare) {
        const url = bare[0].replace(TRAILING_PUNCTUATION, '');
        const href = safeHref(url);
        if (href) {
          out.push({ t: 'link', href, c: [{ t: 'text', v: url }] });
          i += url.length;
          continue;
        }
      }
    }
    pushText(ch);
    i++;
  }
  return out;
}

/** Where `marker` closes emphasis opened before `from`: not after a space, not inside a word for `_`. */
function closingMarker(text: string, marker: string, from: number): number {
  for (let at = text.indexOf(marker, from + 1); at !== -1; at = text.indexOf(marker, at + 1)) {
    if (/\s/.test(text[at - 1]!)) continue;
    if (marker[0] === '_' && /\w/.test(text[at + marker.length] ?? '')) continue;
    // `**` closing a single `*` would leave a stray star: skip doubled markers for single emphasis.
    if (marker.length === 1 && text[at + 1] === marker) {
      at++;
      continue;
    }
    return at;
  }
  return -1;
}

function inlineNodes(doc: Document, inlines: Inline[]): Node[] {
  return inlines.map((node) => {
    switch (node.t) {
      case 'text':
        return doc.createTextNode(node.v);
      case 'br':
        return doc.createElement('br');
      case 'code': {
        const el = doc.createElement('code');
        el.textContent = node.v;
        return el;
      }
      case 'link': {
        const el = doc.createElement('a');
        el.href = node.href;
        el.target = '_blank';
        el.rel = 'noopener noreferrer nofollow';
        el.append(...inlineNodes(doc, node.c));
        return el;
      }
      default: {
        const el = doc.createElement(node.t);
        el.append(...inlineNodes(doc, node.c));
        return el;
      }
    }
  });
}

/** The blocks as DOM nodes (headings become `strong` paragraphs: a chat bubble has no outline). */
export function renderMarkdown(doc: Document, source: string): DocumentFragment {
  const fragment = doc.createDocumentFragment();
  for (const block of parseMarkdown(source)) {
    if (block.t === 'pre') {
      const pre = doc.createElement('pre');
      const code = doc.createElement('code');
      code.textContent = block.v;
      pre.append(code);
      fragment.append(pre);
    } else if (block.t === 'ul' || block.t === 'ol') {
      const list = doc.createElement(block.t);
      if (block.t === 'ol' && block.start !== 1) list.setAttribute('start', String(block.start));
      for (const item of block.items) {
        const li = doc.createElement('li');
        li.append(...inlineNodes(doc, item));
        list.append(li);
      }
      fragment.append(list);
    } else {
      const p = doc.createElement('p');
      if (block.t === 'h') {
        const strong = doc.createElement('strong');
        strong.append(...inlineNodes(doc, block.c));
        p.append(strong);
      } else p.append(...inlineNodes(doc, block.c));
      fragment.append(p);
    }
  }
  return fragment;
}
