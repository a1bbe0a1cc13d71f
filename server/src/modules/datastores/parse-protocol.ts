/** Messages between the server and the parse pool's threads (`parse-worker.ts`, ADR 0053). */
import type { ErrorBody, FileImportMode } from '@llmor/contracts';
import type { DocumentLimits } from './files';
import type { ImportedFile, ParsedDocument } from './parse';

/**
 * One file to read: an upload's bytes (`blocks` in order, transferred, joined by the thread) or the
 * import's `data` (text or parsed JSON).
 */
export interface ParseJob {
  id: number;
  mode: FileImportMode;
  blocks?: Uint8Array[];
  data?: unknown;
  file?: ImportedFile;
  limits: DocumentLimits;
}

/** What the thread found: the documents, or the refusal (an `AppError` as its name, message and extras). */
export type ParseAnswer =
  | { id: number; ok: true; documents: ParsedDocument[] }
  | { id: number; ok: false; error: ErrorBody };
