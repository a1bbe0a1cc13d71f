import type { ConversationCreated, CreateConversationBody, DataEnvelope } from '@llmor/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { conversationsKey } from './listConversations';

/** POST /v1/conversations {vendor_app_id, vendor_channel: 'management', parameters: {}} → 201 {data}. */
export async function createConversation(appId: number): Promise<ConversationCreated> {
  const body: CreateConversationBody = { vendor_app_id: appId, vendor_channel: 'management', parameters: {} };
  // The view reports a failure as an error message; no banner as well.
  const answer = await apiRequest<DataEnvelope<ConversationCreated>>('/v1/conversations', {
    method: 'POST',
    body,
    skipDefaultErrorHandler: true,
  });
  return answer.data;
}

/** Opens a conversation; the app's history list refreshes. */
export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createConversation,
    onSuccess: (_created, appId) => queryClient.invalidateQueries({ queryKey: conversationsKey(appId) }),
  });
}
