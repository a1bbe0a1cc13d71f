import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';
import { embedKeys, embedsPath } from './keys';

/** DELETE …/embed/{embedId}. */
function deleteEmbed(vendorId: number, appId: string, embedId: number, signal?: AbortSignal): Promise<void> {
  return apiRequest<void>(`${embedsPath(vendorId, appId)}/${embedId}`, {
    signal,
    method: 'DELETE',
  });
}

export function useDeleteEmbed(vendorId: number, appId: string, embedId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) => deleteEmbed(vendorId, appId, embedId, signal),
    onSuccess: () => {
      client.removeQueries({ queryKey: embedKeys.one(vendorId, appId, embedId) });
      void client.invalidateQueries({ queryKey: embedKeys.lists(vendorId, appId) });
    },
  });
}
