/**
 * Text out of documents (docs/adr/0032-document-import-and-sources.md): a PDF page by page, a Word file,
 * an HTML page or Markdown as sections under their heading path. Each is read in one pass whose cost
 * grows with the input alone — a streaming XML/HTML tokenizer, markdown-it's flat token list — and every
 * bound of `DocumentLimits` is checked while reading (ADR 0053). This runs in the parse pool's threads.
 */

import type { DocumentSource } from '@llmor/contracts';
import { ErrorName } from '@llmor/contracts';
import { Parser } from 'htmlparser2';
import { AppError, validationError } from '../../platform/errors';
import { ZipError, ZipReader } from './zip';

/** A run of text with where it sits in its file. */
export interface Section {
  text: string;
  source: Omit<DocumentSource, 'file' | 'url'>;
}

/** The bounds a file is read within (settings `DOCUMENT_MAX_*`, ADR 0053). */
export interface DocumentLimits {
  maxDepth: number;
  maxInflatedBytes: number;
  maxInflateRatio: number;
  maxPages: number;
  maxParagraphs: number;
  maxTextChars: number;
}

/** A file that cannot be read: 400 with a message naming what is wrong with it. */
export const unreadable = (message: string) => validationError({ data: message }, message);

/** A file past a size bound: 413 with a message naming the setting. */
export const tooLarge = (message: string) => new AppError(ErrorName.PayloadTooLarge, message);

const tooDeep = (limits: DocumentLimits) =>
  unreadable(
    `The document is nested deeper than ${limits.maxDepth} levels (DOCUMENT_MAX_DEPTH); flatten it and import it again.`,
  );

/**
 * Sections built block by block: a heading of depth d replaces the path from level d on; the blocks under
 * it form its section's text. Counts paragraphs and characters against the limits as they come.
 */
class SectionBuilder {
  readonly sections: Section[] = [];
  private path: { depth: number; title: string }[] = [];
  private blocks: string[] = [];
  private paragraphs = 0;
  private chars = 0;
  private lastWasItem = false;

  constructor(private readonly limits: DocumentLimits) {}

  heading(depth: number, title: string): void {
    this.flush();
    this.count(title);
    const trimmed = title.trim();
    this.path = this.path.filter((h) => h.depth < depth);
    if (trimmed) this.path.push({ depth, title: trimmed });
  }

  /** A block of text; list items directly after one another stay one block, a line each. */
  block(text: string, listItem = false): void {
    this.count(text);
    const trimmed = text.trim();
    if (!trimmed) return;
    const line = listItem ? `- ${trimmed}` : trimmed;
    const last = this.blocks.length - 1;
    if (listItem && this.lastWasItem && last >= 0) this.blocks[last] += `\n${line}`;
    else this.blocks.push(line);
    this.lastWasItem = listItem;
  }

  finish(): Section[] {
    this.flush();
    return this.sections;
  }

  private count(text: string): void {
    this.paragraphs += 1;
    this.chars += text.length;
    if (this.paragraphs > this.limits.maxParagraphs) {
      throw tooLarge(
        `The document has more than ${this.limits.maxParagraphs} paragraphs (DOCUMENT_MAX_PARAGRAPHS); split it and import the parts.`,
      );
    }
    if (this.chars > this.limits.maxTextChars) throw textTooLong(this.limits);
  }

  private flush(): void {
    const text = this.blocks.join('\n\n').trim();
    if (text) {
      this.sections.push({
        text,
        source: this.path.length ? { heading: this.path.map((h) => h.title) } : {},
      });
    }
    this.blocks = [];
    this.lastWasItem = false;
  }
}

const textTooLong = (limits: DocumentLimits) =>
  tooLarge(
    `The document has more than ${limits.maxTextChars} characters of text (DOCUMENT_MAX_TEXT_CHARS); split it and import the parts.`,
  );

/** Refuses a text past the character bound (text and records read whole). */
export function checkTextLength(text: string, limits: DocumentLimits): void {
  if (text.length > limits.maxTextChars) throw textTooLong(limits);
}

// ---------------------------------------------------------------------------------------------------
// PDF
// ---------------------------------------------------------------------------------------------------

/** pdf.js names its failures by class: a password, a damaged or a non-PDF file. */
function pdfFailure(err: { name?: string; message: string }): Error {
  if (err.name === 'PasswordException') {
    return unreadable(
      'The PDF is encrypted (password-protected); save it without a password and import it again.',
    );
  }
  return unreadable(`The file is not a readable PDF: ${err.message}`);
}

/**
 * One section per page with text, read by pdf.js (its build for Node parses on the calling thread, here
 * the pool's); refuses a PDF without any text layer (a scan) as unreadable. Pages and characters are
 * counted as they come: a page's text is read as a stream, so one page of millions of strings stops at
 * the character bound instead of being held whole.
 */
export async function pdfSections(bytes: Uint8Array, limits: DocumentLimits): Promise<Section[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let pdf: Awaited<ReturnType<typeof getDocument>['promise']>;
  try {
    pdf = await getDocument({ data: bytes, isEvalSupported: false, useSystemFonts: false, verbosity: 0 })
      .promise;
  } catch (err) {
    throw pdfFailure(err as Error);
  }
  try {
    if (pdf.numPages > limits.maxPages) {
      throw tooLarge(
        `The PDF has ${pdf.numPages} pages, more than ${limits.maxPages} (DOCUMENT_MAX_PAGES); split it and import the parts.`,
      );
    }
    const sections: Section[] = [];
    let chars = 0;
    for (let page = 1; page <= pdf.numPages; page++) {
      const parts: string[] = [];
      const reader = (await pdf.getPage(page)).streamTextContent().getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        for (const item of value.items) {
          if (!('str' in item)) continue;
          const part = item.hasEOL ? `${item.str}\n` : item.str;
          chars += part.length;
          if (chars > limits.maxTextChars) {
            await reader.cancel();
            throw textTooLong(limits);
          }
          parts.push(part);
        }
      }
      const text = parts.join('').trim();
      if (text) sections.push({ text, source: { page } });
    }
    if (sections.length === 0) {
      throw unreadable(
        'The PDF has no text layer (a scanned document?); run it through text recognition (OCR) first.',
      );
    }
    return sections;
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw pdfFailure(err as Error);
  } finally {
    await pdf.loadingTask.destroy();
  }
}

// ---------------------------------------------------------------------------------------------------
// Word
// ---------------------------------------------------------------------------------------------------

const HEADING_STYLE = /^heading ?([1-6])$/i;

/** Paragraph style id → heading level, from the style's name (`heading 1`), as Word and mammoth name them. */
function headingStyles(xml: Buffer | undefined): Map<string, number> {
  const levels = new Map<string, number>();
  if (!xml) return levels;
  let styleId: string | undefined;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'w:style') styleId = attribs['w:styleId'];
        else if (name === 'w:name' && styleId) {
          const level = HEADING_STYLE.exec(attribs['w:val'] ?? '')?.[1];
          if (level) levels.set(styleId, Number(level));
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(xml.toString('utf8'));
  return levels;
}

/** Word (.docx): its paragraphs in order, those in a heading style as the heading path. */
export function docxSections(bytes: Uint8Array, limits: DocumentLimits): Section[] {
  let document: Buffer | undefined;
  let styles: Buffer | undefined;
  try {
    const zip = new ZipReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), {
      maxBytes: limits.maxInflatedBytes,
      maxRatio: limits.maxInflateRatio,
    });
    document = zip.read('word/document.xml');
    styles = zip.read('word/styles.xml');
  } catch (err) {
    if (!(err instanceof ZipError)) throw err;
    if (err.reason !== 'unreadable') throw tooLarge(err.message);
    throw unreadable(`The file is not a readable Word document (.docx): ${err.message}`);
  }
  if (!document) {
    throw unreadable('The file is not a readable Word document (.docx): it has no word/document.xml');
  }
  const headings = headingStyles(styles);
  const out = new SectionBuilder(limits);
  // Paragraphs nest (a text box's inside a paragraph): the outer one goes on after the inner one ends.
  const open: { text: string[]; level: number }[] = [];
  let depth = 0;
  let inText = false;
  const current = () => open[open.length - 1];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (++depth > limits.maxDepth) throw tooDeep(limits);
        if (name === 'w:p') open.push({ text: [], level: 0 });
        else if (name === 'w:pStyle') {
          const paragraph = current();
          if (paragraph) paragraph.level = headings.get(attribs['w:val'] ?? '') ?? 0;
        } else if (name === 'w:t') inText = true;
        else if (name === 'w:tab') current()?.text.push('\t');
        else if (name === 'w:br' || name === 'w:cr') current()?.text.push('\n');
      },
      ontext(text) {
        if (inText) current()?.text.push(text);
      },
      onclosetag(name) {
        depth -= 1;
        if (name === 'w:t') inText = false;
        else if (name === 'w:p') {
          const paragraph = open.pop();
          if (!paragraph) return;
          const text = paragraph.text.join('');
          if (paragraph.level) out.heading(paragraph.level, text);
          else out.block(text);
        }
      },
    },
    { xmlMode: true },
  );
  parser.end(document.toString('utf8'));
  return out.finish();
}

// ---------------------------------------------------------------------------------------------------
// HTML
// ---------------------------------------------------------------------------------------------------

/** Elements whose text is not the page's (code, styles, the head's title). */
const HIDDEN = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'title',
  'svg',
  'math',
  'iframe',
  'object',
]);
/** Elements that start and end a block of text; the rest (b, a, span, …) flow within one. */
const BLOCKS = new Set([
  ...['address', 'article', 'aside', 'blockquote', 'body', 'dd', 'details', 'dialog', 'div', 'dl', 'dt'],
  ...['fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hr', 'html', 'li', 'main', 'nav'],
  ...['ol', 'p', 'pre', 'section', 'summary', 'table', 'tbody', 'thead', 'tfoot', 'tr', 'ul', 'br', 'head'],
  ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'caption'],
]);
const HEADING_TAG = /^h([1-6])$/;

/** An HTML page: text without markup in blocks under its headings, and its own address when it names one. */
export function htmlSections(html: string, limits: DocumentLimits): { sections: Section[]; url?: string } {
  const out = new SectionBuilder(limits);
  let canonical: string | undefined;
  let og: string | undefined;
  let depth = 0;
  let hidden = 0;
  let pre = 0;
  let text: string[] = [];
  let heading = 0;
  /** List items open: a block inside one is a line of its list. */
  let items = 0;
  const flush = () => {
    const joined = text.join('');
    text = [];
    // Blocks without text are not paragraphs: an element opening and closing is not counted.
    if (!joined.trim()) {
      heading = 0;
      return;
    }
    const block = pre > 0 ? joined : joined.replace(/\s+/g, ' ');
    if (heading) out.heading(heading, block);
    else out.block(block, items > 0);
    heading = 0;
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (++depth > limits.maxDepth) throw tooDeep(limits);
        if (name === 'link' && /\bcanonical\b/i.test(attribs.rel ?? '') && attribs.href)
          canonical ??= attribs.href;
        if (name === 'meta' && attribs.property === 'og:url' && attribs.content) og ??= attribs.content;
        if (HIDDEN.has(name)) hidden += 1;
        if (!BLOCKS.has(name)) return;
        flush();
        if (name === 'pre') pre += 1;
        if (name === 'li') items += 1;
        const level = HEADING_TAG.exec(name)?.[1];
        if (level) heading = Number(level);
      },
      ontext(data) {
        if (hidden === 0) text.push(data);
      },
      onclosetag(name) {
        depth -= 1;
        if (HIDDEN.has(name)) hidden = Math.max(0, hidden - 1);
        if (!BLOCKS.has(name)) return;
        flush();
        if (name === 'pre') pre = Math.max(0, pre - 1);
        if (name === 'li') items = Math.max(0, items - 1);
      },
    },
    { decodeEntities: true },
  );
  parser.end(html);
  flush();
  const sections = out.finish();
  const url = canonical ?? og;
  return url && /^https?:\/\//i.test(url) ? { sections, url } : { sections };
}

// ---------------------------------------------------------------------------------------------------
// Markdown
// ---------------------------------------------------------------------------------------------------

/** A token of markdown-it's flat list (its own type is not re-exported for the ESM build). */
interface MarkdownToken {
  type: string;
  tag: string;
  nesting: number;
  level: number;
  content: string;
  children: MarkdownToken[] | null;
}

/** An inline token's text without markup (emphasis, links and inline HTML dropped, code kept). */
function inlineText(token: MarkdownToken): string {
  let text = '';
  for (const child of token.children ?? []) {
    if (child.type === 'text' || child.type === 'code_inline') text += child.content;
    else if (child.type === 'softbreak' || child.type === 'hardbreak') text += '\n';
    else if (child.type === 'image') text += child.children ? inlineText(child) : child.content;
  }
  return text;
}

/**
 * Markdown (CommonMark, by markdown-it: linear in its input, where micromark took seconds on runs of `>`,
 * `- ` and `[a](`). The top-level blocks in order: headings make the path, the rest their section's text,
 * a list's items a line each. Nesting past `maxDepth` is refused: markdown-it would drop what lies deeper.
 */
export async function markdownSections(markdown: string, limits: DocumentLimits): Promise<Section[]> {
  const { default: MarkdownIt } = await import('markdown-it');
  const parser = new MarkdownIt('commonmark');
  parser.options.maxNesting = limits.maxDepth + 1;
  const tokens = parser.parse(markdown, {}) as MarkdownToken[];
  const out = new SectionBuilder(limits);
  let depth = 0;
  let headingLevel = 0;
  let parts: string[] = [];
  let listItems: string[] | null = null;
  for (const token of tokens) {
    depth += token.nesting;
    if (depth > limits.maxDepth) throw tooDeep(limits);
    if (token.nesting === 1 && token.level === 0) {
      if (token.type === 'heading_open') headingLevel = Number(token.tag.slice(1));
      if (token.type === 'bullet_list_open' || token.type === 'ordered_list_open') listItems = [];
      parts = [];
    } else if (token.type === 'list_item_open' && token.level === 1 && listItems) {
      listItems.push(...(parts.length ? [parts.join('\n')] : []));
      parts = [];
    } else if (token.type === 'inline') parts.push(inlineText(token));
    else if (token.type === 'fence' || token.type === 'code_block') parts.push(token.content);
    if (token.level !== 0 || token.nesting === 1) continue;
    // A top-level block ends here (a closing token, or a block of one token).
    if (listItems) {
      if (parts.length) listItems.push(parts.join('\n'));
      for (const item of listItems) out.block(item, true);
      listItems = null;
    } else if (headingLevel) out.heading(headingLevel, parts.join(''));
    else out.block(parts.join('\n'));
    headingLevel = 0;
    parts = [];
  }
  return out.finish();
}
