import type { ConversationWithMessages } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';

/** GET /v1/conversations/{token} → {conversation, data: messages}. */
export function getConversation(token: string): Promise<ConversationWithMessages> {
  return apiRequest<ConversationWithMessages>(`/v1/conversations/${encodeURIComponent(token)}`);
}
