import type { ConversationCreated, CreateConversationBody, DataEnvelope } from '@llmor/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR, useApiMutation } from '../../../lib/api/dataLayer';
import { conversationKeys } from './keys';

/** POST /v1/conversations {vendor_app_id, vendor_channel: 'management', parameters: {}} → 201 {data}. */
async function createConversation(appId: number, signal?: AbortSignal): Promise<ConversationCreated> {
  const body: CreateConversationBody = { vendor_app_id: appId, vendor_channel: 'management', parameters: {} };
  // The view reports a failure as an error message; no banner as well.
  const answer = await apiRequest<DataEnvelope<ConversationCreated>>('/v1/conversations', {
    signal,
    method: 'POST',
    body,
  });
  return answer.data;
}

/** Opens a conversation; the app's history list refreshes. */
export function useCreateConversation() {
  const queryClient = useQueryClient();
  return useApiMutation({
    meta: LOCAL_ERROR,
    mutationFn: createConversation,
    onSuccess: (_created, appId) =>
      queryClient.invalidateQueries({ queryKey: conversationKeys.lists(appId) }),
  });
}
