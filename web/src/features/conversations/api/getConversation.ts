import type { ConversationPage } from '@llmor/contracts';
import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { apiRequest } from '../../../lib/api/client';
import { conversationKeys } from './keys';

/**
 * GET /v1/conversations/{token}[?cursor=] → {conversation, data: a page of messages, next_cursor}: the
 * newest page, or with a page's `next_cursor` the page before it (docs/adr/0026-messages-contract.md).
 */
export function getConversation(token: string, cursor?: string): Promise<ConversationPage> {
  return apiRequest<ConversationPage>(`/v1/conversations/${encodeURIComponent(token)}`, {
    query: cursor ? { cursor } : undefined,
  });
}

export const conversationQueryOptions = (token: string) =>
  queryOptions({
    queryKey: conversationKeys.detail(token),
    queryFn: () => getConversation(token),
    staleTime: 0,
  });

/**
 * Loads a conversation's newest page through the query cache on demand: the view decides when (on
 * navigation, after `completion.finished`), because the relay streams into the same messages in between.
 */
export function useLoadConversation() {
  const queryClient = useQueryClient();
  return useCallback(
    (token: string) => queryClient.fetchQuery(conversationQueryOptions(token)),
    [queryClient],
  );
}
