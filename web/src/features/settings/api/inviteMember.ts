import type { MemberInviteBody, MemberInvited } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { settingsKeys } from './keys';

/** POST /v1/vendors/{vendorId}/users: mailed, or `invite_url` answered once when no mail server is set up. */
export function inviteMember(vendorId: number, body: MemberInviteBody): Promise<MemberInvited> {
  return apiRequest(`/v1/vendors/${vendorId}/users`, { method: 'POST', body, skipDefaultErrorHandler: true });
}

export function useInviteMember(vendorId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberInviteBody) => inviteMember(vendorId, body),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.members(vendorId) }),
  });
}
