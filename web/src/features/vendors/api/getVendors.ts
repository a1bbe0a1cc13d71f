import type { ListEnvelope, Vendor } from '@llmor/contracts';
import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { vendorKeys } from './keys';

/** GET /v1/vendors → the vendors the signed-in user works for. */
function getVendors(): Promise<ListEnvelope<Vendor>> {
  return apiRequest<ListEnvelope<Vendor>>('/v1/vendors');
}

export const vendorsQueryOptions = () => queryOptions({ queryKey: vendorKeys.all, queryFn: getVendors });
