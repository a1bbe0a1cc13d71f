import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';

/** DELETE /v1/vendors/{vendorId}/apps/{appId} → 204. Errors become a toast, not a banner. */
export function deleteApp(vendorId: number, appId: number): Promise<void> {
  return apiRequest<void>(`/v1/vendors/${vendorId}/apps/${appId}`, {
    method: 'DELETE',
    skipDefaultErrorHandler: true,
  });
}

export function useDeleteApp() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ vendorId, appId }: { vendorId: number; appId: number }) => deleteApp(vendorId, appId),
    onSuccess: (_r, { vendorId }) => client.invalidateQueries({ queryKey: ['apps', vendorId, 'list'] }),
  });
}
