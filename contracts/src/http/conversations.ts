import { z } from 'zod';
import { english } from '../messages-en';
import { digitsParam, idField, idParam, listQuery, localeQuery } from './common';
import { documentSourceSchema } from './datastores';

/** Channels a conversation can be opened on (docs/reference/api.md). Console users may only open `management`. */
const CONVERSATION_CHANNELS = ['management', 'api', 'embed', 'slack'] as const;
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
    .max(MESSAGE_MAX_CHARS, english('messageTooLong', { limit: MESSAGE_MAX_CHARS }))
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

const MESSAGE_ROLES = ['user', 'assistant', 'system', 'tool', 'error'] as const;
export type MessageRole = (typeof MESSAGE_ROLES)[number];

const functionCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.unknown() });
export type FunctionCall = z.infer<typeof functionCallSchema>;

/**
 * A datastore passage an assistant answer was given (a chatbot with `use_datastores`): which datastore
 * and document, the passage's text, its search score and where the document came from.
 */
export const messageSourceSchema = z.object({
  datastore: z.string(),
  document_id: z.number().int(),
  text: z.string(),
  score: z.number(),
  source: documentSourceSchema.nullable(),
});
export type MessageSource = z.infer<typeof messageSourceSchema>;

/** A stored message. Tool messages carry the answered call's id in `function_response` and the JSON result in `message`. */
const messageSchema = z.object({
  id: z.number().int(),
  role: z.enum(MESSAGE_ROLES),
  creator: z.enum(['system', 'user']),
  message: z.string().nullable(),
  created_at: z.string(),
  has_been_modified: z.boolean(),
  versions: z.array(z.unknown()),
  function_calls: z.array(functionCallSchema),
  function_response: z.string().nullable(),
  /** Assistant answers: the datastore passages the answer was given, best first (empty otherwise). */
  sources: z.array(messageSourceSchema),
});
export type Message = z.infer<typeof messageSchema>;

const conversationSchema = z.object({
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

/**
 * `POST /v1/conversations` → 201 `{data: ConversationCreated}`; `messages` holds the greeting if the app has one.
 * While the vendor's plan has no requests or tokens left, 402 code 60 (the send's text) and nothing opened.
 */
export const conversationCreatedSchema = conversationSchema.extend({ messages: z.array(messageSchema) });
export type ConversationCreated = z.infer<typeof conversationCreatedSchema>;

/** Messages in a page of `GET /v1/conversations/{token}` unless `limit` says otherwise, and the most one holds. */
const MESSAGES_PAGE_DEFAULT = 50;
const MESSAGES_PAGE_MAX = 200;

/**
 * `GET /v1/conversations/{token}?cursor=&limit=` (docs/adr/0026-messages-contract.md): pages of messages,
 * newest page first. Without `cursor` the newest `limit` messages; with the `next_cursor` of a page, the
 * `limit` messages before that page. A cursor is opaque to callers.
 */
export const conversationMessagesQuery = localeQuery.extend({
  cursor: idParam.optional(),
  limit: digitsParam(MESSAGES_PAGE_MAX).pipe(z.number().min(1)).default(MESSAGES_PAGE_DEFAULT),
});
export type ConversationMessagesQuery = z.infer<typeof conversationMessagesQuery>;

/**
 * A page of `GET /v1/conversations/{token}`: the conversation as it is now, the page's messages oldest
 * first, and the cursor of the page before it (null on the oldest page).
 */
export const conversationPageSchema = z.object({
  conversation: conversationSchema,
  data: z.array(messageSchema),
  next_cursor: z.string().nullable(),
});
export type ConversationPage = z.infer<typeof conversationPageSchema>;

/**
 * The answer of `POST /v1/conversations/{token}`: the conversation as the reply left it and the messages
 * this send added, oldest first (the user's message, then the reply's), not the whole history.
 */
export const messageSentSchema = z.object({
  conversation: conversationSchema,
  data: z.array(messageSchema),
});
export type MessageSent = z.infer<typeof messageSentSchema>;

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
