import type { BillingAddress, BillingAddressBody, DataEnvelope } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { billingKeys, billingPath } from './keys';

/** PUT /v1/vendors/{vendorId}/billing/address. */
function saveBillingAddress(
  vendorId: number,
  body: BillingAddressBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<BillingAddress>> {
  return apiRequest<DataEnvelope<BillingAddress>>(`${billingPath(vendorId)}/address`, {
    signal,
    method: 'PUT',
    body,
  });
}

export function useSaveBillingAddress(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: BillingAddressBody, signal) => saveBillingAddress(vendorId, body, signal),
    onSuccess: (answer) => client.setQueryData(billingKeys.address(vendorId), answer),
  });
}
