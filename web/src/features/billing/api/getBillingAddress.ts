import type { BillingAddress, DataEnvelope } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { billingKeys, billingPath } from './keys';

/** GET /v1/vendors/{vendorId}/billing/address. */
function getBillingAddress(vendorId: number): Promise<DataEnvelope<BillingAddress>> {
  return apiRequest<DataEnvelope<BillingAddress>>(`${billingPath(vendorId)}/address`);
}

const billingAddressQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: billingKeys.address(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => getBillingAddress(vendorId),
  });

export function useBillingAddress(vendorId: number) {
  return useQuery(billingAddressQueryOptions(vendorId));
}
