/**
 * Import input → documents (docs/reference/api.md "Datastores"): one mode per file type, each refusing malformed
 * input with a message that names the row or position, so nothing of a bad file is stored. Documents
 * keep the key order of their file; passages of PDF, Word, HTML and Markdown files carry their source
 * (docs/adr/0032-document-import-and-sources.md).
 */
import { createHash } from 'node:crypto';
import {
  DOCUMENT_MAX_BYTES,
  type DocumentSource,
  type FileImportMode,
  IMPORT_MAX_DOCUMENTS,
  isPlainObject,
  message,
} from '@llmor/contracts';
import canonicalize from 'canonicalize';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { badRequest, validationError } from '../../platform/errors';
import {
  checkTextLength,
  type DocumentLimits,
  docxSections,
  htmlSections,
  markdownSections,
  pdfSections,
  type Section,
  unreadable,
} from './files';

export interface ParsedDocument {
  document: unknown;
  hash: string;
  source: DocumentSource | null;
}

/** The file an import came from, when it came as one: its name and, optionally, its address. */
export interface ImportedFile {
  name: string;
  url?: string;
}

/** Passages of a text blob: about this many characters, overlapping a little, split at paragraphs first. */
const PASSAGE_SIZE = 1000;
const PASSAGE_OVERLAP = 100;

const refuse = (message: string) => validationError({ data: message }, message);

/** SHA-256 (hex) of the canonical JSON (RFC 8785: sorted keys, no whitespace). */
export function documentHash(document: unknown): string {
  return createHash('sha256')
    .update(canonicalize(document) ?? 'null')
    .digest('hex');
}

function jsonValue(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch (err) {
    throw refuse(`The file is not valid JSON: ${(err as Error).message}`);
  }
}

function qaDocuments(data: unknown): unknown[] {
  const value = jsonValue(data);
  if (!Array.isArray(value)) throw refuse('A QA import is a JSON array of {"Q": …, "A": …} objects.');
  return value.map((item, i) => {
    if (!isPlainObject(item) || typeof item.Q !== 'string' || typeof item.A !== 'string') {
      throw refuse(`Item ${i + 1}: expected an object with the text fields "Q" and "A".`);
    }
    if (!item.Q.trim() || !item.A.trim()) throw refuse(`Item ${i + 1}: "Q" and "A" must not be empty.`);
    return { Q: item.Q, A: item.A };
  });
}

function jsonDocuments(data: unknown): unknown[] {
  const value = jsonValue(data);
  const items = Array.isArray(value) ? value : [value];
  items.forEach((item, i) => {
    if (!isPlainObject(item)) throw refuse(`Item ${i + 1}: expected a JSON object.`);
  });
  return items;
}

function csvDocuments(data: unknown): unknown[] {
  if (typeof data !== 'string') throw refuse('A CSV import is the text of the file.');
  let rows: Record<string, string>[];
  try {
    rows = parseCsv(data, { columns: true, skip_empty_lines: true, bom: true, trim: true });
  } catch (err) {
    if (err instanceof CsvError) {
      const line = (err as CsvError & { lines?: number }).lines;
      // The parser's own words, after the row they are about.
      const reason = err.message.replace(/^Invalid Record Length: /, '');
      throw refuse(line ? message('csvRow', { row: line, reason }) : reason);
    }
    throw err;
  }
  if (rows.length === 0) throw refuse('The CSV file has a header row but no data rows.');
  return rows;
}

/** A document and where in its file it sits (null: nowhere more precise than the file). */
interface Located {
  document: unknown;
  at: Section['source'] | null;
}

const unlocated = (documents: unknown[]): Located[] => documents.map((document) => ({ document, at: null }));

/** Sections → passages of about `PASSAGE_SIZE` characters, each `{text}` with its section's place. */
async function passages(sections: Section[]): Promise<Located[]> {
  // Loaded on first use: the splitter is only needed by text and document imports.
  const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
  const splitter = new RecursiveCharacterTextSplitter({
    chunkSize: PASSAGE_SIZE,
    chunkOverlap: PASSAGE_OVERLAP,
  });
  const out: Located[] = [];
  for (const section of sections) {
    for (const text of await splitter.splitText(section.text.replace(/\r\n?/g, '\n'))) {
      out.push({ document: { text }, at: section.source });
    }
  }
  return out;
}

function text(data: unknown, what: string): string {
  if (typeof data !== 'string') throw refuse(`${what} is the text of the file.`);
  if (!data.trim()) throw refuse('The text is empty.');
  return data;
}

/** The sections of a file read as `mode`, for the modes that read documents rather than records. */
async function sectionsOf(
  mode: 'text_blob' | 'pdf' | 'docx' | 'html' | 'markdown',
  data: unknown,
  limits: DocumentLimits,
): Promise<{ sections: Section[]; url?: string }> {
  const textOf = (what: string) => {
    const read = text(data, what);
    checkTextLength(read, limits);
    return read;
  };
  switch (mode) {
    case 'pdf':
      return { sections: await pdfSections(bytesOf(data), limits) };
    case 'docx':
      return { sections: docxSections(bytesOf(data), limits) };
    case 'html':
      return htmlSections(textOf('An HTML import'), limits);
    case 'markdown':
      return { sections: await markdownSections(textOf('A Markdown import'), limits) };
    case 'text_blob':
      return { sections: [{ text: textOf('A text import'), source: {} }] };
  }
}

function bytesOf(data: unknown): Uint8Array {
  if (data instanceof Uint8Array) return data;
  throw refuse('PDF and Word files are uploaded as they are (POST …/docs/upload), not as text.');
}

/**
 * Parses an import into documents with their hashes and sources, in input order, without duplicates
 * inside the input (the first occurrence wins). `data` is the file's text, the parsed JSON (qa, json) or
 * an uploaded file's bytes (read as text for the text modes). Throws 400 (validation) naming the item, row
 * or what is wrong with the file, 413 naming the bound of `limits` a file passes. It runs in the parse
 * pool's threads (`parse-pool.ts`, ADR 0053), never on the thread that serves HTTP.
 */
export async function parseImport(
  mode: FileImportMode,
  input: unknown,
  file: ImportedFile | undefined,
  limits: DocumentLimits,
): Promise<ParsedDocument[]> {
  const data = input instanceof Uint8Array ? uploadData(mode, input) : input;
  let url = file?.url;
  let documents: Located[];
  if (mode === 'qa') documents = unlocated(qaDocuments(data));
  else if (mode === 'json') documents = unlocated(jsonDocuments(data));
  else if (mode === 'csv') documents = unlocated(csvDocuments(data));
  else {
    const read = await sectionsOf(mode, data, limits);
    url ??= read.url;
    documents = await passages(read.sections);
    if (documents.length === 0) throw unreadable('The file has no text to import.');
  }
  if (documents.length > IMPORT_MAX_DOCUMENTS) {
    throw badRequest(`An import may add at most ${IMPORT_MAX_DOCUMENTS} documents; split the file.`);
  }
  const seen = new Set<string>();
  const out: ParsedDocument[] = [];
  for (let i = 0; i < documents.length; i++) {
    const { document, at } = documents[i]!;
    checkDocumentSize(document, i + 1);
    const hash = documentHash(document);
    if (seen.has(hash)) continue;
    seen.add(hash);
    const source: DocumentSource | null =
      file || url || at ? { ...(file && { file: file.name }), ...at, ...(url && { url }) } : null;
    out.push({ document, hash, source: source && Object.keys(source).length ? source : null });
  }
  return out;
}

/** An uploaded file's bytes as what its mode reads: text for the text modes, the bytes otherwise. */
function uploadData(mode: FileImportMode, bytes: Uint8Array): unknown {
  if (mode === 'pdf' || mode === 'docx') return bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw unreadable('The file is not UTF-8 text; save it as UTF-8 and import it again.');
  }
}

/** Refuses a document past the size limit; `item`: its place in an import (1-based). */
export function checkDocumentSize(document: unknown, item?: number): void {
  const bytes = Buffer.byteLength(JSON.stringify(document) ?? '', 'utf8');
  if (bytes > DOCUMENT_MAX_BYTES) {
    const sizes = { bytes, max: DOCUMENT_MAX_BYTES };
    throw refuse(
      item === undefined ? message('documentTooLarge', sizes) : message('itemTooLarge', { ...sizes, item }),
    );
  }
}

/** The text a document is embedded and searched by: its string and number values, keys as labels. */
export function documentText(document: unknown): string {
  if (typeof document === 'string') return document;
  if (typeof document === 'number' || typeof document === 'boolean') return String(document);
  if (Array.isArray(document)) return document.map(documentText).filter(Boolean).join('\n');
  if (isPlainObject(document)) {
    return Object.entries(document)
      .map(([key, value]) => {
        const text = documentText(value);
        return text ? `${key}: ${text}` : '';
      })
      .filter(Boolean)
      .join('\n');
  }
  return '';
}
