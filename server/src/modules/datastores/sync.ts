/**
 * The worker's side of datastores: embedding what waits, in batches, crash-safe.
 *
 * `datastore-sync` {vendorId, datastoreId} leases a batch (repo.claimPending), embeds it with the
 * datastore's model (in provider calls of EMBED_CALL), stores the vectors and marks the batch synced in one
 * statement; it repeats for a bounded time, then
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
import { nextTurn } from './turns';
import { dropOrphanIndexes, storeEmbeddings } from './vectors';

const SWEEP_JOB = 'datastore-sweep';
/** Documents leased, stored and marked synced together: one statement stores a batch's vectors. */
const SYNC_BATCH = 2048;
/** Documents per provider call (providers bound a call's inputs: OpenAI takes at most 2,048). */
const EMBED_CALL = 256;
/** A leased batch is free again after this long (a dead worker's batch). */
const LEASE_SECONDS = 120;
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
async function syncDatastore(ctx: KnowledgeContext, data: SyncData): Promise<{ embedded: number }> {
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
  let after = 0;
  while (Date.now() < until) {
    const batch = await repo.claimPending(ctx.db, vendorId, ds.id, {
      limit: SYNC_BATCH,
      leaseSeconds: LEASE_SECONDS,
      after,
      lease: !ctx.database.soleProcess,
    });
    if (batch.length === 0) break;
    after = batch.at(-1)!.id;
    const texts = batch.map((d) => documentText(d.document));
    const vectors: number[][] = [];
    try {
      for (let i = 0; i < texts.length; i += EMBED_CALL) {
        // A model in this process (the offline one) embeds without awaiting anything: the event loop
        // turns between its calls.
        if (i > 0) await nextTurn();
        const call = texts.slice(i, i + EMBED_CALL);
        const answer = (await model.embed(call)).vectors;
        if (answer.length !== call.length) {
          throw new Error(
            `The embedding model answered ${answer.length} vectors for ${call.length} documents.`,
          );
        }
        vectors.push(...answer);
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
    await storeEmbeddings(
      ctx.vectorIndexes,
      { vendorId, id: ds.id, modelId: ds.embeddingVendorModelId },
      batch.map((d, i) => ({ documentId: d.id, hash: d.hash, vector: vectors[i]!, text: texts[i]! })),
      { keepIndex: ctx.config.ROLES.includes('api') },
    );
    embedded += batch.length;
  }
  if (await repo.hasClaimable(ctx.db, vendorId, ds.id)) await requestSync(ctx, vendorId, ds.id);
  else if (ds.lastError) await repo.updateDatastore(ctx.db, vendorId, ds.id, { lastError: null });
  if (embedded >= repo.ANALYZE_AFTER) await repo.refreshStatistics(ctx.db);
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
