import type { DataEnvelope, DatastoreDocument, FileImportMode } from '@llmor/contracts';
import { apiUpload } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { datastorePath } from './keys';
import { useInvalidateDatastore } from './useInvalidateDatastore';

export interface DocumentsUpload {
  mode: FileImportMode;
  file: File;
  onProgress(sent: number): void;
  /** Aborts the upload (the dialog's cancel), besides the screen going away. */
  cancel?: AbortSignal;
}

/**
 * POST /v1/datastores/{id}/docs/upload?mode&name: one file as it is, with upload progress (0–1) → the new
 * documents.
 */
function uploadDocuments(
  datastoreId: number,
  { mode, file, onProgress }: DocumentsUpload,
  signal?: AbortSignal,
): Promise<DataEnvelope<DatastoreDocument[]>> {
  return apiUpload<DataEnvelope<DatastoreDocument[]>>(`${datastorePath(datastoreId)}/docs/upload`, {
    query: { mode, name: file.name },
    file,
    onProgress,
    signal,
  });
}

/** Failures are the dialog's to show (not broadcast). */
export function useUploadDocuments(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (upload: DocumentsUpload, signal) =>
      uploadDocuments(datastoreId, upload, upload.cancel ? AbortSignal.any([signal, upload.cancel]) : signal),
    onSettled: () => invalidate(datastoreId),
  });
}
