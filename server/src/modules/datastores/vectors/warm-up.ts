/**
 * The warm-up of a starting process (ADR 0042): each search is noted in `datastore_searches`, and a process
 * that starts builds its in-memory indexes from the table in the background, recently searched first.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../platform/db';
import { MEMORY_INDEX_POSTINGS_MAX, type VectorIndexes } from './indexes';
import { prepareVectorStore, rowsOf } from './table';

/** A process notes a datastore's search in the table at most this often. */
const SEARCH_NOTE_MS = 60_000;
const searchNoted = new WeakMap<Database, Map<number, number>>();

/** Notes that the datastore was searched (for the warm-up of a starting process), throttled per process. */
export async function noteSearch(database: Database, datastoreId: number): Promise<void> {
  let noted = searchNoted.get(database);
  if (!noted) {
    noted = new Map();
    searchNoted.set(database, noted);
  }
  const now = Date.now();
  if (now - (noted.get(datastoreId) ?? 0) < SEARCH_NOTE_MS) return;
  noted.set(datastoreId, now);
  await database.db.execute(sql`
    insert into datastore_searches (datastore_id, searched_at)
    select id, now() from datastores where id = ${datastoreId}
    on conflict (datastore_id) do update set searched_at = excluded.searched_at`);
}

/**
 * Builds the server's in-memory indexes from the table in the background, recently searched datastores
 * first, until `maxPostings` (default: most of what a process keeps) — so the first search after a start
 * does not wait for a build. Reads only: every instance warms its own. `stopped()` ends it between
 * datastores (the server closes). Answers the datastores warmed.
 */
export async function warmMemoryIndexes(
  indexes: VectorIndexes,
  opts: { maxPostings?: number; stopped?: () => boolean } = {},
): Promise<number[]> {
  const { database } = indexes;
  await prepareVectorStore(database);
  const budget = opts.maxPostings ?? MEMORY_INDEX_POSTINGS_MAX * 0.8;
  const candidates = rowsOf<{ id: number; vendor_id: number; model_id: number | null; dims: number | null }>(
    await database.db.execute(sql`
      select d.id, d.vendor_id, d.embedding_vendor_model_id as model_id,
        (select e.dims from datastore_embeddings e
          where e.datastore_id = d.id and e.packed is not null limit 1) as dims
      from datastores d left join datastore_searches s on s.datastore_id = d.id
      order by s.searched_at desc nulls last, d.id`),
  );
  const warmed: number[] = [];
  for (const row of candidates) {
    if (opts.stopped?.() || row.dims === null) continue;
    if (indexes.postings >= budget) break;
    await indexes.current({ vendorId: row.vendor_id, id: row.id, modelId: row.model_id }, Number(row.dims));
    // The index just built is counted in what the indexes hold.
    if (indexes.postings > budget && warmed.length > 0) {
      indexes.forget(row.id);
      break;
    }
    warmed.push(row.id);
  }
  return warmed;
}
