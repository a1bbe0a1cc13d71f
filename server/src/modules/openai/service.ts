/**
 * The OpenAI-compatible endpoint (contracts/src/http/openai.ts, ADR 0012). A thin adapter: the reply
 * goes through the conversation service's `sendMessage`, the same path as `POST /v1/conversations/{token}`
 * (plan limits, usage, the relay, storage), and its relay events are translated to OpenAI's wire format.
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
  RelayMessageType,
  type ResponsesBody,
} from '@llmor/contracts';
import type { FastifyReply } from 'fastify';
import { randomToken } from '../../platform/crypto';
import { AppError, validationError } from '../../platform/errors';
import { errorStatus } from '../../platform/http/errors';
import type { ClientCaller } from '../conversations/access';
import type { AppRow, ConversationContext, ReplyObserver } from '../conversations/ports';
import { type ConversationRow, insertMessages, type NewMessage } from '../conversations/repo';
import {
  conversationWithMessages,
  openConversation,
  requireConversationWithApp,
  sendMessage,
} from '../conversations/service';
import { vendorApp } from '../vendors/owned';
import { openAiError } from './present';
import { SseStream } from './sse';

export interface CompletionRequest {
  caller: ClientCaller;
  body: ChatCompletionBody;
  /** `X-Conversation`: continue this stored conversation instead of storing `messages` as a new one. */
  conversationToken?: string;
  relayUrl: string;
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
async function echoedModel(ctx: ConversationContext, caller: ClientCaller, model?: string): Promise<string> {
  return model ?? modelIdOf(await appOf(ctx, caller));
}

/** One call's messages, whichever API brought them: `field` names them in errors (`messages`, `input`). */
interface Turn {
  caller: ClientCaller;
  messages: OpenAiMessage[];
  field: string;
  /** Continue this stored conversation instead of storing `messages` as a new one. */
  conversationToken?: string;
  /** The caller's system and developer texts (and `instructions`): read after the app's prompt, not stored. */
  instructions?: string;
  relayUrl: string;
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
    relayUrl: request.relayUrl,
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

/** The conversation to answer in, its app and the user's new message. */
async function prepare(
  ctx: ConversationContext,
  turn: Turn,
): Promise<{ conversation: ConversationRow; app: AppRow; content: string }> {
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
  const { conversation, app } = await openConversation(
    ctx,
    caller,
    { vendor_app_id: caller.appId, vendor_channel: 'api', parameters: {} },
    { greet: false },
  );
  const history = messages.slice(0, -1).flatMap((message) => storedForm(message) ?? []);
  await insertMessages(ctx.db, caller.vendor.id, conversation.id, history);
  return { conversation, app, content };
}

/** Collects what a reply publishes: its text as it streams, its usage, its end. */
class ReplyTap {
  text = '';
  readonly usage: OpenAiUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  private endedResolve!: () => void;
  readonly ended = new Promise<void>((resolve) => {
    this.endedResolve = resolve;
  });

  constructor(private readonly onText?: (chunk: string) => void) {}

  readonly observe: ReplyObserver = (type, data) => {
    if (type === RelayMessageType.completionStream) {
      const chunk = (data as { chunk?: unknown }).chunk;
      if (typeof chunk === 'string' && chunk) {
        this.text += chunk;
        this.onText?.(chunk);
      }
    } else if (type === RelayMessageType.debug) {
      // The engine reports each model request's usage as debug data (completion/chat.ts recordUsage).
      const { tokens_prompt, tokens_completion } = data as Record<string, unknown>;
      if (typeof tokens_prompt === 'number' && typeof tokens_completion === 'number') {
        this.usage.prompt_tokens += tokens_prompt;
        this.usage.completion_tokens += tokens_completion;
        this.usage.total_tokens += tokens_prompt + tokens_completion;
      }
    } else if (type === RelayMessageType.completionEnded) this.endedResolve();
  };
}

/**
 * Runs the reply; a reply past the sync window is awaited to its end here (the caller asked for this
 * answer), so only a failure to start it throws. Answers the reply's text and the sources its stored
 * answer keeps, or throws its stored error.
 */
async function runReply(
  ctx: ConversationContext,
  request: Turn,
  { conversation, app, content }: Awaited<ReturnType<typeof prepare>>,
  tap: ReplyTap,
): Promise<{ text: string; sources: MessageSource[] }> {
  let answer: Awaited<ReturnType<typeof sendMessage>>;
  try {
    answer = await sendMessage(ctx, request.caller, conversation, content, {
      app,
      relayUrl: request.relayUrl,
      observe: tap.observe,
      ...(request.instructions ? { instructions: request.instructions } : {}),
    });
  } catch (err) {
    if (!(err instanceof AppError && err.name === ErrorName.GatewayTimeout)) throw err;
    await tap.ended;
    answer = await conversationWithMessages(ctx, conversation, request.relayUrl);
  }
  // What the reply stored after the user's message: an error message means it failed.
  const lastUser = answer.data.findLastIndex((m) => m.role === 'user');
  const failure = answer.data.slice(lastUser + 1).find((m) => m.role === 'error');
  if (failure) throw new AppError(ErrorName.InternalServerError, failure.message ?? 'The reply failed.');
  const stored = answer.data.slice(lastUser + 1).findLast((m) => m.role === 'assistant');
  return { text: tap.text, sources: stored?.sources ?? [] };
}

export async function chatCompletion(
  ctx: ConversationContext,
  request: CompletionRequest,
): Promise<{ completion: ChatCompletion; conversation: string }> {
  const model = await echoedModel(ctx, request.caller, request.body.model);
  const turn = chatTurn(request);
  const prepared = await prepare(ctx, turn);
  const { conversation } = prepared;
  const tap = new ReplyTap();
  const { text, sources } = await runReply(ctx, turn, prepared, tap);
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
          message: { role: 'assistant', content: text, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: tap.usage,
      sources,
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
  const model = await echoedModel(ctx, request.caller, request.body.model);
  const turn = chatTurn(request);
  const prepared = await prepare(ctx, turn);
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
  const tap = new ReplyTap((text) => opened().data(chunk({ content: text }, null)));
  let sources: MessageSource[];
  try {
    ({ sources } = await runReply(ctx, turn, prepared, tap));
  } catch (err) {
    if (!sse) throw err;
    sse.data(streamFailure(ctx, err));
    sse.done();
    return;
  }
  const stream = opened();
  stream.data({ ...chunk({}, 'stop'), sources });
  if (includeUsage) stream.data({ ...base, choices: [], usage: tap.usage });
  stream.done();
}

// ------------------------------------------------------------------------------------------------
// The Responses API
// ------------------------------------------------------------------------------------------------

export interface ResponsesRequest {
  caller: ClientCaller;
  body: ResponsesBody;
  relayUrl: string;
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
    relayUrl: request.relayUrl,
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
  done: { itemId: string; text: string; usage: OpenAiUsage; sources: MessageSource[] } | null,
): OpenAiResponse {
  return {
    ...base,
    object: 'response',
    status: done ? 'completed' : 'in_progress',
    output: done ? [messageItem(done.itemId, done.text)] : [],
    parallel_tool_calls: false,
    tool_choice: 'auto',
    tools: [],
    error: null,
    incomplete_details: null,
    usage: done
      ? {
          input_tokens: done.usage.prompt_tokens,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: done.usage.completion_tokens,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: done.usage.total_tokens,
        }
      : null,
    ...(done && { sources: done.sources }),
  };
}

async function startResponse(ctx: ConversationContext, request: ResponsesRequest) {
  const model = await echoedModel(ctx, request.caller, request.body.model);
  const turn = responsesTurn(request);
  const prepared = await prepareResponse(ctx, request, turn);
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
  const tap = new ReplyTap();
  const { text, sources } = await runReply(ctx, turn, prepared, tap);
  return {
    conversation: prepared.conversation.token,
    response: responseObject(base, { itemId, text, usage: tap.usage, sources }),
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
  const tap = new ReplyTap((delta) => send('response.output_text.delta', { ...at, delta, logprobs: [] }));
  let text: string;
  let sources: MessageSource[];
  try {
    ({ text, sources } = await runReply(ctx, turn, prepared, tap));
  } catch (err) {
    if (!sse) throw err;
    const { error } = streamFailure(ctx, err);
    send('error', { ...error, error });
    sse.end();
    return;
  }
  send('response.output_text.done', { ...at, text, logprobs: [] });
  send('response.content_part.done', { ...at, part: outputText(text) });
  send('response.output_item.done', { output_index: 0, item: messageItem(itemId, text) });
  send('response.completed', {
    response: responseObject(base, { itemId, text, usage: tap.usage, sources }),
  });
  opened().end();
}
