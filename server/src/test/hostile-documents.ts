/**
 * Hostile documents, made here (never committed): the shapes an outside audit uploaded to
 * `POST /v1/datastores/{id}/docs/upload` to stall or exhaust a server's document parsers (ADR 0053). Each
 * is built at `scale` (1 = the audit's full size; tests use small scales) and streamed through the
 * compressor, so making the DOCX that inflates to 1 GiB takes a few MB of memory, not a GiB. For the
 * parsers' tests and `bench/hostile-documents/`.
 */
import { Zip, ZipDeflate, Zlib } from 'fflate';

type HostileMode = 'markdown' | 'docx' | 'html' | 'pdf';

export interface HostileDocument {
  /** The file's name, as the upload's `name` parameter. */
  name: string;
  mode: HostileMode;
  /** The file at `scale` (1 = full size). */
  file(scale: number): Buffer;
  /** What it is, in a few words. */
  what: string;
}

/** `count` at `scale`, at least 1. */
const scaled = (count: number, scale: number) => Math.max(1, Math.round(count * scale));

/** Chunks of at most ~1 MiB: the same block again and again, then what is left. */
function* repeated(unit: string, count: number): Generator<Uint8Array> {
  const perBlock = Math.min(count, Math.max(1, Math.floor(2 ** 20 / unit.length)));
  const block = Buffer.from(unit.repeat(perBlock), 'latin1');
  let left = count;
  for (; left >= perBlock; left -= perBlock) yield block;
  if (left > 0) yield block.subarray(0, left * unit.length);
}

/** `>`×n: blockquotes nested n deep on one line. */
export function markdownBlockquotes(scale: number): Buffer {
  return Buffer.from(`${'>'.repeat(scaled(200_000, scale))} deep\n`);
}

/** `- `×n: list items nested n deep on one line. */
export function markdownListMarkers(scale: number): Buffer {
  return Buffer.from(`${'- '.repeat(scaled(500_000, scale))}deep\n`);
}

/** `[a](`×n: link openings never closed, each one making the parser look ahead for its end. */
export function markdownOpenLinks(scale: number): Buffer {
  return Buffer.from(`${'[a]('.repeat(scaled(50_000, scale))}\n`);
}

/** `> - `×n (20 KB at full size): blockquotes and lists nested inside each other, 10,000 containers deep. */
export function markdownNestedContainers(scale: number): Buffer {
  return Buffer.from(`${'> - '.repeat(scaled(5_000, scale))}deep\n`);
}

/** `<div>`×n, a word, `</div>`×n: an element tree n deep (5.5 MB). */
export function htmlNestedDivs(scale: number): Buffer {
  const n = scaled(500_000, scale);
  return Buffer.from(
    `<!doctype html><html><body>${'<div>'.repeat(n)}deep${'</div>'.repeat(n)}</body></html>`,
  );
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const CONTENT_TYPES = `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`;
const PACKAGE_RELS = `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`;
const DOCUMENT_HEAD = `${XML_HEAD}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`;
const DOCUMENT_TAIL = '</w:body></w:document>';

/** A zip of `entries`, each deflated as its chunks come (only the compressed bytes are held). */
function zipOf(entries: [name: string, chunks: Iterable<Uint8Array>][]): Buffer {
  const out: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((err, data) => {
    if (err) failure = err;
    else out.push(data);
  });
  for (const [name, chunks] of entries) {
    const entry = new ZipDeflate(name, { level: 6 });
    zip.add(entry);
    for (const chunk of chunks) entry.push(chunk);
    entry.push(new Uint8Array(0), true);
  }
  zip.end();
  if (failure) throw failure;
  return Buffer.concat(out);
}

/** A Word file whose body is `body`'s chunks (WordprocessingML between `<w:body>` and `</w:body>`). */
function docxOf(body: Iterable<Uint8Array>): Buffer {
  return zipOf([
    ['[Content_Types].xml', [Buffer.from(CONTENT_TYPES)]],
    ['_rels/.rels', [Buffer.from(PACKAGE_RELS)]],
    [
      'word/document.xml',
      (function* () {
        yield Buffer.from(DOCUMENT_HEAD);
        yield* body;
        yield Buffer.from(DOCUMENT_TAIL);
      })(),
    ],
  ]);
}

const TINY_PARAGRAPH = '<w:p><w:r><w:t>a</w:t></w:r></w:p>';

/** `paragraphs` paragraphs of one letter each. */
function docxTinyParagraphs(paragraphs: number): Buffer {
  return docxOf(repeated(TINY_PARAGRAPH, paragraphs));
}

/** 5,000,000 one-letter paragraphs: 0.5 MB zipped, 175 MB of XML inflated. */
export function docxManyParagraphs(scale: number): Buffer {
  return docxTinyParagraphs(scaled(5_000_000, scale));
}

/** 200,000 one-letter paragraphs: 21 KB zipped. */
export function docxParagraphs(scale: number): Buffer {
  return docxTinyParagraphs(scaled(200_000, scale));
}

const WORD = 'word ';

/** One paragraph, one run, 1 GiB of text (words): 1.6 MB zipped (≈11 s to make). */
export function docxGiantRun(scale: number): Buffer {
  return docxOf(
    (function* () {
      yield Buffer.from('<w:p><w:r><w:t>');
      yield* repeated(WORD, scaled(2 ** 30 / WORD.length, scale));
      yield Buffer.from('</w:t></w:r></w:p>');
    })(),
  );
}

/** A PDF object's body: a dictionary, or a stream with its dictionary (without `/Length`, added here). */
type PdfObject = string | { dict: string; data: Uint8Array };

/**
 * A PDF 1.7 file of `objects` (numbered from 1; the first is the catalog) with its cross-reference table,
 * written by hand as `large-pdf.ts`'s library would need every page in memory.
 */
function pdfOf(objects: PdfObject[]): Buffer {
  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  let at = parts[0]!.length;
  const push = (part: Buffer) => {
    parts.push(part);
    at += part.length;
  };
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(at);
    if (typeof object === 'string') {
      push(Buffer.from(`${i + 1} 0 obj\n${object}\nendobj\n`, 'latin1'));
      return;
    }
    const dict = object.dict.replace(/>>$/, ` /Length ${object.data.length} >>`);
    push(Buffer.from(`${i + 1} 0 obj\n${dict}\nstream\n`, 'latin1'));
    push(Buffer.from(object.data));
    push(Buffer.from('\nendstream\nendobj\n', 'latin1'));
  });
  const xrefAt = at;
  const xref = offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`,
      'latin1',
    ),
  );
  return Buffer.concat(parts);
}

/** Chunks through zlib (PDF's FlateDecode), streamed. */
function flate(chunks: Iterable<Uint8Array>): Uint8Array {
  const out: Uint8Array[] = [];
  const zlib = new Zlib({ level: 6 }, (data) => out.push(data));
  for (const chunk of chunks) zlib.push(chunk);
  zlib.push(new Uint8Array(0), true);
  return Buffer.concat(out);
}

const CATALOG = '<< /Type /Catalog /Pages 2 0 R >>';
const FONT = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
/** The page tree's root: `kids`, and what every page inherits (its size, the font as /F1 = object 3). */
const pageTree = (kids: string, count: number) =>
  `<< /Type /Pages /Kids [${kids}] /Count ${count} /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> >>`;

/** One page whose one compressed content stream shows a letter 10,000,000 times (`Tj`): 104 KB. */
export function pdfManyShowTexts(scale: number): Buffer {
  const content = flate(
    (function* () {
      yield Buffer.from('BT /F1 12 Tf 72 720 Td\n');
      yield* repeated('(a) Tj\n', scaled(10_000_000, scale));
      yield Buffer.from('ET\n');
    })(),
  );
  return pdfOf([
    CATALOG,
    pageTree('4 0 R', 1),
    FONT,
    '<< /Type /Page /Parent 2 0 R /Contents 5 0 R >>',
    { dict: '<< /Filter /FlateDecode >>', data: content },
  ]);
}

/** 200,000 pages of one line each, in one flat page tree: 44 MB (≈0.4 GB of memory to make). */
export function pdfManyPages(scale: number): Buffer {
  const pages = scaled(200_000, scale);
  // Page i (from 0) is object 4 + 2i, its content 5 + 2i.
  const objects: PdfObject[] = [CATALOG, '', FONT];
  const kids: string[] = [];
  for (let i = 0; i < pages; i++) {
    kids.push(`${4 + 2 * i} 0 R`);
    objects.push(`<< /Type /Page /Parent 2 0 R /Contents ${5 + 2 * i} 0 R >>`);
    objects.push({ dict: '<< >>', data: Buffer.from(`BT /F1 12 Tf 72 720 Td (Page ${i + 1}) Tj ET`) });
  }
  objects[1] = pageTree(kids.join(' '), pages);
  return pdfOf(objects);
}

export const HOSTILE_DOCUMENTS: HostileDocument[] = [
  {
    name: 'blockquotes.md',
    mode: 'markdown',
    file: markdownBlockquotes,
    what: '`>`×200,000: blockquotes 200,000 deep',
  },
  {
    name: 'list-markers.md',
    mode: 'markdown',
    file: markdownListMarkers,
    what: '`- `×500,000: list items 500,000 deep',
  },
  { name: 'open-links.md', mode: 'markdown', file: markdownOpenLinks, what: '`[a](`×50,000, never closed' },
  {
    name: 'nested-containers.md',
    mode: 'markdown',
    file: markdownNestedContainers,
    what: '`> - `×5,000 (20 KB): containers 10,000 deep',
  },
  {
    name: 'many-paragraphs.docx',
    mode: 'docx',
    file: docxManyParagraphs,
    what: '5,000,000 one-letter paragraphs (≈175 MB inflated)',
  },
  { name: 'paragraphs.docx', mode: 'docx', file: docxParagraphs, what: '200,000 one-letter paragraphs' },
  { name: 'giant-run.docx', mode: 'docx', file: docxGiantRun, what: 'one run of 1 GiB of text' },
  { name: 'nested-divs.html', mode: 'html', file: htmlNestedDivs, what: '`<div>`×500,000 nested' },
  {
    name: 'show-texts.pdf',
    mode: 'pdf',
    file: pdfManyShowTexts,
    what: 'one compressed content stream of 10,000,000 `Tj`',
  },
  { name: 'many-pages.pdf', mode: 'pdf', file: pdfManyPages, what: '200,000 pages in one flat page tree' },
];
