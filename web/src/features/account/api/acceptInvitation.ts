import type { DataEnvelope, PendingInvitation } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { useAppState } from '../../../lib/appState';
import { accountKeys } from './keys';

/** POST /v1/account/invitations/{vendorId}/accept: joins the vendor. */
function acceptInvitation(vendorId: number, signal?: AbortSignal): Promise<DataEnvelope<PendingInvitation>> {
  return apiRequest(`/v1/account/invitations/${vendorId}/accept`, {
    signal,
    method: 'POST',
  });
}

/** Accepts; the vendor list is fetched again so the vendor switcher shows the new vendor at once. */
export function useAcceptInvitation() {
  const client = useQueryClient();
  const { reloadVendors } = useAppState();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: acceptInvitation,
    onSuccess: () => reloadVendors(),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.invitations() }),
  });
}
