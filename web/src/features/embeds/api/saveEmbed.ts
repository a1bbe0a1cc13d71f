import type { DataEnvelope, Embed, EmbedBody, EmbedUpdateBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { embedKeys, embedsPath } from './keys';

/** POST …/embed (`embedId` null) → the embed with its full token (once), or PUT …/embed/{embedId}. */
function saveEmbed(
  vendorId: number,
  appId: string,
  embedId: number | null,
  body: EmbedBody | EmbedUpdateBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<Embed>> {
  return apiRequest<DataEnvelope<Embed>>(
    embedId === null ? embedsPath(vendorId, appId) : `${embedsPath(vendorId, appId)}/${embedId}`,
    { signal, method: embedId === null ? 'POST' : 'PUT', body },
  );
}

export function useSaveEmbed(vendorId: number, appId: string, embedId: number | null) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: EmbedBody | EmbedUpdateBody, signal) =>
      saveEmbed(vendorId, appId, embedId, body, signal),
    onSuccess: (answer) => {
      void client.invalidateQueries({ queryKey: embedKeys.lists(vendorId, appId) });
      // Only the masked token is cached: a created embed is read again, as the list and GET show it.
      if (embedId === null) return;
      client.setQueryData(embedKeys.one(vendorId, appId, answer.data.id), answer);
    },
  });
}
