import { z } from 'zod';
import { message } from '../messages';
import { idField, idParam, listQuery } from './common';

/** Channels a conversation can be opened on (spec 01 §7). Console users may only open `management`. */
export const CONVERSATION_CHANNELS = ['management', 'api', 'embed', 'slack'] as const;
export type ConversationChannel = (typeof CONVERSATION_CHANNELS)[number];

/** Longest message a user may send (characters). */
export const MESSAGE_MAX_CHARS = 100_000;

/** `POST /v1/conversations` */
export const createConversationBody = z.object({
  vendor_app_id: idField,
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
    .max(MESSAGE_MAX_CHARS, message('messageTooLong', { limit: MESSAGE_MAX_CHARS }))
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

export const functionCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });
export type FunctionCall = z.infer<typeof functionCallSchema>;

/** A stored message. Tool messages carry the answered call's id in `function_response` and the JSON result in `message`. */
export const messageSchema = z.object({
  id: z.number().int(),
  role: z.enum(MESSAGE_ROLES),
  creator: z.enum(['system', 'user']),
  message: z.string().nullable(),
  created_at: z.string(),
  has_been_modified: z.boolean(),
  versions: z.array(z.unknown()),
  function_calls: z.array(functionCallSchema),
  function_response: z.string().nullable(),
});
export type Message = z.infer<typeof messageSchema>;

export const conversationSchema = z.object({
  id: z.number().int(),
  token: z.string(),
  created_at: z.string(),
  vendor_app_id: z.number().int(),
  channel: z.enum(CONVERSATION_CHANNELS),
  parameters: z.record(z.string(), z.unknown()),
  /** socket.io origin + path, e.g. `https://llmor.example/stream` (connect with `path: '/stream'`). */
  relay_url: z.string(),
  state: z.record(z.string(), z.unknown()),
});
export type Conversation = z.infer<typeof conversationSchema>;

/** `POST /v1/conversations` → 201 `{data: ConversationCreated}`; `messages` holds the greeting if the app has one. */
export const conversationCreatedSchema = conversationSchema.extend({ messages: z.array(messageSchema) });
export type ConversationCreated = z.infer<typeof conversationCreatedSchema>;

/** `GET /v1/conversations/{token}` and the answer of `POST /v1/conversations/{token}`. */
export const conversationWithMessagesSchema = z.object({
  conversation: conversationSchema,
  data: z.array(messageSchema),
});
export type ConversationWithMessages = z.infer<typeof conversationWithMessagesSchema>;

/** An item of `GET /v1/conversations`. */
export const conversationListItemSchema = z.object({
  id: z.number().int(),
  token: z.string(),
  created_at: z.string(),
  vendor_app_id: z.number().int(),
  channel: z.enum(CONVERSATION_CHANNELS),
  message_count: z.number().int(),
});
export type ConversationListItem = z.infer<typeof conversationListItemSchema>;
