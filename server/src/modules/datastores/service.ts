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
import { LRUCache } from 'lru-cache';
import type { AppContext } from '../../platform/context';
import { badGateway, conflict, notFound, validationError } from '../../platform/errors';
import { UploadedBody } from '../../platform/http/upload-body';
import type { JobQueue } from '../../platform/queue';
import { inSpan, type TraceContext } from '../../platform/tracing';
import { embeddingModelFor } from '../models/providers/index';
import { type EmbeddingModel, ProviderError } from '../models/providers/types';
import { checkDocumentSize, documentHash, documentText, type ImportedFile } from './parse';
import { parsePool, uploadCancelled } from './parse-pool';
import { presentDatastore, presentDocument, sourceOf } from './present';
import type { DatastoreRow } from './repo';
import * as repo from './repo';
import { nextTurn } from './turns';
import { dropVectors, fuse, rankedMatches, type VectorIndexes } from './vectors';

/**
 * What the datastores need from the server: the queue that embeds, the server's in-memory search indexes,
 * and how a model is reached.
 */
export interface KnowledgeContext extends AppContext {
  queue: JobQueue;
  vectorIndexes: VectorIndexes;
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
    await dropVectors(ctx.vectorIndexes, vendorId, id);
    await repo.markAllForSync(ctx.db, vendorId, id);
    await requestSync(ctx, vendorId, id);
  }
  return presentDatastore(row);
}

export async function deleteDatastore(ctx: KnowledgeContext, vendorId: number, appId: number, id: number) {
  const current = await requireDatastore(ctx, vendorId, id);
  if (current.appId !== appId) throw notFound('Datastore');
  await dropVectors(ctx.vectorIndexes, vendorId, id);
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
  signal?: AbortSignal,
): Promise<DatastoreDocument[]> {
  await requireDatastore(ctx, vendorId, id);
  // Read in the parse pool, never here (ADR 0053); a caller gone by the time it is read stores nothing.
  const parsed = await parsePool(ctx.config).parse({ vendorId, mode, data, file }, signal);
  if (signal?.aborted) throw uploadCancelled();
  const rows = await repo.insertDocuments(ctx.db, vendorId, id, parsed);
  if (rows.length > 0) await requestSync(ctx, vendorId, id);
  // Presented a slice at a time: 100,000 documents took 50–100 ms of one turn of the event loop.
  const out: DatastoreDocument[] = [];
  for (let i = 0; i < rows.length; i += PRESENT_SLICE) {
    if (i > 0) await nextTurn();
    for (const row of rows.slice(i, i + PRESENT_SLICE)) out.push(presentDocument(row));
  }
  return out;
}

/** Imported documents presented between two turns of the event loop. */
const PRESENT_SLICE = 2000;

/**
 * An uploaded file (`docs/upload`): its bytes, read as the query's mode; its name becomes the source.
 * `signal` aborts when the caller goes away: the file's reading stops and nothing is stored.
 */
export async function importFile(
  ctx: KnowledgeContext,
  vendorId: number,
  id: number,
  mode: FileImportMode,
  file: ImportedFile,
  body: unknown,
  signal?: AbortSignal,
): Promise<DatastoreDocument[]> {
  await requireDatastore(ctx, vendorId, id);
  if (!(body instanceof UploadedBody) || body.byteLength === 0) {
    throw validationError({ data: FILE_BODY_REQUIRED }, FILE_BODY_REQUIRED);
  }
  // Its blocks move to the parse thread as they are (ADR 0053 "Amended 2026-11-28").
  return importDocuments(ctx, vendorId, id, mode, body, file, signal);
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
  ctx: KnowledgeContext,
  vendorId: number,
  id: number,
): Promise<DatastoreStatus> {
  const found = await requireDatastore(ctx, vendorId, id);
  const ds = await adoptEmbeddingModel(ctx, vendorId, found);
  const counts = await repo.documentStatus(ctx.db, vendorId, id);
  // Its documents waited for a model that now exists: embed them now, not at the next sweep.
  if (found.embeddingVendorModelId === null && ds.embeddingVendorModelId !== null && counts.pending > 0)
    await requestSync(ctx, vendorId, id);
  const lastError =
    ds.embeddingVendorModelId === null && counts.pending > 0 ? EMBEDDING_MODEL_REQUIRED : ds.lastError;
  return { ...counts, last_error: counts.pending > 0 ? lastError : null, indexed: true };
}

const EMBEDDING_CLIENTS_MAX = 500;

/**
 * One client per installed embedding model, as replies keep one per chat model: building it opens the
 * sealed key and loads the provider's SDK. Keyed by everything the client is made of, so a changed row
 * gets a new one.
 */
const embeddingClients = new WeakMap<KnowledgeContext, LRUCache<string, EmbeddingModel>>();

type EmbeddingModelRow = Awaited<ReturnType<typeof repo.vendorEmbeddingModels>>[number];

function embeddingClient(ctx: KnowledgeContext, row: EmbeddingModelRow): EmbeddingModel {
  let clients = embeddingClients.get(ctx);
  if (!clients) {
    clients = new LRUCache({ max: EMBEDDING_CLIENTS_MAX });
    embeddingClients.set(ctx, clients);
  }
  const key = [row.id, row.modelKey, row.provider, row.secretEnc, JSON.stringify(row.parameters)].join('\n');
  let model = clients.get(key);
  if (!model) {
    model = ctx.embeddingModel ? ctx.embeddingModel(row) : embeddingModelFor(ctx, row);
    clients.set(key, model);
  }
  return model;
}

/**
 * A datastore made before the vendor had any embedding model takes the vendor's first one as soon as
 * there is one; answers the datastore as it now is.
 */
export async function adoptEmbeddingModel(ctx: AppContext, vendorId: number, ds: DatastoreRow) {
  if (ds.embeddingVendorModelId !== null) return ds;
  const [first] = await repo.vendorEmbeddingModels(ctx.db, vendorId);
  if (!first) return ds;
  return (
    (await repo.adoptEmbeddingModel(ctx.db, vendorId, ds.id, first.id)) ??
    (await repo.findDatastore(ctx.db, vendorId, ds.id)) ??
    ds
  );
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
  return row ? embeddingClient(ctx, row) : null;
}

/**
 * Admits a search's embedding call and counts its tokens: a reply's provider-call meter (ADR 0021).
 * Searches outside a reply (the console's) pass none.
 */
interface EmbeddingMeter {
  admit(): Promise<void>;
  spent(tokens: number): Promise<void>;
}

/**
 * The query's vector by each embedding model, embedded once per model however many datastores share it
 * (through the meter when there is one).
 */
class QueryVectors {
  private readonly byModel = new Map<number, Promise<number[]>>();

  constructor(
    private readonly query: string,
    private readonly signal?: AbortSignal,
    private readonly meter?: EmbeddingMeter,
    private readonly trace?: TraceContext,
  ) {}

  of(modelId: number, model: EmbeddingModel): Promise<number[]> {
    let vector = this.byModel.get(modelId);
    if (!vector) {
      vector = (async () => {
        await this.meter?.admit();
        const { vectors, usage } = await model.embed([this.query], this.signal, this.trace);
        await this.meter?.spent(usage.tokens);
        return vectors[0]!;
      })();
      this.byModel.set(modelId, vector);
    }
    return vector;
  }
}

/** One datastore's search with the query's vectors (which the datastores of one reply share). */
type VectorSearch = Pick<DatastoreSearch, 'vendorId' | 'datastore' | 'query' | 'k' | 'trace'> & {
  vectors: QueryVectors;
};

/** One datastore searched, in a span of its own (docs/adr/0040-traces.md): ids and sizes, never the query. */
function searchOne(ctx: KnowledgeContext, search: VectorSearch): Promise<SearchHit[]> {
  const { vendorId, datastore, k, trace } = search;
  return inSpan(
    'datastore.search',
    { 'llmor.vendor.id': vendorId, 'llmor.datastore.id': datastore.id, 'llmor.search.k': k },
    trace,
    () => findMatches(ctx, search),
  );
}

/**
 * Hybrid search in one datastore: the nearest embedded documents and the best full-text matches,
 * fused by reciprocal rank. Documents not embedded yet are still found by their words.
 */
async function findMatches(
  ctx: KnowledgeContext,
  { vendorId, datastore: found, query, k, vectors }: VectorSearch,
): Promise<SearchHit[]> {
  const candidates = Math.max(20, k * 2);
  const ds = await adoptEmbeddingModel(ctx, vendorId, found);
  // Not awaited here: the search's first statement runs while the model is looked up and the query embedded.
  const vector = embeddingModelOf(ctx, vendorId, ds).then((model) =>
    model && ds.embeddingVendorModelId !== null ? vectors.of(ds.embeddingVendorModelId, model) : null,
  );
  const searched = { vendorId, id: ds.id, modelId: ds.embeddingVendorModelId };
  // A second round only when the first met documents deleted since the process indexed them.
  for (let round = 0; ; round++) {
    const ranked = fuse(
      await rankedMatches(ctx.vectorIndexes, searched, { text: query, vector }, candidates),
      k,
    );
    const ids = ranked.map((r) => r.id);
    const rows = new Map((await repo.findDocuments(ctx.db, vendorId, ds.id, ids)).map((r) => [r.id, r]));
    const gone = ids.filter((id) => !rows.has(id));
    if (gone.length > 0 && round === 0) {
      ctx.vectorIndexes.forgetDocuments(ds.id, gone);
      continue;
    }
    return ranked.flatMap((r) => {
      const row = rows.get(r.id);
      return row
        ? [{ id: r.id, document: row.document, score: Number(r.score.toFixed(6)), source: sourceOf(row) }]
        : [];
    });
  }
}

/** One datastore's search: `signal` and `meter` when a reply asks (its query embedding is its call). */
export interface DatastoreSearch {
  vendorId: number;
  datastore: DatastoreRow;
  query: string;
  k: number;
  signal?: AbortSignal;
  meter?: EmbeddingMeter;
  trace?: TraceContext;
}

export function searchDatastore(ctx: KnowledgeContext, search: DatastoreSearch): Promise<SearchHit[]> {
  const { vendorId, datastore, query, k, signal, meter, trace } = search;
  const vectors = new QueryVectors(query, signal, meter, trace);
  return searchOne(ctx, { vendorId, datastore, query, k, vectors, trace });
}

/**
 * A search asked for directly, of the datastore `id`: a failing embedding provider is the provider's failure
 * (502), not ours.
 */
export async function search(
  ctx: KnowledgeContext,
  { id, ...search }: Omit<DatastoreSearch, 'datastore' | 'signal' | 'meter'> & { id: number },
) {
  const ds = await requireDatastore(ctx, search.vendorId, id);
  try {
    return await searchDatastore(ctx, { ...search, datastore: ds });
  } catch (err) {
    if (err instanceof ProviderError)
      throw badGateway(`The embedding model could not answer: ${err.message}`);
    throw err;
  }
}

/** What a reply asks of an app's datastores: a query, its count, and the reply's signal, meter and trace. */
interface ReplyQuery {
  app: { id: number; vendorId: number };
  query: string;
  k: number;
  meter: EmbeddingMeter;
  trace: TraceContext;
}

/**
 * The app's datastores as replies reach them: the completion engine's `KnowledgePort`, this object itself
 * (the server builds one).
 */
export class ReplyKnowledge {
  constructor(private readonly ctx: KnowledgeContext) {}

  /** Retrieval for an app's replies: the best `k` passages of the named datastores (all when none named). */
  async retrieve({
    app,
    names,
    query,
    k,
    signal,
    meter,
    trace,
  }: ReplyQuery & { names: string[] | null; signal: AbortSignal }): Promise<
    { datastore: string; id: number; text: string; score: number; source: DocumentSource | null }[]
  > {
    const all = await repo.listDatastores(this.ctx.db, app.vendorId, app.id);
    const chosen = names ? all.filter((d) => names.includes(d.name)) : all;
    const vectors = new QueryVectors(query, signal, meter, trace);
    const hits = await Promise.all(
      chosen.map(async (ds) =>
        (await searchOne(this.ctx, { vendorId: app.vendorId, datastore: ds, query, k, vectors, trace })).map(
          (h) => ({
            datastore: ds.name,
            id: h.id,
            text: documentText(h.document),
            score: h.score,
            source: h.source,
          }),
        ),
      ),
    );
    return hits
      .flat()
      .sort((a, b) => b.score - a.score)
      .slice(0, k);
  }

  /** Hits of one datastore of the app by name (Lua `datastore.search`); null when it has none of that name. */
  async search({ name, ...search }: ReplyQuery & { name: string }): Promise<SearchHit[] | null> {
    const { app } = search;
    const datastore = await repo.findDatastoreByName(this.ctx.db, app.vendorId, app.id, name);
    return datastore ? searchDatastore(this.ctx, { ...search, vendorId: app.vendorId, datastore }) : null;
  }
}
