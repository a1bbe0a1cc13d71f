import type { DataEnvelope, Member, MemberUpdateBody } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { settingsKeys } from './keys';

/** PUT /v1/vendors/{vendorId}/users/{userId}: names, role, active (409 when no owner would be left). */
function updateMember(
  vendorId: number,
  userId: number,
  body: MemberUpdateBody,
  signal?: AbortSignal,
): Promise<DataEnvelope<Member>> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}`, {
    signal,
    method: 'PUT',
    body,
  });
}

export function useUpdateMember(vendorId: number, userId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: MemberUpdateBody, signal) => updateMember(vendorId, userId, body, signal),
    onSuccess: (answer) => {
      client.setQueryData(settingsKeys.member(vendorId, userId), answer);
      void client.invalidateQueries({ queryKey: settingsKeys.members(vendorId) });
    },
  });
}
