import type { DataEnvelope, Embed } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { embedKeys, embedsPath } from './keys';

/** GET …/embed/{embedId} (token masked). */
function getEmbed(vendorId: number, appId: string, embedId: number): Promise<DataEnvelope<Embed>> {
  return apiRequest<DataEnvelope<Embed>>(`${embedsPath(vendorId, appId)}/${embedId}`);
}

const embedQueryOptions = (vendorId: number, appId: string, embedId: number) =>
  queryOptions({
    queryKey: embedKeys.one(vendorId, appId, embedId),
    meta: LOCAL_ERROR,
    queryFn: () => getEmbed(vendorId, appId, embedId),
    select: (answer) => answer.data,
    retry: false,
  });

/** `embedId` null: a new embed, nothing to load. */
export function useEmbed(vendorId: number, appId: string, embedId: number | null) {
  return useQuery({ ...embedQueryOptions(vendorId, appId, embedId ?? 0), enabled: embedId !== null });
}
