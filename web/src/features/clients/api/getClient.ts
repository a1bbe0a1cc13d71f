import type { ApiClient, DataEnvelope } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { clientKeys, clientsPath } from './keys';

/** GET …/clients/{clientId}. */
function getClient(vendorId: number, appId: string, clientId: number): Promise<DataEnvelope<ApiClient>> {
  return apiRequest<DataEnvelope<ApiClient>>(`${clientsPath(vendorId, appId)}/${clientId}`);
}

const clientQueryOptions = (vendorId: number, appId: string, clientId: number) =>
  queryOptions({
    queryKey: clientKeys.one(vendorId, appId, clientId),
    meta: LOCAL_ERROR,
    queryFn: () => getClient(vendorId, appId, clientId),
    select: (r) => r.data,
    retry: false,
  });

/** `clientId` null: a new client, nothing to load. */
export function useClient(vendorId: number, appId: string, clientId: number | null) {
  return useQuery({ ...clientQueryOptions(vendorId, appId, clientId ?? 0), enabled: clientId !== null });
}
