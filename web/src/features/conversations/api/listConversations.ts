import { type ConversationListItem, HISTORY_PAGE_SIZE, type ListEnvelope } from '@llmor/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api/client';
import { LOCAL_ERROR } from '../../../lib/api/dataLayer';
import { conversationKeys } from './keys';

/** GET /v1/conversations?vendor_app_id=&page=&page_size=20&order=id&order_dir=desc (newest first). */
function listConversations(appId: number, page: number): Promise<ListEnvelope<ConversationListItem>> {
  return apiRequest<ListEnvelope<ConversationListItem>>('/v1/conversations', {
    query: { vendor_app_id: appId, page, page_size: HISTORY_PAGE_SIZE, order: 'id', order_dir: 'desc' },
  });
}

const conversationsQueryOptions = (appId: number, page: number) =>
  queryOptions({
    queryKey: conversationKeys.list(appId, page),
    queryFn: () => listConversations(appId, page),
    placeholderData: keepPreviousData,
    staleTime: 0,
    meta: LOCAL_ERROR,
  });

export function useConversations(appId: number, page: number) {
  return useQuery(conversationsQueryOptions(appId, page));
}
