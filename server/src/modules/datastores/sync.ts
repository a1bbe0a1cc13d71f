/**
 * The worker's side of datastores: embedding what waits, in batches, crash-safe.
 *
 * `datastore-sync` {vendorId, datastoreId} leases a batch (repo.claimPending), embeds it with the
 * datastore's model, stores the vectors and marks the batch synced; it repeats for a bounded time, then
 * queues its own continuation, so one huge import never holds a worker or a job past its expiry.
 * A provider failure releases the batch with the error noted and fails the job: pg-boss retries it with
 * backoff. `datastore-sweep` (every minute, and at worker start) queues a sync for every datastore with
 * free waiting documents, which resumes work whose process died (its leases expire after LEASE_SECONDS).
 */
import { EMBEDDING_MODEL_REQUIRED } from '@llmor/contracts';
import { job } from '../../platform/queue';
import { ProviderError } from '../models/providers/types';
import { documentText } from './parse';
import * as repo from './repo';
import {
  adoptEmbeddingModel,
  embeddingModelOf,
  type KnowledgeContext,
  requestSync,
  SYNC_JOB,
} from './service';
import { dropOrphanIndexes, writeVectors } from './vectors';

export const SWEEP_JOB = 'datastore-sweep';
/** Documents embedded per provider call. */
export const SYNC_BATCH = 256;
/** A leased batch is free again after this long (a dead worker's batch). */
export const LEASE_SECONDS = 120;
/** One job embeds for at most this long, then hands over to a continuation job. */
const JOB_SLICE_MS = 30_000;

interface SyncData {
  vendorId: number;
  datastoreId: number;
}

function failureText(err: unknown): string {
  if (err instanceof ProviderError) return `The embedding model could not answer: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}

/** Embeds waiting documents of one datastore; answers how many it embedded. */
export async function syncDatastore(ctx: KnowledgeContext, data: SyncData): Promise<{ embedded: number }> {
  const { vendorId, datastoreId } = data;
  const found = await repo.findDatastore(ctx.db, vendorId, datastoreId);
  if (!found) return { embedded: 0 };
  const ds = await adoptEmbeddingModel(ctx, vendorId, found);
  const model = await embeddingModelOf(ctx, vendorId, ds);
  if (!model) {
    await repo.updateDatastore(ctx.db, vendorId, ds.id, { lastError: EMBEDDING_MODEL_REQUIRED });
    return { embedded: 0 };
  }
  const until = Date.now() + JOB_SLICE_MS;
  let embedded = 0;
  while (Date.now() < until) {
    const batch = await repo.claimPending(ctx.db, vendorId, ds.id, SYNC_BATCH, LEASE_SECONDS);
    if (batch.length === 0) break;
    let vectors: number[][];
    try {
      ({ vectors } = await model.embed(batch.map((d) => documentText(d.document))));
      if (vectors.length !== batch.length) {
        throw new Error(
          `The embedding model answered ${vectors.length} vectors for ${batch.length} documents.`,
        );
      }
    } catch (err) {
      const text = failureText(err);
      // The reason first: a status read between the two never shows failed documents without it.
      await repo.updateDatastore(ctx.db, vendorId, ds.id, { lastError: text });
      await repo.releaseFailed(
        ctx.db,
        vendorId,
        batch.map((d) => d.id),
        text,
      );
      throw err;
    }
    await writeVectors(
      ctx.database,
      vendorId,
      ds.id,
      batch.map((d, i) => ({ documentId: d.id, vector: vectors[i]! })),
    );
    await repo.finishSynced(ctx.db, vendorId, batch);
    embedded += batch.length;
  }
  if (await repo.hasClaimable(ctx.db, vendorId, ds.id)) await requestSync(ctx, vendorId, ds.id);
  else if (ds.lastError) await repo.updateDatastore(ctx.db, vendorId, ds.id, { lastError: null });
  return { embedded };
}

/**
 * Queues a sync for every datastore with free waiting documents. `restart`: this process is the only
 * one on the database (the embedded default), so every lease is a dead run's and failed documents get
 * another chance too.
 */
export async function sweep(ctx: KnowledgeContext, opts: { restart?: boolean } = {}) {
  if (opts.restart) await repo.clearLeases(ctx.db);
  const pending = await repo.datastoresWithPending(ctx.db, { includeFailed: opts.restart === true });
  for (const p of pending) await requestSync(ctx, p.vendorId, p.datastoreId);
  const droppedIndexes = await dropOrphanIndexes(ctx.database);
  return { queued: pending.length, droppedIndexes };
}

export const datastoreJobs = (ctx: KnowledgeContext) => [
  job<SyncData & { vendorId: number }>({
    name: SYNC_JOB,
    retryLimit: 5,
    retryDelay: 2,
    expireInSeconds: LEASE_SECONDS,
    handler: (data) => syncDatastore(ctx, data),
  }),
  job({ name: SWEEP_JOB, cron: '* * * * *', handler: () => sweep(ctx) }),
];
