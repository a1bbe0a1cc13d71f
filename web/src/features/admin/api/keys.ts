import type { AdminVendorsQuery } from '@llmor/contracts';

/** The queue monitor's history filter. */
export interface QueueHistoryQuery {
  type: 'all' | 'ping' | 'custom';
  action?: string;
  /** Also housekeeping jobs (hidden by default). */
  internal: boolean;
  page: number;
}

/** Query keys of the admin feature (superusers only). */
export const adminKeys = {
  vendors: ['admin', 'vendors'] as const,
  vendorList: (query: AdminVendorsQuery) => ['admin', 'vendors', query] as const,
  vendor: (id: number) => ['admin', 'vendors', id] as const,
  queues: ['admin', 'queue'] as const,
  queue: (query: QueueHistoryQuery | null) => ['admin', 'queue', query] as const,
};
