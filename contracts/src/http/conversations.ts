import { z } from 'zod';
import { idParam, listQuery } from './common';

/** Channels a conversation can be opened on (spec 01 §7). Console users may only open `management`. */
export const CONVERSATION_CHANNELS = ['management', 'api', 'embed', 'slack'] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];

/** Longest message a user may send (characters). */
export const MESSAGE_MAX_CHARS = 100_000;

/** `POST /v1/conversations` */
export const createConversationBody = z.object({
  vendor_app_id: idParam,
  vendor_channel: z.enum(CONVERSATION_CHANNELS),
  parameters: z.record(z.string(), z.unknown()).default({}),
});
export type CreateConversationBody = z.infer<typeof createConversationBody>;

/**
 * Path `{token}` of the conversation calls. Tokens are URL-safe base64 (≥ 128-bit random); anything
 * else cannot name a conversation and answers 404.
 */
export const conversationTokenParam = z.object({ token: z.string().regex(/^[A-Za-z0-9_-]{16,128}$/) });

/** `POST /v1/conversations/{token}`: the user's message; blank text answers 400. */
export const sendMessageBody = z.object({
  content: z
    .string()
    .max(MESSAGE_MAX_CHARS)
    .refine((v) => v.trim() !== '', 'The message must not be blank.'),
});
export type SendMessageBody = z.infer<typeof sendMessageBody>;

/** `GET /v1/conversations?vendor_app_id=&page=&page_size=&order=id&order_dir=desc` (newest first by default). */
export const listConversationsQuery = listQuery(['id', 'created_at']).extend({
  vendor_app_id: idParam.optional(),
  /** Sent by the console; ignored. */
  version: z.string().optional(),
});
export type ListConversationsQuery = z.infer<typeof listConversationsQuery>;

export const MESSAGE_ROLES = ['user', 'assistant', 'system', 'tool', 'error'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

export interface FunctionCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** A stored message. Tool messages carry the answered call's id in `function_response` and the JSON result in `message`. */
export interface Message {
  id: number;
  role: MessageRole;
  creator: 'system' | 'user';
  message: string | null;
  created_at: string;
  has_been_modified: boolean;
  versions: unknown[];
  function_calls: FunctionCall[];
  function_response: string | null;
}

export interface Conversation {
  id: number;
  token: string;
  created_at: string;
  vendor_app_id: number;
  channel: ConversationChannel;
  parameters: Record<string, unknown>;
  /** socket.io origin + path, e.g. `https://llmor.example/stream` (connect with `path: '/stream'`). */
  relay_url: string;
  state: Record<string, unknown>;
}

/** `POST /v1/conversations` → 201 `{data: ConversationCreated}`; `messages` holds the greeting if the app has one. */
export interface ConversationCreated extends Conversation {
  messages: Message[];
}

/** `GET /v1/conversations/{token}` and the answer of `POST /v1/conversations/{token}`. */
export interface ConversationWithMessages {
  conversation: Conversation;
  data: Message[];
}

/** An item of `GET /v1/conversations`. */
export interface ConversationListItem {
  id: number;
  token: string;
  created_at: string;
  vendor_app_id: number;
  channel: ConversationChannel;
  message_count: number;
}
