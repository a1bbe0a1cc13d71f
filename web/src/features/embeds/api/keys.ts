import type { EmbedsQuery } from '@llmor/contracts';

/** Query keys of an app's web embeds; `embedKeys.all(vendorId, appId)` covers everything of an app. */
export const embedKeys = {
  all: (vendorId: number, appId: string) => ['embeds', vendorId, appId] as const,
  lists: (vendorId: number, appId: string) => [...embedKeys.all(vendorId, appId), 'list'] as const,
  list: (vendorId: number, appId: string, query: EmbedsQuery) =>
    [...embedKeys.lists(vendorId, appId), query] as const,
  one: (vendorId: number, appId: string, embedId: number) =>
    [...embedKeys.all(vendorId, appId), embedId] as const,
  code: (vendorId: number, appId: string, embedId: number | null) =>
    [...embedKeys.all(vendorId, appId), embedId, 'code'] as const,
};

export const embedsPath = (vendorId: number, appId: string) => `/v1/vendors/${vendorId}/apps/${appId}/embed`;
