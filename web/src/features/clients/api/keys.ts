import type { ClientsQuery } from '@llmor/contracts';

/** Query keys of the clients feature; `clientKeys.all(vendorId, appId)` covers everything of an app. */
export const clientKeys = {
  all: (vendorId: number, appId: string) => ['clients', vendorId, appId] as const,
  lists: (vendorId: number, appId: string) => [...clientKeys.all(vendorId, appId), 'list'] as const,
  list: (vendorId: number, appId: string, query: ClientsQuery) =>
    [...clientKeys.lists(vendorId, appId), query] as const,
  one: (vendorId: number, appId: string, clientId: number) =>
    [...clientKeys.all(vendorId, appId), clientId] as const,
};

export const clientsPath = (vendorId: number, appId: string) =>
  `/v1/vendors/${vendorId}/apps/${appId}/clients`;
