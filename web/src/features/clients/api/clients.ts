import type {
  ApiClient,
  ApiClientCreated,
  ClientBody,
  ClientsQuery,
  DataEnvelope,
  ListEnvelope,
} from '@llmor/contracts';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { listQuery } from '../../../lib/api/query';

/** Query keys of the clients feature. */
export const clientKeys = {
  all: (vendorId: number, appId: string) => ['clients', vendorId, appId] as const,
  list: (vendorId: number, appId: string, query: ClientsQuery) =>
    [...clientKeys.all(vendorId, appId), 'list', query] as const,
  one: (vendorId: number, appId: string, clientId: number) =>
    [...clientKeys.all(vendorId, appId), clientId] as const,
};

const appPath = (vendorId: number, appId: string) => `/v1/vendors/${vendorId}/apps/${appId}/clients`;

/** GET /v1/vendors/{vendorId}/apps/{appId}/clients: sorted, paged. */
export function useClients(vendorId: number, appId: string, query: ClientsQuery) {
  return useQuery({
    queryKey: clientKeys.list(vendorId, appId, query),
    meta: LOCAL_ERROR,
    queryFn: () =>
      apiRequest<ListEnvelope<ApiClient>>(appPath(vendorId, appId), {
        query: listQuery(query),
      }),
    placeholderData: keepPreviousData,
  });
}

/** GET …/clients/{clientId}. */
export function useClient(vendorId: number, appId: string, clientId: number | null) {
  return useQuery({
    queryKey: clientKeys.one(vendorId, appId, clientId ?? 0),
    meta: LOCAL_ERROR,
    queryFn: () => apiRequest<DataEnvelope<ApiClient>>(`${appPath(vendorId, appId)}/${clientId}`),
    select: (r) => r.data,
    enabled: clientId !== null,
    retry: false,
  });
}

/** POST …/clients → the client with its full token (shown once), or PUT …/clients/{clientId}. */
export function useSaveClient(vendorId: number, appId: string, clientId: number | null) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: ClientBody, signal) =>
      clientId === null
        ? apiRequest<DataEnvelope<ApiClientCreated>>(appPath(vendorId, appId), {
            signal,
            method: 'POST',
            body,
          })
        : apiRequest<DataEnvelope<ApiClient>>(`${appPath(vendorId, appId)}/${clientId}`, {
            method: 'PUT',
            body,
          }),
    onSuccess: (answer) => {
      // The stored copy never holds the full token.
      const { full_token: _shownOnce, ...saved } = answer.data as ApiClientCreated;
      client.setQueryData(clientKeys.one(vendorId, appId, saved.id), { data: saved });
      void client.invalidateQueries({ queryKey: [...clientKeys.all(vendorId, appId), 'list'] });
    },
  });
}
