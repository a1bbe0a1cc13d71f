import type { DataEnvelope, VendorSettings } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { settingsKeys } from './keys';

/** GET /v1/vendors/{vendorId}/settings (owners). Secrets only say whether they are set. */
function getSettings(vendorId: number): Promise<DataEnvelope<VendorSettings>> {
  return apiRequest(`/v1/vendors/${vendorId}/settings`);
}

const settingsQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: settingsKeys.settings(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => getSettings(vendorId),
  });

export function useSettings(vendorId: number) {
  return useQuery(settingsQueryOptions(vendorId));
}
