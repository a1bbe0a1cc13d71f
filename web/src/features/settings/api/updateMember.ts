import type { DataEnvelope, Member, MemberUpdateBody } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { settingsKeys } from './keys';

/** PUT /v1/vendors/{vendorId}/users/{userId}: names, role, active (409 when no owner would be left). */
export function updateMember(
  vendorId: number,
  userId: number,
  body: MemberUpdateBody,
): Promise<DataEnvelope<Member>> {
  return apiRequest(`/v1/vendors/${vendorId}/users/${userId}`, {
    method: 'PUT',
    body,
    skipDefaultErrorHandler: true,
  });
}

export function useUpdateMember(vendorId: number, userId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberUpdateBody) => updateMember(vendorId, userId, body),
    onSuccess: (answer) => {
      client.setQueryData(settingsKeys.member(vendorId, userId), answer);
      void client.invalidateQueries({ queryKey: settingsKeys.members(vendorId) });
    },
  });
}
