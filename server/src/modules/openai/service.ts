/**
 * The OpenAI-compatible endpoint (contracts/src/http/openai.ts, ADR 0012). A thin adapter: the reply
 * goes through the conversation service's `startReply`, the same path as `POST /v1/conversations/{token}`
 * (plan limits, usage, the relay, storage); its streamed text is translated to OpenAI's wire format as it
 * comes, and its outcome (text, usage, error) makes the answer (docs/adr/0026).
 */
import {
  type ChatCompletion,
  type ChatCompletionBody,
  type ChatCompletionChunk,
  CONVERSATION_HEADER,
  ErrorName,
  LAST_MESSAGE_NOT_USER,
  type MessageSource,
  type OpenAiMessage,
  type OpenAiModel,
  type OpenAiModelList,
  type OpenAiResponse,
  type OpenAiUsage,
  openAiMessageText,
  type ResponsesBody,
} from '@llmor/contracts';
import type { FastifyReply } from 'fastify';
import { randomToken } from '../../platform/crypto';
import { AppError, validationError } from '../../platform/errors';
import { errorStatus } from '../../platform/http/errors';
import type { TraceContext } from '../../platform/tracing';
import type { ClientCaller } from '../conversations/access';
import type { AppRow, ConversationContext, ReplyOutcome, ReplySink } from '../conversations/ports';
import type { ConversationWithApp, NewMessage } from '../conversations/repo';
import {
  openConversationWithHistory,
  requireConversationWithApp,
  startReply,
} from '../conversations/service';
import { vendorApp } from '../vendors/owned';
import { openAiError } from './present';
import { SseStream } from './sse';

export interface CompletionRequest {
  caller: ClientCaller;
  body: ChatCompletionBody;
  /** `X-Conversation`: continue this stored conversation instead of storing `messages` as a new one. */
  conversationToken?: string;
  /** The request's trace: the reply's span goes under it (tracing on). */
  trace?: TraceContext;
}

const unixNow = () => Math.floor(Date.now() / 1000);

/** The app the client belongs to. */
const appOf = (ctx: ConversationContext, caller: ClientCaller) =>
  vendorApp(ctx.db, caller.vendor.id, caller.appId);

/** The model name the client's app goes by (any name is accepted and echoed back). */
const modelIdOf = (app: AppRow) => app.name;

const modelOf = (app: AppRow, caller: ClientCaller): OpenAiModel => ({
  id: modelIdOf(app),
  object: 'model',
  created: Math.floor(app.createdAt.getTime() / 1000),
  owned_by: caller.vendor.key,
});

/** `GET /v1/openai/models`: the client's app, as the one model this key reaches. */
export async function listModels(ctx: ConversationContext, caller: ClientCaller): Promise<OpenAiModelList> {
  return { object: 'list', data: [modelOf(await appOf(ctx, caller), caller)] };
}

/** `GET /v1/openai/models/{model}`: the client's app when `model` names it, else 404. */
export async function retrieveModel(
  ctx: ConversationContext,
  caller: ClientCaller,
  model: string,
): Promise<OpenAiModel> {
  const app = await appOf(ctx, caller);
  if (modelIdOf(app) !== model) {
    throw new AppError(
      ErrorName.NotFound,
      `The model '${model}' does not exist or you do not have access to it.`,
    );
  }
  return modelOf(app, caller);
}

/** The model name to echo: the request's, else the app's. */
const echoedModel = (app: AppRow, model?: string): string => model ?? modelIdOf(app);

/** One call's messages, whichever API brought them: `field` names them in errors (`messages`, `input`). */
interface Turn {
  caller: ClientCaller;
  messages: OpenAiMessage[];
  field: string;
  /** Continue this stored conversation instead of storing `messages` as a new one. */
  conversationToken?: string;
  /** The caller's system and developer texts (and `instructions`): read after the app's prompt, not stored. */
  instructions?: string;
  trace?: TraceContext;
}

/** The texts of the caller's system and developer messages, in order, with any `instructions` first. */
function instructionsOf(messages: OpenAiMessage[], instructions?: string | null): string | undefined {
  const texts = messages.filter((m) => m.role === 'system' || m.role === 'developer').map(openAiMessageText);
  const all = [instructions ?? '', ...texts].filter((text) => text.trim());
  return all.length ? all.join('\n\n') : undefined;
}

const chatTurn = (request: CompletionRequest): Turn => {
  const instructions = instructionsOf(request.body.messages);
  return {
    caller: request.caller,
    messages: request.body.messages,
    field: 'messages',
    trace: request.trace,
    ...(request.conversationToken !== undefined ? { conversationToken: request.conversationToken } : {}),
    ...(instructions ? { instructions } : {}),
  };
};

/**
 * History messages as stored: user and assistant text; tool traffic is not kept, nor the caller's system
 * and developer messages (instructions for the one reply, ADR 0024).
 */
function storedForm(message: OpenAiMessage): NewMessage | null {
  const text = openAiMessageText(message);
  if (!text.trim()) return null;
  switch (message.role) {
    case 'user':
      return { role: 'user', creator: 'user', message: text };
    case 'assistant':
      return { role: 'assistant', creator: 'system', message: text };
    default:
      return null;
  }
}

/**
 * The conversation to answer in — continued, or opened with the call's history — with its app, the app's
 * completion model, the plan in force and the user's new message (docs/adr/0046).
 */
async function prepare(
  ctx: ConversationContext,
  turn: Turn,
): Promise<ConversationWithApp & { content: string }> {
  const { caller, messages } = turn;
  const last = messages.at(-1)!;
  const content = openAiMessageText(last);
  if (last.role !== 'user' || !content.trim()) {
    throw validationError(
      { [`${turn.field}.${messages.length - 1}`]: LAST_MESSAGE_NOT_USER },
      LAST_MESSAGE_NOT_USER,
    );
  }
  if (turn.conversationToken !== undefined) {
    return { ...(await requireConversationWithApp(ctx, caller, turn.conversationToken)), content };
  }
  const opened = await openConversationWithHistory(
    ctx,
    caller,
    { vendor_app_id: caller.appId, vendor_channel: 'api', parameters: {} },
    messages.slice(0, -1).flatMap((message) => storedForm(message) ?? []),
  );
  return { ...opened, content };
}

/**
 * Runs the reply to its end (the caller asked for this answer, so no sync window applies) and answers what
 * it did; `stream` hears its events as it runs. A failed reply throws its stored error.
 */
async function runReply(
  ctx: ConversationContext,
  request: Turn,
  { conversation, app, model, plan, content }: Awaited<ReturnType<typeof prepare>>,
  stream?: ReplySink,
): Promise<ReplyOutcome> {
  const { done } = await startReply(ctx, {
    caller: request.caller,
    conversation,
    content,
    read: { app, model, plan },
    sinks: stream && [stream],
    instructions: request.instructions,
    trace: request.trace,
  });
  const outcome = await done;
  if (outcome.error !== null) throw new AppError(ErrorName.InternalServerError, outcome.error);
  return outcome;
}

/** The passages the reply's stored answer keeps (docs/adr/0032-document-import-and-sources.md). */
const sourcesOf = ({ messages }: ReplyOutcome): MessageSource[] =>
  (messages.findLast((m) => m.role === 'assistant')?.sources as MessageSource[] | null | undefined) ?? [];

const openAiUsage = ({ usage }: ReplyOutcome): OpenAiUsage => ({
  prompt_tokens: usage.promptTokens,
  completion_tokens: usage.completionTokens,
  total_tokens: usage.promptTokens + usage.completionTokens,
});

export async function chatCompletion(
  ctx: ConversationContext,
  request: CompletionRequest,
): Promise<{ completion: ChatCompletion; conversation: string }> {
  const turn = chatTurn(request);
  const prepared = await prepare(ctx, turn);
  const model = echoedModel(prepared.app, request.body.model);
  const { conversation } = prepared;
  const outcome = await runReply(ctx, turn, prepared);
  return {
    conversation: conversation.token,
    completion: {
      id: `chatcmpl-${randomToken(18)}`,
      object: 'chat.completion',
      created: unixNow(),
      model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: outcome.text, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: openAiUsage(outcome),
      sources: sourcesOf(outcome),
    },
  };
}

/** A reply that failed after its stream opened, as the OpenAI error its stream ends with. */
function streamFailure(ctx: ConversationContext, err: unknown) {
  if (!(err instanceof AppError)) ctx.log.error({ err }, 'streamed reply failed');
  const failure =
    err instanceof AppError ? err : new AppError(ErrorName.InternalServerError, 'Internal server error');
  return openAiError(failure.toBody(), errorStatus(failure.name));
}

/**
 * `stream: true`: a role chunk, one chunk per text piece as the app streams it, a finish chunk, the usage
 * chunk when `stream_options.include_usage`, then `[DONE]`. A reply that fails after text was sent ends
 * with an error event (the OpenAI SDKs raise it); one that fails before answers an ordinary error.
 */
export async function streamCompletion(
  ctx: ConversationContext,
  request: CompletionRequest,
  reply: FastifyReply,
): Promise<void> {
  const turn = chatTurn(request);
  const prepared = await prepare(ctx, turn);
  const model = echoedModel(prepared.app, request.body.model);
  const { conversation } = prepared;
  const includeUsage = request.body.stream_options?.include_usage === true;
  const base = {
    id: `chatcmpl-${randomToken(18)}`,
    object: 'chat.completion.chunk',
    created: unixNow(),
    model,
  } as const;
  const chunk = (
    delta: ChatCompletionChunk['choices'][number]['delta'],
    finish: 'stop' | null,
  ): ChatCompletionChunk => ({
    ...base,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  let sse: SseStream | undefined;
  const opened = (): SseStream => {
    if (sse) return sse;
    sse = SseStream.open(reply, { [CONVERSATION_HEADER]: conversation.token });
    sse.data(chunk({ role: 'assistant', content: '' }, null));
    return sse;
  };
  // The answer's text as it streams, one chunk per piece.
  const texts: ReplySink = {
    event: (event) => {
      if (event.kind === 'text') opened().data(chunk({ content: event.chunk }, null));
    },
  };
  let outcome: ReplyOutcome;
  try {
    outcome = await runReply(ctx, turn, prepared, texts);
  } catch (err) {
    if (!sse) throw err;
    sse.data(streamFailure(ctx, err));
    sse.done();
    return;
  }
  const stream = opened();
  stream.data({ ...chunk({}, 'stop'), sources: sourcesOf(outcome) });
  if (includeUsage) stream.data({ ...base, choices: [], usage: openAiUsage(outcome) });
  stream.done();
}

// ------------------------------------------------------------------------------------------------
// The Responses API
// ------------------------------------------------------------------------------------------------

export interface ResponsesRequest {
  caller: ClientCaller;
  body: ResponsesBody;
  trace?: TraceContext;
}

/**
 * A response id names its conversation: 16 random characters, then the conversation's token (the
 * capability the client already holds from `X-Conversation`), so `previous_response_id` needs no table.
 */
const RESPONSE_ID = /^resp_[A-Za-z0-9_-]{16}([A-Za-z0-9_-]{16,128})$/;
const responseIdOf = (conversationToken: string) => `resp_${randomToken(12)}${conversationToken}`;

function responsesTurn(request: ResponsesRequest): Turn {
  const { body } = request;
  const messages: OpenAiMessage[] =
    typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : body.input;
  const previous = body.previous_response_id;
  const conversationToken = previous ? RESPONSE_ID.exec(previous)?.[1] : undefined;
  if (previous && !conversationToken) throw previousNotFound(previous);
  const instructions = instructionsOf(messages, body.instructions);
  return {
    caller: request.caller,
    messages,
    field: 'input',
    trace: request.trace,
    ...(conversationToken ? { conversationToken } : {}),
    ...(instructions ? { instructions } : {}),
  };
}

const previousNotFound = (id: string) =>
  new AppError(ErrorName.NotFound, `Previous response with id '${id}' not found.`);

/** `prepare`, answering an unknown `previous_response_id` as OpenAI does. */
async function prepareResponse(ctx: ConversationContext, request: ResponsesRequest, turn: Turn) {
  try {
    return await prepare(ctx, turn);
  } catch (err) {
    const previous = request.body.previous_response_id;
    if (previous && err instanceof AppError && err.name === ErrorName.NotFound)
      throw previousNotFound(previous);
    throw err;
  }
}

/** The answer's one output item: a message with one text part. */
const outputText = (text: string) => ({ type: 'output_text' as const, text, annotations: [] });
const messageItem = (itemId: string, text: string): OpenAiResponse['output'][number] => ({
  id: itemId,
  type: 'message',
  status: 'completed',
  role: 'assistant',
  content: [outputText(text)],
});

/** The response object as it stands: in progress (no output yet) or completed with the text and usage. */
function responseObject(
  base: {
    id: string;
    created_at: number;
    model: string;
    previous_response_id: string | null;
    instructions: string | null;
  },
  done: { itemId: string; outcome: ReplyOutcome } | null,
): OpenAiResponse {
  return {
    ...base,
    object: 'response',
    status: done ? 'completed' : 'in_progress',
    output: done ? [messageItem(done.itemId, done.outcome.text)] : [],
    parallel_tool_calls: false,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    usage: done
      ? {
          input_tokens: done.outcome.usage.promptTokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: done.outcome.usage.completionTokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: done.outcome.usage.promptTokens + done.outcome.usage.completionTokens,
        }
      : null,
    ...(done && { sources: sourcesOf(done.outcome) }),
  };
}

async function startResponse(ctx: ConversationContext, request: ResponsesRequest) {
  const turn = responsesTurn(request);
  const prepared = await prepareResponse(ctx, request, turn);
  const model = echoedModel(prepared.app, request.body.model);
  const base = {
    id: responseIdOf(prepared.conversation.token),
    created_at: unixNow(),
    model,
    previous_response_id: request.body.previous_response_id ?? null,
    instructions: request.body.instructions ?? null,
  };
  return { turn, prepared, base, itemId: `msg_${randomToken(18)}` };
}

/** `POST /v1/openai/responses`: the same reply path as Chat Completions, in the Responses API's shape. */
export async function createResponse(
  ctx: ConversationContext,
  request: ResponsesRequest,
): Promise<{ response: OpenAiResponse; conversation: string }> {
  const { turn, prepared, base, itemId } = await startResponse(ctx, request);
  const outcome = await runReply(ctx, turn, prepared);
  return {
    conversation: prepared.conversation.token,
    response: responseObject(base, { itemId, outcome }),
  };
}

/**
 * `stream: true`, OpenAI's event sequence: `response.created`, the message item and its text part opened
 * (`response.output_item.added`, `response.content_part.added` — the AI SDK starts its text there), one
 * `response.output_text.delta` per text piece as the app streams it, then `response.output_text.done`,
 * `response.content_part.done`, `response.output_item.done` and `response.completed` with the usage. Opened lazily like the Chat
 * Completions stream; a reply failing after it opened ends with an `error` event (the SDKs raise it).
 */
export async function streamResponse(
  ctx: ConversationContext,
  request: ResponsesRequest,
  reply: FastifyReply,
): Promise<void> {
  const { turn, prepared, base, itemId } = await startResponse(ctx, request);
  let sequence = 0;
  let sse: SseStream | undefined;
  const send = (type: string, data: Record<string, unknown>) =>
    opened().event(type, { type, sequence_number: sequence++, ...data });
  const opened = (): SseStream => {
    if (sse) return sse;
    sse = SseStream.open(reply, { [CONVERSATION_HEADER]: prepared.conversation.token });
    sse.event('response.created', {
      type: 'response.created',
      sequence_number: sequence++,
      response: responseObject(base, null),
    });
    const opening = { ...messageItem(itemId, ''), status: 'in_progress', content: [] };
    send('response.output_item.added', { output_index: 0, item: opening });
    send('response.content_part.added', { ...at, part: outputText('') });
    return sse;
  };
  const at = { item_id: itemId, output_index: 0, content_index: 0 };
  // The answer's text as it streams, one delta per piece.
  const deltas: ReplySink = {
    event: (event) => {
      if (event.kind === 'text')
        send('response.output_text.delta', { ...at, delta: event.chunk, logprobs: [] });
    },
  };
  let outcome: ReplyOutcome;
  try {
    outcome = await runReply(ctx, turn, prepared, deltas);
  } catch (err) {
    if (!sse) throw err;
    const { error } = streamFailure(ctx, err);
    send('error', { ...error, error });
    sse.end();
    return;
  }
  const { text } = outcome;
  send('response.output_text.done', { ...at, text, logprobs: [] });
  send('response.content_part.done', { ...at, part: outputText(text) });
  send('response.output_item.done', { output_index: 0, item: messageItem(itemId, text) });
  send('response.completed', { response: responseObject(base, { itemId, outcome }) });
  opened().end();
}
