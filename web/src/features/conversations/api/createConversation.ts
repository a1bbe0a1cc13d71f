import type { ConversationCreated, CreateConversationBody, DataEnvelope } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';

/** POST /v1/conversations {vendor_app_id, vendor_channel: 'management', parameters: {}} → 201 {data}. */
export async function createConversation(appId: number): Promise<ConversationCreated> {
  const body: CreateConversationBody = { vendor_app_id: appId, vendor_channel: 'management', parameters: {} };
  const answer = await apiRequest<DataEnvelope<ConversationCreated>>('/v1/conversations', {
    method: 'POST',
    body,
  });
  return answer.data;
}
