import {
  type Conversation,
  type ConversationChannel,
  type ConversationListItem,
  type FunctionCall,
  type Locale,
  localize,
  type Message,
  type MessageRole,
  type MessageSource,
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

/**
 * The error entries of an answer in `locale`: stored as the catalogue's English (a provider's failure,
 * an interrupted reply), read in the console's language (docs/adr/0030). Other messages are as written.
 */
export function errorsInLocale<T extends { data: Message[] }>(answer: T, locale: Locale | undefined): T {
  if (!locale) return answer;
  const data = answer.data.map((m) =>
    m.role === 'error' && m.message ? { ...m, message: localize(m.message, locale) } : m,
  );
  return { ...answer, data };
}
