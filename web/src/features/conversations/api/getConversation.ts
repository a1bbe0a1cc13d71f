import type { ConversationPage } from '@llmor/contracts';
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
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

/**
 * A conversation's newest page. The screen decides when it is fetched again (after `completion.finished`, on
 * rejoining the relay), because the relay streams into the same messages in between; opening the
 * conversation again fetches it anew.
 */
export const conversationQueryOptions = (token: string, load = getConversation) =>
  queryOptions({
    queryKey: conversationKeys.detail(token),
    queryFn: () => load(token),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
    // Every answer is a new page to apply, even one equal to the last.
    structuralSharing: false,
  });

/**
 * The pages before a conversation's newest one, fetched one at a time from `cursor` (the newest page's
 * `next_cursor`) when the user scrolls to the top (docs/adr/0026-messages-contract.md).
 */
export const olderMessagesQueryOptions = (
  token: string,
  cursor: string | null,
  loadOlder: (token: string, cursor: string) => Promise<ConversationPage> = getConversation,
) =>
  infiniteQueryOptions({
    queryKey: conversationKeys.olderPages(token),
    queryFn: ({ pageParam }) => loadOlder(token, pageParam),
    initialPageParam: cursor ?? '',
    getNextPageParam: (page) => page.next_cursor ?? undefined,
    // Only asked for by scrolling; opening the conversation again starts from its newest page.
    enabled: false,
    gcTime: 0,
    retry: false,
    // A page that did not load stays a button to try again; no banner.
    meta: LOCAL_ERROR,
  });
