import type { MessageResponse, PasswordForgotBody } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';

/** POST /v1/auth/password/forgot: the same answer whether or not the address has an account. */
function forgotPassword(body: PasswordForgotBody, signal?: AbortSignal): Promise<MessageResponse> {
  return apiRequest('/v1/auth/password/forgot', { signal, method: 'POST', body });
}

/** Errors are shown by the form. */
export function useForgotPassword() {
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: PasswordForgotBody, signal) => forgotPassword(body, signal),
  });
}
