import type { ModelsListQuery } from '@llmor/contracts';
import { modelDetailKey, vendorModelsKey } from '../../../lib/entities/models';

/** Query keys of the models feature; `modelKeys.all(vendorId)` invalidates everything of a vendor. */
export const modelKeys = {
  all: vendorModelsKey,
  lists: (vendorId: number) => ['models', vendorId, 'list'] as const,
  list: (vendorId: number, query: ModelsListParams) => ['models', vendorId, 'list', query] as const,
  detail: modelDetailKey,
  available: (vendorId: number) => ['models', vendorId, 'available'] as const,
  /** The install form's model list, by the parameters it was asked with (a JSON text). */
  providerModels: (vendorId: number, modelId: string | undefined, asked: string) =>
    ['models', vendorId, 'available', 'provider-models', modelId, asked] as const,
};

export type ModelsListParams = Pick<ModelsListQuery, 'page' | 'page_size' | 'order' | 'order_dir'>;
