import type {
  Conversation,
  ConversationChannel,
  ConversationListItem,
  FunctionCall,
  Message,
  MessageRole,
  MessageSource,
} from '@llmor/contracts';
import type { ConversationListRow, ConversationRow, MessageRow } from './repo';

export function presentMessage(row: MessageRow): Message {
  return {
    id: row.id,
    role: row.role as MessageRole,
    creator: row.creator === 'user' ? 'user' : 'system',
    message: row.message,
    created_at: row.createdAt.toISOString(),
    has_been_modified: row.hasBeenModified,
    versions: Array.isArray(row.versions) ? row.versions : [],
    function_calls: Array.isArray(row.functionCalls) ? (row.functionCalls as FunctionCall[]) : [],
    function_response: row.functionResponse,
    sources: Array.isArray(row.sources) ? (row.sources as MessageSource[]) : [],
  };
}

export function presentConversation(row: ConversationRow, relayUrl: string): Conversation {
  return {
    id: row.id,
    token: row.token,
    created_at: row.createdAt.toISOString(),
    vendor_app_id: row.appId,
    channel: row.channel as ConversationChannel,
    parameters: (row.parameters ?? {}) as Record<string, unknown>,
    relay_url: relayUrl,
    state: (row.state ?? {}) as Record<string, unknown>,
  };
}

export function presentListItem(row: ConversationListRow): ConversationListItem {
  return {
    id: row.id,
    token: row.token,
    created_at: row.createdAt.toISOString(),
    vendor_app_id: row.appId,
    channel: row.channel as ConversationChannel,
    message_count: row.messageCount,
  };
}
