import type { ConversationWithMessages } from '@llmor/contracts';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from '../../../lib/api/client';

/** GET /v1/conversations/{token} → {conversation, data: messages}. */
export function getConversation(token: string): Promise<ConversationWithMessages> {
  return apiRequest<ConversationWithMessages>(`/v1/conversations/${encodeURIComponent(token)}`);
}

export const conversationKey = (token: string) => ['conversations', 'one', token] as const;

export const conversationQueryOptions = (token: string) =>
  queryOptions({ queryKey: conversationKey(token), queryFn: () => getConversation(token), staleTime: 0 });

/**
 * Loads a conversation through the query cache on demand: the view decides when (on navigation, after
 * `completion.finished`), because the relay streams into the same messages in between.
 */
export function useLoadConversation() {
  const queryClient = useQueryClient();
  return useCallback(
    (token: string) => queryClient.fetchQuery(conversationQueryOptions(token)),
    [queryClient],
  );
}
