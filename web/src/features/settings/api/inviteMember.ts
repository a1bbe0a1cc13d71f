import type { MemberInviteBody, MemberInvited } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { settingsKeys } from './keys';

/** POST /v1/vendors/{vendorId}/users: mailed, or `invite_url` answered once when no mail server is set up. */
function inviteMember(
  vendorId: number,
  body: MemberInviteBody,
  signal?: AbortSignal,
): Promise<MemberInvited> {
  return apiRequest(`/v1/vendors/${vendorId}/users`, { signal, method: 'POST', body });
}

export function useInviteMember(vendorId: number) {
  const client = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: (body: MemberInviteBody, signal) => inviteMember(vendorId, body, signal),
    onSuccess: () => client.invalidateQueries({ queryKey: settingsKeys.members(vendorId) }),
  });
}
