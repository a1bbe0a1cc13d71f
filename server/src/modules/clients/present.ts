import type { ApiClient } from '@llmor/contracts';
import type { ClientRow } from './repo';

export function presentClient(row: ClientRow): ApiClient {
  return {
    id: row.id,
    vendor_id: row.vendorId,
    vendor_app_id: row.vendorAppId,
    active: row.active,
    name: row.name,
    token: row.tokenTail,
    last_used: row.lastUsed?.toISOString() ?? null,
    requets_count: row.requetsCount,
    request_rate_limit: row.requestRateLimit,
    request_rate_interval: row.requestRateInterval,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    modified_at: row.modifiedAt?.toISOString() ?? null,
  };
}
