import type { DataEnvelope, PendingInvitation } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { useAppState } from '../../../lib/appState';
import { accountKeys } from './keys';

/** POST /v1/account/invitations/{vendorId}/accept: joins the vendor. */
export function acceptInvitation(vendorId: number): Promise<DataEnvelope<PendingInvitation>> {
  return apiRequest(`/v1/account/invitations/${vendorId}/accept`, {
    method: 'POST',
    skipDefaultErrorHandler: true,
  });
}

/** Accepts; the vendor list is fetched again so the vendor switcher shows the new vendor at once. */
export function useAcceptInvitation() {
  const client = useQueryClient();
  const { reloadVendors } = useAppState();
  return useMutation({
    mutationFn: acceptInvitation,
    onSuccess: () => reloadVendors(),
    onSettled: () => client.invalidateQueries({ queryKey: accountKeys.invitations() }),
  });
}
