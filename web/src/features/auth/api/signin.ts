import type { DataEnvelope, SigninBody, User } from '@llmor/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';

/** POST /v1/auth/signin {identifier, secret} → {data: user}. Errors are shown by the form, not banners. */
export function signin(body: SigninBody): Promise<DataEnvelope<User>> {
  return apiRequest<DataEnvelope<User>>('/v1/auth/signin', {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
  });
}

export const signinMutationOptions = () => ({ mutationKey: ['auth', 'signin'] as const, mutationFn: signin });

export function useSignin() {
  return useMutation(signinMutationOptions());
}
