import type { Datastore, DatastoreDocument, DocumentSource } from '@llmor/contracts';
import type { DatastoreRow, DocumentRow } from './repo';

export function presentDatastore(row: DatastoreRow): Datastore {
  return {
    id: row.id,
    name: row.name,
    app_id: row.appId,
    embedding_vendor_model_id: row.embeddingVendorModelId,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
  };
}

/** A document's source as stored (docs/adr/0032-document-import-and-sources.md), or null. */
export const sourceOf = (row: Pick<DocumentRow, 'source'>) => (row.source ?? null) as DocumentSource | null;

export function presentDocument(row: DocumentRow): DatastoreDocument {
  return {
    id: row.id,
    hash: row.hash,
    document: row.document,
    source: sourceOf(row),
    modified_at: row.modifiedAt.toISOString(),
    requires_sync: row.requiresSync,
    sync_error: row.syncError,
  };
}
