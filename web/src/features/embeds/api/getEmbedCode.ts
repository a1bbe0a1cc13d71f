import type { DataEnvelope, EmbedCode } from '@llmor/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { embedKeys, embedsPath } from './keys';

/**
 * GET …/embed/{embedId}/code: the token in full and the script's URL, for the copy and Embed Code actions;
 * fetched when asked for, never kept in the cache.
 */
export function getEmbedCode(vendorId: number, appId: string, embedId: number): Promise<EmbedCode> {
  return apiRequest<DataEnvelope<EmbedCode>>(`${embedsPath(vendorId, appId)}/${embedId}/code`).then(
    (answer) => answer.data,
  );
}

/** The embed's code for the open modal only (embedId null: closed); the full token is not kept once it closes. */
export function useEmbedCode(vendorId: number, appId: string, embedId: number | null) {
  return useQuery({
    queryKey: embedKeys.code(vendorId, appId, embedId),
    meta: LOCAL_ERROR,
    queryFn: () => getEmbedCode(vendorId, appId, embedId!),
    enabled: embedId !== null,
    gcTime: 0,
    retry: false,
  });
}
