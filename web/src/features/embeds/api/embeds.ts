import type {
  DataEnvelope,
  Embed,
  EmbedBody,
  EmbedCode,
  EmbedsQuery,
  EmbedUpdateBody,
  ListEnvelope,
} from '@llmor/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';

// An app's web embeds: list, one, create (answers the token in full, once), update, delete, and the
// token on demand for the copy and Embed Code actions (contracts/src/http/embeds.ts).

export const embedKeys = {
  all: (vendorId: number, appId: string) => ['embeds', vendorId, appId] as const,
  list: (vendorId: number, appId: string, query: EmbedsQuery) =>
    [...embedKeys.all(vendorId, appId), 'list', query] as const,
  one: (vendorId: number, appId: string, embedId: number) =>
    [...embedKeys.all(vendorId, appId), embedId] as const,
};

const embedsPath = (vendorId: number, appId: string) => `/v1/vendors/${vendorId}/apps/${appId}/embed`;

export function useEmbeds(vendorId: number, appId: string, query: EmbedsQuery) {
  return useQuery({
    queryKey: embedKeys.list(vendorId, appId, query),
    meta: LOCAL_ERROR,
    queryFn: () =>
      apiRequest<ListEnvelope<Embed>>(embedsPath(vendorId, appId), {
        query: listQuery(query),
      }),
    placeholderData: keepPreviousData,
  });
}

export function useEmbed(vendorId: number, appId: string, embedId: number | null) {
  return useQuery({
    queryKey: embedKeys.one(vendorId, appId, embedId ?? 0),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<DataEnvelope<Embed>>(`${embedsPath(vendorId, appId)}/${embedId}`),
    select: (answer) => answer.data,
    enabled: embedId !== null,
    retry: false,
  });
}

/** The token in full and the script's URL; fetched when asked for, never kept in the cache. */
export function fetchEmbedCode(vendorId: number, appId: string, embedId: number): Promise<EmbedCode> {
  return apiRequest<DataEnvelope<EmbedCode>>(`${embedsPath(vendorId, appId)}/${embedId}/code`).then(
    (answer) => answer.data,
  );
}

/** The embed's code for the open modal only (embedId null: closed); the full token is not kept once it closes. */
export function useEmbedCode(vendorId: number, appId: string, embedId: number | null) {
  return useQuery({
    queryKey: ['embeds', vendorId, appId, embedId, 'code'],
    meta: LOCAL_ERROR,
    queryFn: () => fetchEmbedCode(vendorId, appId, embedId!),
    enabled: embedId !== null,
    gcTime: 0,
    retry: false,
  });
}

/** POST (embedId null) → the embed with its full token, or PUT …/embed/{embedId}. */
export function useSaveEmbed(vendorId: number, appId: string, embedId: number | null) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: EmbedBody | EmbedUpdateBody, signal) =>
      apiRequest<DataEnvelope<Embed>>(
        embedId === null ? embedsPath(vendorId, appId) : `${embedsPath(vendorId, appId)}/${embedId}`,
        { signal, method: embedId === null ? 'POST' : 'PUT', body },
      ),
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: [...embedKeys.all(vendorId, appId), 'list'] });
      // Only the masked token is cached: a created embed is read again, as the list and GET show it.
      if (embedId === null) return;
      client.setQueryData(embedKeys.one(vendorId, appId, answer.data.id), answer);
    },
  });
}

export function useDeleteEmbed(vendorId: number, appId: string, embedId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) =>
      apiRequest<void>(`${embedsPath(vendorId, appId)}/${embedId}`, {
        signal,
        method: 'DELETE',
      }),
    onSuccess: () => {
      client.removeQueries({ queryKey: embedKeys.one(vendorId, appId, embedId) });
      void client.invalidateQueries({ queryKey: [...embedKeys.all(vendorId, appId), 'list'] });
    },
  });
}
