import type { MessageResponse, SmtpTestBody } from '@llmor/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';

/** POST /v1/vendors/{vendorId}/settings/smtp/test {to}: a real mail through the vendor's server. */
export function testSmtp(vendorId: number, body: SmtpTestBody): Promise<MessageResponse> {
  return apiRequest(`/v1/vendors/${vendorId}/settings/smtp/test`, {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
  });
}

export function useTestSmtp(vendorId: number) {
  return useMutation({ mutationFn: (body: SmtpTestBody) => testSmtp(vendorId, body) });
}
