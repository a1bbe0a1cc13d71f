/**
 * Text out of documents (docs/adr/0032-document-import-and-sources.md): a PDF page by page, a Word file,
 * an HTML page or Markdown as sections under their heading path. Word and HTML become Markdown's syntax
 * tree first, so one walk finds the headings of all three.
 */

import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { DocumentSource } from '@llmor/contracts';
import type { Root as HastRoot } from 'hast';
import type { Root as MdastRoot, RootContent } from 'mdast';
import { validationError } from '../../platform/errors';
import { SERVER_ROOT } from '../../platform/paths';
import { copyInSlices } from './turns';

/** A run of text with where it sits in its file. */
export interface Section {
  text: string;
  source: Omit<DocumentSource, 'file' | 'url'>;
}

/** A file that cannot be read: 400 with a message naming what is wrong with it. */
export const unreadable = (message: string) => validationError({ data: message }, message);

/** pdf.js names its failures by class: a password, a damaged or a non-PDF file. */
function pdfFailure(err: { name?: string; message: string }): Error {
  const name = err.name;
  if (name === 'PasswordException') {
    return unreadable(
      'The PDF is encrypted (password-protected); save it without a password and import it again.',
    );
  }
  return unreadable(`The file is not a readable PDF: ${err.message}`);
}

/** The PDF reader's thread (plain JavaScript beside this file, also where the server runs built). */
const PDF_WORKER = pathToFileURL(join(SERVER_ROOT, 'src/modules/datastores/pdf-worker.mjs'));

/** The pages with text of a PDF, read by pdf.js in a thread of its own (one per file). */
async function readPdf(bytes: Uint8Array): Promise<{ page: number; text: string }[]> {
  // A copy: its buffer moves to the thread.
  const data = await copyInSlices(bytes);
  return new Promise((resolve, reject) => {
    const worker = new Worker(PDF_WORKER, {
      workerData: { data },
      transferList: [data.buffer],
      execArgv: [],
    });
    let settled = false;
    worker.once('message', (answer: PdfAnswer) => {
      settled = true;
      if (answer.ok) resolve(answer.pages);
      else reject(pdfFailure(answer.error));
      void worker.terminate();
    });
    worker.once('error', (err) => {
      settled = true;
      reject(pdfFailure(err));
    });
    worker.once('exit', (code) => {
      if (!settled) reject(pdfFailure(new Error(`the PDF reader stopped (exit ${code})`)));
    });
  });
}

type PdfAnswer =
  | { ok: true; pages: { page: number; text: string }[] }
  | { ok: false; error: { name?: string; message: string } };

/** One section per page with text; refuses a PDF without any text layer (a scan) as unreadable. */
export async function pdfSections(bytes: Uint8Array): Promise<Section[]> {
  const pages = await readPdf(bytes);
  if (pages.length === 0) {
    throw unreadable(
      'The PDF has no text layer (a scanned document?); run it through text recognition (OCR) first.',
    );
  }
  return pages.map(({ page, text }) => ({ text, source: { page } }));
}

/** Word (.docx) → HTML (mammoth keeps headings as h1–h6) → sections. */
export async function docxSections(bytes: Uint8Array): Promise<Section[]> {
  const { default: mammoth } = await import('mammoth');
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) }));
  } catch (err) {
    throw unreadable(`The file is not a readable Word document (.docx): ${(err as Error).message}`);
  }
  return (await htmlSections(html)).sections;
}

/** The page's own address, when it names one (`<link rel="canonical">`, else `og:url`). */
async function canonicalUrl(tree: HastRoot): Promise<string | undefined> {
  const { visit } = await import('unist-util-visit');
  let canonical: string | undefined;
  let og: string | undefined;
  visit(tree, 'element', (node) => {
    const p = node.properties;
    if (node.tagName === 'link' && String(p.rel ?? '').includes('canonical') && typeof p.href === 'string')
      canonical ??= p.href;
    if (node.tagName === 'meta' && p.property === 'og:url' && typeof p.content === 'string') og ??= p.content;
  });
  const url = canonical ?? og;
  return url && /^https?:\/\//i.test(url) ? url : undefined;
}

export async function htmlSections(html: string): Promise<{ sections: Section[]; url?: string }> {
  const [{ fromHtml }, { toMdast }] = await Promise.all([
    import('hast-util-from-html'),
    import('hast-util-to-mdast'),
  ]);
  const tree = fromHtml(html);
  const url = await canonicalUrl(tree);
  const sections = await mdastSections(toMdast(tree) as MdastRoot);
  return url ? { sections, url } : { sections };
}

export async function markdownSections(markdown: string): Promise<Section[]> {
  const { fromMarkdown } = await import('mdast-util-from-markdown');
  return mdastSections(fromMarkdown(markdown));
}

/**
 * Walks the top-level blocks in order: a heading of depth d replaces the path from level d on; the
 * blocks under it form its section's text.
 */
async function mdastSections(tree: MdastRoot): Promise<Section[]> {
  const { toString: textOf } = await import('mdast-util-to-string');
  const sections: Section[] = [];
  let path: { depth: number; title: string }[] = [];
  let blocks: string[] = [];
  const flush = () => {
    const text = blocks.join('\n\n').trim();
    if (text) sections.push({ text, source: path.length ? { heading: path.map((h) => h.title) } : {} });
    blocks = [];
  };
  const blockText = (node: RootContent): string =>
    node.type === 'list'
      ? node.children.map((item) => `- ${textOf(item, { includeHtml: false })}`).join('\n')
      : textOf(node, { includeHtml: false });
  for (const node of tree.children) {
    if (node.type === 'heading') {
      flush();
      const title = textOf(node).trim();
      path = path.filter((h) => h.depth < node.depth);
      if (title) path.push({ depth: node.depth, title });
      continue;
    }
    const text = blockText(node).trim();
    if (text) blocks.push(text);
  }
  flush();
  return sections;
}
