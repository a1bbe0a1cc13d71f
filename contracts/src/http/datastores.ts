/**
 * Datastores (docs/reference/api.md "Datastores"): an app's document stores, imported from files, embedded in the
 * background by the worker and searched by vector similarity fused with full-text rank.
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | GET /v1/vendors/{vendorId}/apps/{appId}/datastores | – | list of `Datastore` |
 * | POST /v1/vendors/{vendorId}/apps/{appId}/datastores | `datastoreCreateBody` | 201 `{data: Datastore}` |
 * | PUT/DELETE /v1/vendors/{vendorId}/apps/{appId}/datastores/{datastoreId} | `datastoreUpdateBody` / – | `{data: Datastore}` / 204 |
 * | GET /v1/datastores/{datastoreId}/docs | `documentsQuery` | list of `DatastoreDocument` |
 * | POST /v1/datastores/{datastoreId}/docs/import | `importBody` | `{data: DatastoreDocument[]}` (the new ones) |
 * | POST /v1/datastores/{datastoreId}/docs/upload | `fileImportQuery`, the file's bytes | `{data: DatastoreDocument[]}` (the new ones) |
 * | PUT/DELETE /v1/datastores/{datastoreId}/docs/{docId} | `documentUpdateBody` / – | `{data: DatastoreDocument}` / 204 |
 * | POST /v1/datastores/{datastoreId}/truncate | – | `{message}` |
 * | GET /v1/datastores/{datastoreId}/status | – | `{data: DatastoreStatus}` |
 * | POST /v1/datastores/{datastoreId}/search | `searchBody` | `{data: SearchHit[]}` |
 *
 * `/v1/datastores/…` take the vendor from `X-Vendor`; another vendor's datastore answers 404.
 */
import { z } from 'zod';
import { idField, idParam, pagingQuery, queryBoolean } from './common';

const DATASTORE_NAME_PATTERN = /^[a-z0-9_]+$/;
export const DATASTORE_NAME_MAX_LENGTH = 64;
const DATASTORE_NAME_FORMAT = 'Use lower-case letters, digits and underscores only.';
export const DATASTORE_NAME_EXISTS = 'This app already has a datastore with this name.';
/** Modes of the JSON import (the file's text in the body). */
const IMPORT_MODES = ['qa', 'text_blob', 'json', 'csv', 'html', 'markdown'] as const;
/** Modes of a file upload: every text mode, and the binary documents (PDF, Word). */
export const FILE_IMPORT_MODES = [
  'qa',
  'text_blob',
  'json',
  'csv',
  'pdf',
  'docx',
  'html',
  'markdown',
] as const;
export type FileImportMode = (typeof FILE_IMPORT_MODES)[number];
/** One import request carries at most this many bytes (the console sends one file per request). */
export const IMPORT_MAX_BYTES = 32 * 1024 * 1024;
/** One uploaded file at most (`docs/upload`: the raw bytes, so a 50 MB PDF fits). */
export const FILE_IMPORT_MAX_BYTES = 64 * 1024 * 1024;

/** The mode a file's name implies; null when its extension does not decide (`.json` is QA or JSON). */
export function importModeOfFile(name: string): FileImportMode | null {
  const extension = /\.([a-z0-9]+)$/i.exec(name)?.[1]?.toLowerCase();
  switch (extension) {
    case 'pdf':
      return 'pdf';
    case 'docx':
      return 'docx';
    case 'html':
    case 'htm':
      return 'html';
    case 'md':
    case 'markdown':
      return 'markdown';
    case 'csv':
      return 'csv';
    case 'txt':
      return 'text_blob';
    default:
      return null;
  }
}
/** Documents one import may add. */
export const IMPORT_MAX_DOCUMENTS = 200_000;
/** One document's canonical JSON at most. */
export const DOCUMENT_MAX_BYTES = 64 * 1024;
export const SEARCH_K_MAX = 50;
export const DOCUMENT_PREVIEW_LENGTH = 70;
export const HASH_PREVIEW_LENGTH = 7;
export const EMBEDDING_MODEL_REQUIRED =
  'Install an embedding model first (Models → Install, e.g. "Lexical embeddings (offline)").';

const name = z
  .string({ error: 'Required' })
  .trim()
  .min(1, 'Required')
  .max(DATASTORE_NAME_MAX_LENGTH, `At most ${DATASTORE_NAME_MAX_LENGTH} characters`)
  .regex(DATASTORE_NAME_PATTERN, DATASTORE_NAME_FORMAT);

export const datastoreCreateBody = z.object(
  {
    name,
    /** Default: the vendor's first installed embedding model. */
    embedding_vendor_model_id: idField.nullish(),
  },
  { error: 'Must be an object' },
);
export type DatastoreCreateBody = z.infer<typeof datastoreCreateBody>;

export const datastoreUpdateBody = z.object(
  { name: name.optional(), embedding_vendor_model_id: idField.optional() },
  { error: 'Must be an object' },
);
export type DatastoreUpdateBody = z.infer<typeof datastoreUpdateBody>;

export const datastoreAppPath = z.object({ vendorId: idParam, appId: idParam });
export const datastoreAppItemPath = datastoreAppPath.extend({ datastoreId: idParam });
export const datastorePath = z.object({ datastoreId: idParam });
export const documentPath = datastorePath.extend({ docId: idParam });

export const datastoreSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  app_id: z.number().int(),
  embedding_vendor_model_id: z.number().int().nullable(),
  created_at: z.string(),
  modified_at: z.string().nullable(),
});
export type Datastore = z.infer<typeof datastoreSchema>;

/** `v` is the console's refresh version (ignored; it makes a reload a new URL). */
export const documentsQuery = pagingQuery.extend({
  search: z.string().max(200).optional(),
  v: z.string().max(40).optional(),
});
export type DocumentsQuery = z.infer<typeof documentsQuery>;

/**
 * Where a document came from: the imported file's name, the PDF page (from 1), the headings above the
 * passage (outermost first; Markdown, HTML, Word) and the page's address when known (an HTML page's
 * canonical link, or the `url` given with the upload). Every field is optional.
 */
export const documentSourceSchema = z.object({
  file: z.string().optional(),
  page: z.number().int().min(1).optional(),
  heading: z.array(z.string()).optional(),
  url: z.string().optional(),
});
export type DocumentSource = z.infer<typeof documentSourceSchema>;

export const datastoreDocumentSchema = z.object({
  id: z.number().int(),
  hash: z.string(),
  document: z.unknown(),
  /** Where it was imported from; null for documents not imported from a file. */
  source: documentSourceSchema.nullable(),
  modified_at: z.string(),
  requires_sync: z.boolean(),
  /** Why embedding failed (it is retried); absent when it did not. */
  sync_error: z.string().nullable(),
});
export type DatastoreDocument = z.infer<typeof datastoreDocumentSchema>;

/**
 * `data` is the file's text for every mode; `qa` and `json` also take the parsed JSON value.
 * qa: `[{"Q", "A"}]`; json: an array of objects or one object; csv: header row then one row per
 * document; text_blob: plain text split into passages.
 */
export const importBody = z.object(
  {
    mode: z.enum(IMPORT_MODES, { error: `Must be one of: ${IMPORT_MODES.join(', ')}` }).default('qa'),
    data: z.unknown().refine((v) => v !== undefined && v !== null, 'Required'),
  },
  { error: 'Must be an object' },
);

/**
 * The query of `POST /v1/datastores/{id}/docs/upload`, whose body is the file itself
 * (`Content-Type: application/octet-stream`, at most `FILE_IMPORT_MAX_BYTES`): how to read it, its name
 * (kept as each passage's source) and, optionally, the address it was published at.
 * pdf: one passage set per page; docx, html, markdown: passages under their heading path.
 */
export const fileImportQuery = z.object({
  mode: z.enum(FILE_IMPORT_MODES, { error: `Must be one of: ${FILE_IMPORT_MODES.join(', ')}` }),
  name: z.string({ error: 'Required' }).trim().min(1, 'Required').max(255, 'At most 255 characters'),
  url: z
    .url({ protocol: /^https?$/, error: 'Must be an http(s) address' })
    .max(2000)
    .optional(),
});

export const documentUpdateBody = z.object(
  { document: z.unknown().refine((v) => v !== undefined, 'Required') },
  { error: 'Must be an object' },
);

export const datastoreStatusSchema = z.object({
  documents: z.number().int(),
  /** Waiting to be embedded (includes those that failed and are retried). */
  pending: z.number().int(),
  /** Whose last embedding attempt failed. */
  failed: z.number().int(),
  last_error: z.string().nullable(),
  /** Whether search is served by an index: always, on every server (ADR 0033); kept for callers. */
  indexed: z.boolean(),
});
export type DatastoreStatus = z.infer<typeof datastoreStatusSchema>;

export const searchBody = z.object(
  {
    query: z.string({ error: 'Required' }).trim().min(1, 'Required').max(2000, 'At most 2000 characters'),
    k: z.number().int().min(1).max(SEARCH_K_MAX, `At most ${SEARCH_K_MAX}`).default(5),
  },
  { error: 'Must be an object' },
);

export const searchHitSchema = z.object({
  id: z.number().int(),
  document: z.unknown(),
  score: z.number(),
  source: documentSourceSchema.nullable(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

// ---------------------------------------------------------------------------------------------------
// Admin queue monitor (docs/reference/api.md "Organisations": queue monitor)
// ---------------------------------------------------------------------------------------------------

export const QUEUE_HISTORY_TYPES = ['all', 'ping', 'custom'] as const;
export const PING_JOB = 'ping';

export const queueJobsQuery = pagingQuery.extend({
  type: z.enum(QUEUE_HISTORY_TYPES).default('all'),
  action: z.string().trim().max(100).optional(),
  /** Also the server's own housekeeping (scheduled sweeps, the queue library's jobs); hidden by default. */
  internal: queryBoolean,
});

export const queueJobSchema = z.object({
  id: z.string(),
  action: z.string(),
  status: z.enum(['success', 'failure', 'active', 'queued']),
  timestamp: z.string(),
  duration: z.number().nullable(),
  output: z.unknown(),
  error: z.string().nullable(),
  vendor_id: z.number().int().nullable(),
});
export type QueueJob = z.infer<typeof queueJobSchema>;

export const queuePingSchema = z.object({ data: z.object({ id: z.string() }) });
