/** Query keys of the datastores feature. */
export const datastoreKeys = {
  list: (vendorId: number, appId: string) => ['datastores', vendorId, appId] as const,
  embeddingModels: (vendorId: number) => ['datastores', vendorId, 'embedding-models'] as const,
  documents: (datastoreId: number) => ['datastore', datastoreId, 'docs'] as const,
  documentPage: (datastoreId: number, page: number, pageSize: number, version: number) =>
    ['datastore', datastoreId, 'docs', page, pageSize, version] as const,
  status: (datastoreId: number) => ['datastore', datastoreId, 'status'] as const,
};

export const datastoresPath = (vendorId: number, appId: string) =>
  `/v1/vendors/${vendorId}/apps/${appId}/datastores`;

export const datastorePath = (datastoreId: number) => `/v1/datastores/${datastoreId}`;
