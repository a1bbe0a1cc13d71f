/**
 * The embeddings table (ADR 0033): created here, not by a migration, with what every statement on it
 * shares — the datastore it is about and the check that the vendor owns it (the table has no vendor
 * column of its own).
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../../platform/db';

export interface SearchedDatastore {
  /** The vendor that owns it (every read is scoped to it). */
  vendorId: number;
  id: number;
  /** Its embedding model (vectors of different models are indexed apart). */
  modelId: number | null;
}

const prepared = new WeakMap<Database, Promise<void>>();

/** Creates the embeddings table once per database (idempotent; safe when several processes race). */
export function prepareVectorStore(database: Database): Promise<void> {
  let ready = prepared.get(database);
  if (!ready) {
    const column = database.hasVector ? 'vector' : 'real[]';
    ready = (async () => {
      await database.db.execute(sql.raw('create sequence if not exists datastore_embeddings_seq'));
      await database.db.execute(
        sql.raw(`create table if not exists datastore_embeddings (
          document_id integer primary key references datastore_documents(id) on delete cascade,
          datastore_id integer not null,
          dims integer not null,
          embedding ${column}
        )`),
      );
      // Tables made before the in-memory index (ADR 0033) gain its columns.
      await database.db.execute(
        sql.raw(`alter table datastore_embeddings
          alter column embedding drop not null,
          add column if not exists packed bytea,
          add column if not exists seq bigint not null default nextval('datastore_embeddings_seq')`),
      );
      await database.db.execute(
        sql.raw(
          'create index if not exists datastore_embeddings_seq_idx on datastore_embeddings (datastore_id, seq)',
        ),
      );
      // When each datastore was last searched: a starting process warms the recently searched first.
      await database.db.execute(
        sql.raw(`create table if not exists datastore_searches (
          datastore_id integer primary key references datastores(id) on delete cascade,
          searched_at timestamptz not null
        )`),
      );
      // A row goes with its document (cascade), and a document with its datastore: the key on the
      // datastore checked nothing more, and checking it cost as much as the insert (bench/knowledge).
      await database.db.execute(
        sql.raw(
          'alter table datastore_embeddings drop constraint if exists datastore_embeddings_datastore_id_fkey',
        ),
      );
    })().catch((err: unknown) => {
      prepared.delete(database);
      throw err;
    });
    prepared.set(database, ready);
  }
  return ready;
}

/**
 * The vendor owns the datastore: a condition on no column of the row, so the database checks it once per
 * statement and the datastore's partial index still serves the search.
 */
export const ownedBy = (vendorId: number, datastoreId: number) =>
  sql`exists (select 1 from datastores where id = ${datastoreId} and vendor_id = ${vendorId})`;

export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? (result as T[])) as T[];
}
