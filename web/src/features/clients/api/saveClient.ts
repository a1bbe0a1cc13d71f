import type { ApiClient, ApiClientCreated, ClientBody, DataEnvelope } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { clientKeys, clientsPath } from './keys';

/** POST …/clients (`clientId` null) → the client with its full token (shown once), or PUT …/clients/{clientId}. */
function saveClient(
  vendorId: number,
  appId: string,
  clientId: number | null,
  body: ClientBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<ApiClientCreated | ApiClient>> {
  return clientId === null
    ? apiRequest<DataEnvelope<ApiClientCreated>>(clientsPath(vendorId, appId), {
        signal,
        method: 'POST',
        body,
      })
    : apiRequest<DataEnvelope<ApiClient>>(`${clientsPath(vendorId, appId)}/${clientId}`, {
        signal,
        method: 'PUT',
        body,
      });
}

export function useSaveClient(vendorId: number, appId: string, clientId: number | null) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: ClientBody, signal) => saveClient(vendorId, appId, clientId, body, signal),
    onSuccess: (answer) => {
      // The stored copy never holds the full token.
      const { full_token: _shownOnce, ...saved } = answer.data as ApiClientCreated;
      client.setQueryData(clientKeys.one(vendorId, appId, saved.id), { data: saved });
      void client.invalidateQueries({ queryKey: clientKeys.lists(vendorId, appId) });
    },
  });
}
