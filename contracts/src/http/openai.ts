/**
 * The OpenAI-compatible endpoint (docs/reference/api.md "Reaching an app from outside"): any OpenAI SDK pointed at
 * `{PUBLIC_URL}/v1/openai` with an API client's token (`Authorization: Bearer llmor_…`) talks to the
 * client's app — chatbot, oneshot, silicon alike, with its tools and datastores.
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | POST /v1/openai/chat/completions | `chatCompletionBody` | `ChatCompletion`, or with `stream: true` SSE `data: ChatCompletionChunk` lines then `data: [DONE]` |
 * | GET /v1/openai/models | – | `{object: 'list', data: [OpenAiModel]}` (the client's app) |
 * | GET /v1/openai/models/{model} | – | `OpenAiModel` when `model` is the client's app, else 404 |
 * | POST /v1/openai/responses | `responsesBody` | `OpenAiResponse`, or with `stream: true` SSE events `response.created`, `response.output_text.delta`…, `response.completed` |
 *
 * `messages` is either a whole history (stored in a new `api` conversation; the last message, which must
 * be the user's, is answered; no message longer than `MESSAGE_MAX_CHARS`) or, with the header
 * `X-Conversation: <token>`, only the new message for a stored conversation of that client. `system` and
 * `developer` messages (and the Responses API's `instructions`) are the caller's instructions for this
 * reply: the model reads them after the app's own prompt, which they never replace; they are not stored. Every answer names its conversation in `X-Conversation`. The app's
 * own prompt, model, tools and datastores apply; request fields for them (`temperature`, `tools`, …) are
 * ignored. Errors: `{"error": {"message", "type", "param", "code"}}`, also for any other path or method under
 * `/v1/openai` (404, 405 with `Allow`).
 *
 * llmor's extension: a finished answer carries `sources`, the datastore passages the app's answer was
 * given (`MessageSource[]`, as on the stored assistant message; empty without datastores) — on the
 * `chat.completion`, on the stream's finishing chunk, and on the completed `response`. OpenAI's SDKs
 * keep unknown fields, so `completion.sources` is readable as it is.
 */
import { z } from 'zod';
import { MESSAGE_MAX_CHARS, messageSourceSchema } from './conversations';

export const CONVERSATION_HEADER = 'x-conversation';
export const LAST_MESSAGE_NOT_USER = 'The last message must be a user message with text.';

/** `content` as OpenAI sends it: text, or a list of parts of which the text parts count. */
const content = z.union([
  z.string(),
  z.array(z.object({ type: z.string(), text: z.string().optional() })),
  z.null(),
]);

const openAiMessage = z.object({
  role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function'], {
    error: 'Must be one of: system, developer, user, assistant, tool, function',
  }),
  content: content.optional(),
});
export type OpenAiMessage = z.infer<typeof openAiMessage>;

/** Text parts: Chat Completions' `text`, the Responses API's `input_text` and `output_text`. */
const TEXT_PARTS = ['text', 'input_text', 'output_text'];

/** The text of a message: a string, or its text parts joined (other parts are not kept). */
export function openAiMessageText(message: OpenAiMessage): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((part) => TEXT_PARTS.includes(part.type) && typeof part.text === 'string')
    .map((part) => part.text)
    .join('');
}

const messageTooLong = (max: number) => `At most ${max.toLocaleString('en-US')} characters`;

/** A request's messages, each held to the conversation API's cap (`MESSAGE_MAX_CHARS`, the whole history alike). */
function refineMessages(messages: OpenAiMessage[], issue: z.RefinementCtx, path: (string | number)[] = []) {
  messages.forEach((message, i) => {
    if (openAiMessageText(message).length > MESSAGE_MAX_CHARS) {
      issue.addIssue({
        code: 'custom',
        path: [...path, i, 'content'],
        message: messageTooLong(MESSAGE_MAX_CHARS),
      });
    }
  });
}

const openAiMessages = z
  .array(openAiMessage)
  .min(1, 'At least one message')
  .max(1000)
  .superRefine((messages, issue) => refineMessages(messages, issue));

export const chatCompletionBody = z.object({
  /** Echoed back; the client's app answers whatever it names. */
  model: z.string().max(200).optional(),
  messages: openAiMessages,
  stream: z.boolean().nullish(),
  stream_options: z.object({ include_usage: z.boolean().nullish() }).nullish(),
});
export type ChatCompletionBody = z.infer<typeof chatCompletionBody>;

const openAiUsageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});
export type OpenAiUsage = z.infer<typeof openAiUsageSchema>;

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: z.literal('stop'),
    }),
  ),
  usage: openAiUsageSchema,
  /** llmor's extension: the passages the answer was given. */
  sources: z.array(messageSourceSchema),
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** One `data:` line of a streamed answer. */
const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: z.literal('stop').nullable(),
    }),
  ),
  usage: openAiUsageSchema.nullable().optional(),
  /** llmor's extension, on the chunk with `finish_reason: "stop"`: the passages the answer was given. */
  sources: z.array(messageSourceSchema).optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

export const openAiModelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
});
export type OpenAiModel = z.infer<typeof openAiModelSchema>;
/** `GET /v1/openai/models/{model}`: the model id as OpenAI's SDKs send it (the app's name). */
export const openAiModelParam = z.object({ model: z.string().min(1).max(200) });
export const openAiModelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(openAiModelSchema),
});
export type OpenAiModelList = z.infer<typeof openAiModelListSchema>;

export const openAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string(),
    param: z.string().nullable(),
    code: z.string().nullable(),
  }),
});
export type OpenAiError = z.infer<typeof openAiErrorSchema>;

// ------------------------------------------------------------------------------------------------
// The Responses API: POST /v1/openai/responses
// ------------------------------------------------------------------------------------------------

/**
 * `POST /v1/openai/responses`: `input` is text (one user message) or messages (`input_text` /
 * `output_text` parts); `previous_response_id` continues that response's conversation; `instructions`
 * (like system and developer messages) are the caller's for this reply, after the app's prompt (ADR 0024).
 * Other fields are accepted and ignored.
 */
export const responsesBody = z
  .object({
    model: z.string().max(200).optional(),
    input: z.union([z.string(), z.array(openAiMessage).min(1, 'At least one message').max(1000)], {
      error: 'Must be text or a list of messages',
    }),
    instructions: z.string().max(MESSAGE_MAX_CHARS, messageTooLong(MESSAGE_MAX_CHARS)).nullish(),
    stream: z.boolean().nullish(),
    previous_response_id: z.string().max(300).nullish(),
  })
  .superRefine((body, issue) => {
    if (typeof body.input === 'string') {
      if (body.input.length > MESSAGE_MAX_CHARS) {
        issue.addIssue({ code: 'custom', path: ['input'], message: messageTooLong(MESSAGE_MAX_CHARS) });
      }
    } else refineMessages(body.input, issue, ['input']);
  });
export type ResponsesBody = z.infer<typeof responsesBody>;

const openAiResponseUsageSchema = z.object({
  input_tokens: z.number().int(),
  input_tokens_details: z.object({ cached_tokens: z.number().int() }),
  output_tokens: z.number().int(),
  output_tokens_details: z.object({ reasoning_tokens: z.number().int() }),
  total_tokens: z.number().int(),
});

export const openAiResponseSchema = z.object({
  id: z.string(),
  object: z.literal('response'),
  created_at: z.number().int(),
  status: z.enum(['in_progress', 'completed']),
  model: z.string(),
  output: z.array(
    z.object({
      id: z.string(),
      type: z.literal('message'),
      status: z.literal('completed'),
      role: z.literal('assistant'),
      content: z.array(
        z.object({ type: z.literal('output_text'), text: z.string(), annotations: z.array(z.unknown()) }),
      ),
    }),
  ),
  parallel_tool_calls: z.boolean(),
  tool_choice: z.literal('auto'),
  tools: z.array(z.unknown()),
  previous_response_id: z.string().nullable(),
  /** The request's `instructions`, echoed as OpenAI does. */
  instructions: z.string().nullable(),
  error: z.null(),
  incomplete_details: z.null(),
  usage: openAiResponseUsageSchema.nullable(),
  /** llmor's extension, once completed: the passages the answer was given. */
  sources: z.array(messageSourceSchema).optional(),
});
export type OpenAiResponse = z.infer<typeof openAiResponseSchema>;
