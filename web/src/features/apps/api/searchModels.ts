import type { DataEnvelope, VendorModelPick } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { modelQueryOptions } from '../../../lib/entities/models';

/** GET /v1/vendors/{vendorId}/models/search?type=chat_completion&search= → {data: VendorModelPick[]} (≤ 20). */
export async function searchCompletionModels(vendorId: number, search: string): Promise<VendorModelPick[]> {
  const r = await apiRequest<DataEnvelope<VendorModelPick[]>>(`/v1/vendors/${vendorId}/models/search`, {
    query: { type: 'chat_completion', search: search.trim() || undefined },
  });
  return r.data;
}

/** The chosen model, to label the picker (it may not be in a search page). */
const pickedModelQueryOptions = (vendorId: number, id: number) =>
  queryOptions({
    ...modelQueryOptions(vendorId, id),
    select: (r): VendorModelPick => ({
      id: r.data.id,
      name: r.data.name,
      image: r.data.image,
      cost_per_1k_formatted: r.data.cost_per_1k_formatted,
    }),
  });

export function usePickedModel(vendorId: number, id: number | null) {
  return useQuery({ ...pickedModelQueryOptions(vendorId, id ?? 0), enabled: id !== null });
}
