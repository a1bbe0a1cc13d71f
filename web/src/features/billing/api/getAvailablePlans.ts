import type { DataEnvelope, Plan } from '@llmor/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { billingKeys, billingPath } from './keys';

/** GET /v1/vendors/{vendorId}/billing/available_subs: the plans the vendor may choose. */
function getAvailablePlans(vendorId: number): Promise<DataEnvelope<Plan[]>> {
  return apiRequest<DataEnvelope<Plan[]>>(`${billingPath(vendorId)}/available_subs`);
}

const availablePlansQueryOptions = (vendorId: number) =>
  queryOptions({
    queryKey: billingKeys.plans(vendorId),
    meta: LOCAL_ERROR,
    queryFn: () => getAvailablePlans(vendorId),
  });

export function useAvailablePlans(vendorId: number) {
  return useQuery(availablePlansQueryOptions(vendorId));
}
