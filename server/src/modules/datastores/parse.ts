/**
 * Import input → documents (docs/reference/api.md "Datastores"): one mode per file type, each refusing malformed
 * input with a message that names the row or position, so nothing of a bad file is stored.
 */
import { createHash } from 'node:crypto';
import { DOCUMENT_MAX_BYTES, IMPORT_MAX_DOCUMENTS, type ImportMode, isPlainObject } from '@llmor/contracts';
import canonicalize from 'canonicalize';
import { CsvError, parse as parseCsv } from 'csv-parse/sync';
import { badRequest, validationError } from '../../platform/errors';

export interface ParsedDocument {
  document: unknown;
  hash: string;
}

/** Passages of a text blob: about this many characters, overlapping a little, split at paragraphs first. */
export const PASSAGE_SIZE = 1000;
export const PASSAGE_OVERLAP = 100;

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
      throw refuse(`${line ? `Row ${line}: ` : ''}${err.message.replace(/^Invalid Record Length: /, '')}`);
    }
    throw err;
  }
  if (rows.length === 0) throw refuse('The CSV file has a header row but no data rows.');
  return rows;
}

async function textDocuments(data: unknown): Promise<unknown[]> {
  if (typeof data !== 'string') throw refuse('A text import is the text of the file.');
  if (!data.trim()) throw refuse('The text is empty.');
  // Loaded on first use: the splitter is only needed by text imports.
  const { RecursiveCharacterTextSplitter } = await import('@langchain/textsplitters');
  const splitter = new RecursiveCharacterTextSplitter({
    chunkSize: PASSAGE_SIZE,
    chunkOverlap: PASSAGE_OVERLAP,
  });
  const passages = await splitter.splitText(data.replace(/\r\n?/g, '\n'));
  return passages.map((text) => ({ text }));
}

/**
 * Parses an import into documents with their hashes, in input order, without duplicates inside the
 * input (the first occurrence wins). Throws 400 (validation) naming the item or row of the first problem.
 */
export async function parseImport(mode: ImportMode, data: unknown): Promise<ParsedDocument[]> {
  const documents =
    mode === 'qa'
      ? qaDocuments(data)
      : mode === 'json'
        ? jsonDocuments(data)
        : mode === 'csv'
          ? csvDocuments(data)
          : await textDocuments(data);
  if (documents.length > IMPORT_MAX_DOCUMENTS) {
    throw badRequest(`An import may add at most ${IMPORT_MAX_DOCUMENTS} documents; split the file.`);
  }
  const seen = new Set<string>();
  const out: ParsedDocument[] = [];
  documents.forEach((document, i) => {
    checkDocumentSize(document, `Item ${i + 1}`);
    const hash = documentHash(document);
    if (seen.has(hash)) return;
    seen.add(hash);
    out.push({ document, hash });
  });
  return out;
}

export function checkDocumentSize(document: unknown, label = 'The document'): void {
  const bytes = Buffer.byteLength(JSON.stringify(document) ?? '', 'utf8');
  if (bytes > DOCUMENT_MAX_BYTES) {
    throw refuse(`${label} is ${bytes} bytes; a document may have at most ${DOCUMENT_MAX_BYTES} bytes.`);
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
