import type { CheckoutBody, DataEnvelope, RedirectUrl } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { billingPath } from './keys';

/** POST /v1/vendors/{vendorId}/billing/to/checkout: Stripe Checkout for a plan; the answer's URL is where the browser goes next. */
function checkout(
  vendorId: number,
  body: CheckoutBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<RedirectUrl>> {
  return apiRequest<DataEnvelope<RedirectUrl>>(`${billingPath(vendorId)}/to/checkout`, {
    signal,
    method: 'POST',
    body,
  });
}

export function useCheckout(vendorId: number) {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: CheckoutBody, signal) => checkout(vendorId, body, signal),
  });
}
