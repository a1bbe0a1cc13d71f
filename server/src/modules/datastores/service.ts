/**
 * Datastores: an app's named document stores. Imports store documents at once (deduplicated by hash)
 * and leave embedding to the worker (`sync.ts`); search fuses vector and full-text rank (`vectors.ts`).
 */
import {
  DATASTORE_NAME_EXISTS,
  type Datastore,
  type DatastoreCreateBody,
  type DatastoreDocument,
  type DatastoreStatus,
  type DatastoreUpdateBody,
  type DocumentSource,
  type DocumentsQuery,
  EMBEDDING_MODEL_REQUIRED,
  type FileImportMode,
  type ListEnvelope,
  type SearchHit,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { badGateway, conflict, notFound, validationError } from '../../platform/errors';
import type { JobQueue } from '../../platform/queue';
import { embeddingModelFor } from '../models/providers/index';
import { type EmbeddingModel, ProviderError } from '../models/providers/types';
import {
  checkDocumentSize,
  documentHash,
  documentText,
  type ImportedFile,
  parseImport,
  uploadData,
} from './parse';
import { presentDatastore, presentDocument, sourceOf } from './present';
import type { DatastoreRow } from './repo';
import * as repo from './repo';
import { dropVectors, fuse, nearest, textMatches } from './vectors';

/** What the datastores need from the server: the queue that embeds, and how a model is reached. */
export interface KnowledgeContext extends AppContext {
  queue: JobQueue;
  /** Installed embedding model → runnable model (tests point it at fakes through the model's base URL). */
  embeddingModel?: (row: Parameters<typeof embeddingModelFor>[1]) => EmbeddingModel;
}

export const SYNC_JOB = 'datastore-sync';

/** A datastore of the vendor (another vendor's, or a missing one: 404). */
export async function requireDatastore(ctx: AppContext, vendorId: number, id: number): Promise<DatastoreRow> {
  const row = await repo.findDatastore(ctx.db, vendorId, id);
  if (!row) throw notFound('Datastore');
  return row;
}

async function embeddingModelId(ctx: AppContext, vendorId: number, requested?: number | null) {
  const models = await repo.vendorEmbeddingModels(ctx.db, vendorId);
  if (requested === undefined || requested === null) return models[0]?.id ?? null;
  if (!models.some((m) => m.id === requested)) {
    throw validationError({ embedding_vendor_model_id: 'Choose one of your installed embedding models.' });
  }
  return requested;
}

export async function listDatastores(ctx: AppContext, vendorId: number, appId: number) {
  const rows = await repo.listDatastores(ctx.db, vendorId, appId);
  return { data: rows.map(presentDatastore), total_count: rows.length, filter_count: rows.length };
}

export async function createDatastore(
  ctx: AppContext,
  vendorId: number,
  appId: number,
  userId: number,
  body: DatastoreCreateBody,
): Promise<Datastore> {
  const row = await repo.insertDatastore(ctx.db, vendorId, {
    appId,
    name: body.name,
    embeddingVendorModelId: await embeddingModelId(ctx, vendorId, body.embedding_vendor_model_id),
    createdBy: userId,
  });
  if (!row) throw conflict(DATASTORE_NAME_EXISTS, { name: DATASTORE_NAME_EXISTS });
  return presentDatastore(row);
}

export async function updateDatastore(
  ctx: KnowledgeContext,
  vendorId: number,
  appId: number,
  id: number,
  body: DatastoreUpdateBody,
): Promise<Datastore> {
  const current = await requireDatastore(ctx, vendorId, id);
  if (current.appId !== appId) throw notFound('Datastore');
  if (body.name !== undefined && body.name !== current.name) {
    const clash = await repo.findDatastoreByName(ctx.db, vendorId, appId, body.name);
    if (clash) throw conflict(DATASTORE_NAME_EXISTS, { name: DATASTORE_NAME_EXISTS });
  }
  const modelId =
    body.embedding_vendor_model_id === undefined
      ? current.embeddingVendorModelId
      : await embeddingModelId(ctx, vendorId, body.embedding_vendor_model_id);
  const row = await repo.updateDatastore(ctx.db, vendorId, id, {
    ...(body.name === undefined ? {} : { name: body.name }),
    embeddingVendorModelId: modelId,
  });
  if (!row) throw notFound('Datastore');
  if (modelId !== current.embeddingVendorModelId) {
    // Vectors of another model do not compare: embed everything again.
    await dropVectors(ctx.database, vendorId, id);
    await repo.markAllForSync(ctx.db, vendorId, id);
    await requestSync(ctx, vendorId, id);
  }
  return presentDatastore(row);
}

export async function deleteDatastore(ctx: AppContext, vendorId: number, appId: number, id: number) {
  const current = await requireDatastore(ctx, vendorId, id);
  if (current.appId !== appId) throw notFound('Datastore');
  await dropVectors(ctx.database, vendorId, id);
  await repo.deleteDatastore(ctx.db, vendorId, id);
}

export async function listDocuments(
  ctx: AppContext,
  vendorId: number,
  id: number,
  query: DocumentsQuery,
): Promise<ListEnvelope<DatastoreDocument>> {
  await requireDatastore(ctx, vendorId, id);
  const search = query.search?.trim() || undefined;
  const [rows, total, filtered] = await Promise.all([
    repo.listDocuments(ctx.db, vendorId, id, {
      search,
      offset: query.page * query.page_size,
      limit: query.page_size,
      dir: query.order_dir ?? 'asc',
    }),
    repo.countDocuments(ctx.db, vendorId, id),
    search ? repo.countDocuments(ctx.db, vendorId, id, search) : null,
  ]);
  return { data: rows.map(presentDocument), total_count: total, filter_count: filtered ?? total };
}

/** Asks the worker to embed what waits in the datastore. */
export async function requestSync(ctx: KnowledgeContext, vendorId: number, datastoreId: number) {
  await ctx.queue.send(SYNC_JOB, { vendorId, datastoreId });
}

export async function importDocuments(
  ctx: KnowledgeContext,
  vendorId: number,
  id: number,
  mode: FileImportMode,
  data: unknown,
  file?: ImportedFile,
): Promise<DatastoreDocument[]> {
  await requireDatastore(ctx, vendorId, id);
  const parsed = await parseImport(mode, data, file);
  const rows = await repo.insertDocuments(ctx.db, vendorId, id, parsed);
  if (rows.length > 0) await requestSync(ctx, vendorId, id);
  return rows.map(presentDocument);
}

/** An uploaded file (`docs/upload`): its bytes, read as the query's mode; its name becomes the source. */
export async function importFile(
  ctx: KnowledgeContext,
  vendorId: number,
  id: number,
  mode: FileImportMode,
  file: ImportedFile,
  body: unknown,
): Promise<DatastoreDocument[]> {
  await requireDatastore(ctx, vendorId, id);
  if (!Buffer.isBuffer(body) || body.length === 0) {
    throw validationError({ data: FILE_BODY_REQUIRED }, FILE_BODY_REQUIRED);
  }
  return importDocuments(ctx, vendorId, id, mode, uploadData(mode, body), file);
}

const FILE_BODY_REQUIRED = "Send the file's bytes as the body (Content-Type: application/octet-stream).";

export async function updateDocument(
  ctx: KnowledgeContext,
  vendorId: number,
  id: number,
  docId: number,
  document: unknown,
): Promise<DatastoreDocument> {
  await requireDatastore(ctx, vendorId, id);
  checkDocumentSize(document);
  const result = await repo.updateDocument(ctx.db, vendorId, id, docId, {
    hash: documentHash(document),
    document,
  });
  if (!result.ok) {
    if (result.reason === 'missing') throw notFound('Document');
    const message = 'The datastore already has a document with this content.';
    throw conflict(message, { document: message });
  }
  await requestSync(ctx, vendorId, id);
  return presentDocument(result.row);
}

export async function deleteDocument(ctx: AppContext, vendorId: number, id: number, docId: number) {
  await requireDatastore(ctx, vendorId, id);
  if (!(await repo.deleteDocument(ctx.db, vendorId, id, docId))) throw notFound('Document');
}

export async function truncateDatastore(ctx: AppContext, vendorId: number, id: number) {
  const ds = await requireDatastore(ctx, vendorId, id);
  const n = await repo.truncateDocuments(ctx.db, vendorId, id);
  await repo.updateDatastore(ctx.db, vendorId, id, { lastError: null });
  return { message: `DataStore "${ds.name}" truncated: ${n} ${n === 1 ? 'document' : 'documents'} removed.` };
}

export async function datastoreStatus(
  ctx: AppContext,
  vendorId: number,
  id: number,
): Promise<DatastoreStatus> {
  const ds = await requireDatastore(ctx, vendorId, id);
  const counts = await repo.documentStatus(ctx.db, vendorId, id);
  const lastError =
    ds.embeddingVendorModelId === null && counts.pending > 0 ? EMBEDDING_MODEL_REQUIRED : ds.lastError;
  return { ...counts, last_error: counts.pending > 0 ? lastError : null, indexed: ctx.database.hasVector };
}

/** The datastore's embedding model, ready to run; null when it has none. */
export async function embeddingModelOf(
  ctx: KnowledgeContext,
  vendorId: number,
  ds: DatastoreRow,
): Promise<EmbeddingModel | null> {
  if (ds.embeddingVendorModelId === null) return null;
  const models = await repo.vendorEmbeddingModels(ctx.db, vendorId);
  const row = models.find((m) => m.id === ds.embeddingVendorModelId);
  if (!row) return null;
  return ctx.embeddingModel ? ctx.embeddingModel(row) : embeddingModelFor(ctx, row);
}

/**
 * Admits a search's embedding call and counts its tokens: a reply's provider-call meter (ADR 0021).
 * Searches outside a reply (the console's) pass none.
 */
export interface EmbeddingMeter {
  admit(): Promise<void>;
  spent(tokens: number): Promise<void>;
}

/** Embeds the query, through the meter when there is one. */
async function embedQuery(
  model: EmbeddingModel,
  query: string,
  signal?: AbortSignal,
  meter?: EmbeddingMeter,
) {
  await meter?.admit();
  const { vectors, usage } = await model.embed([query], signal);
  await meter?.spent(usage.tokens);
  return vectors[0]!;
}

/**
 * Hybrid search in one datastore: the nearest embedded documents and the best full-text matches,
 * fused by reciprocal rank. Documents not embedded yet are still found by their words.
 */
export async function searchDatastore(
  ctx: KnowledgeContext,
  vendorId: number,
  ds: DatastoreRow,
  query: string,
  k: number,
  signal?: AbortSignal,
  meter?: EmbeddingMeter,
): Promise<SearchHit[]> {
  const candidates = Math.max(20, k * 2);
  const model = await embeddingModelOf(ctx, vendorId, ds);
  const [byVector, byText] = await Promise.all([
    model
      ? embedQuery(model, query, signal, meter).then((vector) =>
          nearest(ctx.database, vendorId, ds.id, vector, candidates),
        )
      : Promise.resolve([]),
    textMatches(ctx.db, vendorId, ds.id, query, candidates),
  ]);
  const ranked = fuse([byVector, byText], k);
  const rows = new Map(
    (
      await repo.findDocuments(
        ctx.db,
        vendorId,
        ds.id,
        ranked.map((r) => r.id),
      )
    ).map((r) => [r.id, r]),
  );
  return ranked.flatMap((r) => {
    const row = rows.get(r.id);
    return row
      ? [{ id: r.id, document: row.document, score: Number(r.score.toFixed(6)), source: sourceOf(row) }]
      : [];
  });
}

/** A search asked for directly: a failing embedding provider is the provider's failure (502), not ours. */
export async function search(ctx: KnowledgeContext, vendorId: number, id: number, query: string, k: number) {
  const ds = await requireDatastore(ctx, vendorId, id);
  try {
    return await searchDatastore(ctx, vendorId, ds, query, k);
  } catch (err) {
    if (err instanceof ProviderError)
      throw badGateway(`The embedding model could not answer: ${err.message}`);
    throw err;
  }
}

/** Retrieval for an app's replies: the named datastores of the app (all when none named). */
export async function retrieve(
  ctx: KnowledgeContext,
  app: { id: number; vendorId: number },
  names: string[] | null,
  query: string,
  k: number,
  signal?: AbortSignal,
  meter?: EmbeddingMeter,
): Promise<{ datastore: string; id: number; text: string; score: number; source: DocumentSource | null }[]> {
  const all = await repo.listDatastores(ctx.db, app.vendorId, app.id);
  const chosen = names ? all.filter((d) => names.includes(d.name)) : all;
  const hits = await Promise.all(
    chosen.map(async (ds) =>
      (await searchDatastore(ctx, app.vendorId, ds, query, k, signal, meter)).map((h) => ({
        datastore: ds.name,
        id: h.id,
        text: documentText(h.document),
        score: h.score,
        source: h.source,
      })),
    ),
  );
  return hits
    .flat()
    .sort((a, b) => b.score - a.score)
    .slice(0, k);
}

/** A datastore of the app by name (Lua `datastore.search`). */
export async function datastoreByName(ctx: AppContext, app: { id: number; vendorId: number }, name: string) {
  return repo.findDatastoreByName(ctx.db, app.vendorId, app.id, name);
}
