import type { ListEnvelope, QueueJob } from '@llmor/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, type NoVariables, useApiMutation } from '../../../lib/api/dataLayer';

// The queue monitor's calls (superusers only): job history and the ping job.

export interface QueueHistoryQuery {
  type: 'all' | 'ping' | 'custom';
  action?: string;
  /** Also housekeeping jobs (hidden by default). */
  internal: boolean;
  page: number;
}

/** GET /v1/admin/queue/jobs?type=&action=&page=; `null` query: not loaded yet (Load history loads it). */
export function useQueueJobs(query: QueueHistoryQuery | null) {
  return useQuery({
    queryKey: ['admin', 'queue', query] as const,
    meta: LOCAL_ERROR,
    queryFn: () =>
      apiRequest<ListEnvelope<QueueJob>>('/v1/admin/queue/jobs', {
        query: { ...query, page_size: 20 },
      }),
    enabled: query !== null,
    placeholderData: keepPreviousData,
  });
}

/** POST /v1/admin/queue/ping → 202 {data: {id}}. */
export function useTriggerPing() {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (_: NoVariables, signal) =>
      apiRequest<{ data: { id: string } }>('/v1/admin/queue/ping', {
        signal,
        method: 'POST',
      }),
  });
}
