import type { ModelsListQuery } from '@llmor/contracts';

/** Query keys of the models feature; `modelKeys.all(vendorId)` invalidates everything of a vendor. */
export const modelKeys = {
  all: (vendorId: number) => ['models', vendorId] as const,
  lists: (vendorId: number) => ['models', vendorId, 'list'] as const,
  list: (vendorId: number, query: ModelsListParams) => ['models', vendorId, 'list', query] as const,
  detail: (vendorId: number, id: string) => ['models', vendorId, 'detail', id] as const,
  available: (vendorId: number) => ['models', vendorId, 'available'] as const,
};

export type ModelsListParams = Pick<ModelsListQuery, 'page' | 'page_size' | 'order' | 'order_dir'>;
