/**
 * The hostile documents are what they claim at a small scale: each parses (with the library the server
 * reads its kind with, or by its structure) into the shape that is hostile at full size.
 */
import { unzipSync } from 'fflate';
import type { Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import mammoth from 'mammoth';
import type { Root as MdastRoot } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { describe, expect, it } from 'vitest';
import {
  docxGiantRun,
  docxManyParagraphs,
  docxParagraphs,
  HOSTILE_DOCUMENTS,
  htmlNestedDivs,
  markdownBlockquotes,
  markdownListMarkers,
  markdownNestedContainers,
  markdownOpenLinks,
  pdfManyPages,
  pdfManyShowTexts,
} from './hostile-documents';

const SCALE = 0.001;

type Node = { type: string; tagName?: string; children?: Node[] };

/** The most nodes matching `is` on one path from `node` down. */
function depth(node: Node, is: (node: Node) => boolean): number {
  const below = Math.max(0, ...(node.children ?? []).map((child) => depth(child, is)));
  return below + (is(node) ? 1 : 0);
}

const markdown = (bytes: Buffer) => fromMarkdown(bytes.toString()) as MdastRoot as Node;

describe('hostile markdown and HTML', () => {
  it('nests blockquotes, list items and both, as many as the scale says', () => {
    expect(depth(markdown(markdownBlockquotes(SCALE)), (n) => n.type === 'blockquote')).toBe(200);
    expect(depth(markdown(markdownListMarkers(SCALE)), (n) => n.type === 'list')).toBe(500);
    const containers = markdown(markdownNestedContainers(SCALE));
    expect(depth(containers, (n) => n.type === 'blockquote')).toBe(5);
    expect(depth(containers, (n) => n.type === 'list')).toBe(5);
  });

  it('leaves every link opening unclosed (plain text, no link)', () => {
    const root = markdown(markdownOpenLinks(SCALE));
    expect(JSON.stringify(root)).not.toContain('"link"');
    expect(root.children).toHaveLength(1);
  });

  it('nests the divs as deep as the scale says', () => {
    const root = fromHtml(htmlNestedDivs(SCALE).toString()) as HastRoot as Node;
    expect(depth(root, (n) => n.tagName === 'div')).toBe(500);
  });
});

describe('hostile Word files', () => {
  it('are zips a Word reader opens, with as many paragraphs as the scale says', async () => {
    for (const [file, paragraphs] of [
      [docxManyParagraphs(SCALE), 5_000],
      [docxParagraphs(SCALE), 200],
    ] as const) {
      expect(Object.keys(unzipSync(file)).sort()).toEqual([
        '[Content_Types].xml',
        '_rels/.rels',
        'word/document.xml',
      ]);
      const { value } = await mammoth.extractRawText({ buffer: file });
      expect(value.split('\n').filter((line) => line === 'a')).toHaveLength(paragraphs);
    }
  });

  it('holds the giant run as one paragraph of the scaled GiB of text, compressed', async () => {
    const file = docxGiantRun(SCALE);
    const inflated = unzipSync(file)['word/document.xml']!;
    expect(inflated.length).toBeGreaterThan(2 ** 30 * SCALE);
    expect(file.length).toBeLessThan(inflated.length / 100);
    const { value } = await mammoth.extractRawText({ buffer: file });
    expect(value.trim().split('\n')).toHaveLength(1);
    expect(value.trim().length).toBeGreaterThan(2 ** 30 * SCALE - 10);
  });
});

/** Every object the cross-reference table points at starts there, and `startxref` points at the table. */
function expectSoundXref(pdf: Buffer) {
  const text = pdf.toString('latin1');
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)?.[1]);
  expect(text.startsWith('xref\n', startxref)).toBe(true);
  const [, count] = /^xref\n0 (\d+)\n/.exec(text.slice(startxref)) ?? [];
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(3, 2 + Number(count));
  expect(entries).toHaveLength(Number(count) - 1);
  entries.forEach((entry, i) => {
    expect(text.startsWith(`${i + 1} 0 obj\n`, Number(entry.slice(0, 10)))).toBe(true);
  });
}

/** Per page: its text, and how many text-showing operators its content runs. */
async function pdfPages(pdf: Buffer) {
  const doc = await getDocument({ data: new Uint8Array(pdf), isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const pages: { text: string; showTexts: number }[] = [];
    for (let number = 1; number <= doc.numPages; number++) {
      const page = await doc.getPage(number);
      const content = await page.getTextContent();
      const { fnArray } = await page.getOperatorList();
      pages.push({
        text: content.items.map((item) => ('str' in item ? item.str : '')).join(''),
        showTexts: fnArray.filter((fn) => fn === OPS.showText).length,
      });
    }
    return pages;
  } finally {
    await doc.loadingTask.destroy();
  }
}

describe('hostile PDFs', () => {
  it('shows the letter as many times as the scale says, from one compressed stream', async () => {
    const pdf = pdfManyShowTexts(SCALE);
    expectSoundXref(pdf);
    expect(pdf.toString('latin1')).toContain('/Filter /FlateDecode');
    const pages = await pdfPages(pdf);
    expect(pages.map((page) => page.showTexts)).toEqual([10_000]);
  });

  it('has as many pages as the scale says, each with its line', async () => {
    const pdf = pdfManyPages(SCALE);
    expectSoundXref(pdf);
    const pages = await pdfPages(pdf);
    expect(pages).toHaveLength(200);
    expect(pages[199]).toEqual({ text: 'Page 200', showTexts: 1 });
  });
});

it('lists every hostile document once, by its file name', () => {
  const names = HOSTILE_DOCUMENTS.map((d) => d.name);
  expect(new Set(names).size).toBe(names.length);
  for (const d of HOSTILE_DOCUMENTS)
    expect(d.name.endsWith({ markdown: '.md', docx: '.docx', html: '.html', pdf: '.pdf' }[d.mode])).toBe(
      true,
    );
});
