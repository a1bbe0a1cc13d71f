import type {
  DataEnvelope,
  Datastore,
  DatastoreCreateBody,
  DatastoreDocument,
  DatastoreStatus,
  DatastoreUpdateBody,
  FileImportMode,
  ListEnvelope,
  VendorModelPicks,
} from '@llmor/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, apiUpload } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';

/** Query keys of the datastores feature. */
export const datastoreKeys = {
  list: (vendorId: number, appId: string) => ['datastores', vendorId, appId] as const,
  documents: (datastoreId: number) => ['datastore', datastoreId, 'docs'] as const,
  status: (datastoreId: number) => ['datastore', datastoreId, 'status'] as const,
};

const appPath = (vendorId: number, appId: string) => `/v1/vendors/${vendorId}/apps/${appId}/datastores`;

/** GET /v1/vendors/{vendorId}/apps/{appId}/datastores. */
export function useDatastores(vendorId: number, appId: string) {
  return useQuery({
    queryKey: datastoreKeys.list(vendorId, appId),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<ListEnvelope<Datastore>>(appPath(vendorId, appId)),
    select: (r) => r.data,
  });
}

/** POST …/datastores (resolve=creator). */
export function useCreateDatastore(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: DatastoreCreateBody, signal) =>
      apiRequest<DataEnvelope<Datastore>>(appPath(vendorId, appId), {
        signal,
        method: 'POST',
        body,
        query: { resolve: 'creator' },
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: datastoreKeys.list(vendorId, appId) }),
  });
}

/** PUT …/datastores/{id}: name, embedding model. */
export function useUpdateDatastore(vendorId: number, appId: string) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ id, body }: { id: number; body: DatastoreUpdateBody }, signal) =>
      apiRequest<DataEnvelope<Datastore>>(`${appPath(vendorId, appId)}/${id}`, {
        signal,
        method: 'PUT',
        body,
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: datastoreKeys.list(vendorId, appId) }),
  });
}

/**
 * GET /v1/datastores/{id}/docs (paged; `v` is the refresh version). `poll` refetches every
 * 1.5 s (while documents wait for embedding, so their sync dots turn green).
 */
export function useDocuments(
  datastoreId: number,
  page: number,
  pageSize: number,
  version: number,
  poll: boolean,
) {
  return useQuery({
    refetchInterval: poll ? 1500 : false,
    queryKey: [...datastoreKeys.documents(datastoreId), page, pageSize, version] as const,
    meta: LOCAL_ERROR,
    queryFn: () =>
      apiRequest<ListEnvelope<DatastoreDocument>>(`/v1/datastores/${datastoreId}/docs`, {
        query: { page, page_size: pageSize, v: version },
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET /v1/datastores/{id}/status, polled every 1.5 s while documents wait for embedding. */
export function useDatastoreStatus(datastoreId: number) {
  return useQuery({
    queryKey: datastoreKeys.status(datastoreId),
    queryFn: () => apiRequest<DataEnvelope<DatastoreStatus>>(`/v1/datastores/${datastoreId}/status`),
    select: (r) => r.data,
    refetchInterval: (q) => ((q.state.data?.data.pending ?? 0) > 0 ? 1500 : false),
  });
}

/** Refreshes the documents and the status of a datastore after a change. */
function useInvalidateDatastore() {
  const client = useQueryClient();
  return (datastoreId: number) =>
    Promise.all([
      client.invalidateQueries({ queryKey: datastoreKeys.documents(datastoreId) }),
      client.invalidateQueries({ queryKey: datastoreKeys.status(datastoreId) }),
    ]);
}

/**
 * POST /v1/datastores/{id}/docs/upload?mode&name: one file as it is, with upload progress (0–1) → the new
 * documents. Failures are the dialog's to show (not broadcast).
 */
export function useUploadDocuments(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (
      {
        mode,
        file,
        onProgress,
      }: {
        mode: FileImportMode;
        file: File;
        onProgress(sent: number): void;
      },
      signal,
    ) =>
      apiUpload<DataEnvelope<DatastoreDocument[]>>(`/v1/datastores/${datastoreId}/docs/upload`, {
        query: { mode, name: file.name },
        file,
        onProgress,
        signal,
      }),
    onSettled: () => invalidate(datastoreId),
  });
}

/** PUT /v1/datastores/{id}/docs/{docId} {document}. */
export function useUpdateDocument(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: ({ id, document }: { id: number; document: unknown }, signal) =>
      apiRequest<DataEnvelope<DatastoreDocument>>(`/v1/datastores/${datastoreId}/docs/${id}`, {
        signal,
        method: 'PUT',
        body: { document },
      }),
    onSuccess: () => invalidate(datastoreId),
  });
}

/** DELETE /v1/datastores/{id}/docs/{docId}. */
export function useDeleteDocument(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (id: number, signal) =>
      apiRequest<void>(`/v1/datastores/${datastoreId}/docs/${id}`, {
        signal,
        method: 'DELETE',
      }),
    onSuccess: () => invalidate(datastoreId),
  });
}

/** POST /v1/datastores/{id}/truncate → {message} (the success toast). */
export function useTruncateDatastore(datastoreId: number) {
  const invalidate = useInvalidateDatastore();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) =>
      apiRequest<{ message: string }>(`/v1/datastores/${datastoreId}/truncate`, {
        signal,
        method: 'POST',
      }),
    onSuccess: () => invalidate(datastoreId),
  });
}

/** The vendor's embedding models for the picker: GET /v1/vendors/{vendorId}/models/search?type=embedding. */
export function useEmbeddingModels(vendorId: number) {
  return useQuery({
    queryKey: ['datastores', vendorId, 'embedding-models'] as const,
    queryFn: () =>
      apiRequest<VendorModelPicks>(`/v1/vendors/${vendorId}/models/search`, {
        query: { type: 'embedding' },
      }),
    select: (r) => r.data,
  });
}
