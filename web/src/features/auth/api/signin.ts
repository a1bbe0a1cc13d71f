import type { DataEnvelope, SigninBody, User } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { authKeys } from './keys';

/** POST /v1/auth/signin {identifier, secret} → {data: user}. Errors are shown by the form, not banners. */
function signin(body: SigninBody, signal?: AbortSignal): Promise<DataEnvelope<User>> {
  return apiRequest<DataEnvelope<User>>('/v1/auth/signin', {
    signal,
    method: 'POST',
    body,
  });
}

const signinMutationOptions = () => ({
  mutationKey: authKeys.signin,
  meta: LOCAL_ERROR,
  mutationFn: signin,
});

export function useSignin() {
  return useApiMutation(signinMutationOptions());
}
