import type { AccountUpdateBody, DataEnvelope, User } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { useAppState } from '../../../lib/appState';
import { accountKeys } from './keys';

/** PUT /v1/account {firstname?, lastname?}: the person's own names, shown in every vendor. */
function updateAccount(body: AccountUpdateBody, signal?: AbortSignal): Promise<DataEnvelope<User>> {
  return apiRequest('/v1/account', { signal, method: 'PUT', body });
}

export function useUpdateAccount() {
  const client = useQueryClient();
  const { updateUser } = useAppState();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: updateAccount,
    onSuccess: (answer) => {
      client.setQueryData(accountKeys.me(), answer);
      // The shell's user menu shows the name.
      updateUser(answer.data);
    },
  });
}
