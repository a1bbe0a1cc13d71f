import type { MessageResponse, SmtpTestBody } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';

/** POST /v1/vendors/{vendorId}/settings/smtp/test {to}: a real mail through the vendor's server. */
function testSmtp(vendorId: number, body: SmtpTestBody, signal?: AbortSignal): Promise<MessageResponse> {
  return apiRequest(`/v1/vendors/${vendorId}/settings/smtp/test`, {
    signal,
    method: 'POST',
    body,
  });
}

export function useTestSmtp(vendorId: number) {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: SmtpTestBody, signal) => testSmtp(vendorId, body, signal),
  });
}
