import type { ListEnvelope, QueueJob } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { adminKeys, type QueueHistoryQuery } from './keys';

/** GET /v1/admin/queue/jobs?type=&action=&internal=&page=: the queue monitor's job history. */
function listQueueJobs(query: QueueHistoryQuery | null): Promise<ListEnvelope<QueueJob>> {
  return apiRequest<ListEnvelope<QueueJob>>('/v1/admin/queue/jobs', {
    query: { ...query, page_size: 20 },
  });
}

/** `null` query: not loaded yet (Load history loads it). */
const queueJobsQueryOptions = (query: QueueHistoryQuery | null) =>
  queryOptions({
    queryKey: adminKeys.queue(query),
    meta: LOCAL_ERROR,
    queryFn: () => listQueueJobs(query),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });

export function useQueueJobs(query: QueueHistoryQuery | null) {
  return useQuery(queueJobsQueryOptions(query));
}
