import type { AccountUpdateBody, DataEnvelope, User } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { useAppState } from '../../../lib/appState';
import { accountKeys } from './keys';

/** PUT /v1/account {firstname?, lastname?}: the person's own names, shown in every vendor. */
export function updateAccount(body: AccountUpdateBody): Promise<DataEnvelope<User>> {
  return apiRequest('/v1/account', { method: 'PUT', body, skipDefaultErrorHandler: true });
}

export function useUpdateAccount() {
  const client = useQueryClient();
  const { updateUser } = useAppState();
  return useMutation({
    mutationFn: updateAccount,
    onSuccess: (answer) => {
      client.setQueryData(accountKeys.me(), answer);
      // The shell's user menu shows the name.
      updateUser(answer.data);
    },
  });
}
