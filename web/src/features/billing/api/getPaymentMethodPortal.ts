import type { DataEnvelope, RedirectUrl } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { billingPath } from './keys';

/** GET /v1/vendors/{vendorId}/billing/to/payment-method: Stripe's billing portal; the answer's URL is where the browser goes next. */
function getPaymentMethodPortal(vendorId: number): Promise<DataEnvelope<RedirectUrl>> {
  return apiRequest<DataEnvelope<RedirectUrl>>(`${billingPath(vendorId)}/to/payment-method`);
}

/** A mutation, not a query: each click asks for a fresh portal session. */
export function usePaymentMethodPortal(vendorId: number) {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: () => getPaymentMethodPortal(vendorId),
  });
}
