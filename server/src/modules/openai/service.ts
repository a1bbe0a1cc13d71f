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
  type OpenAiMessage,
  type OpenAiModel,
  type OpenAiModelList,
  type OpenAiUsage,
  openAiMessageText,
  RelayMessageType,
} from '@llmor/contracts';
import type { FastifyReply } from 'fastify';
import { randomToken } from '../../platform/crypto';
import { AppError, notFound, validationError } from '../../platform/errors';
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

async function requireApp(ctx: ConversationContext, caller: ClientCaller): Promise<AppRow> {
  const app = await ctx.apps.find(caller.vendor.id, caller.appId);
  if (!app) throw notFound('App');
  return app;
}

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
  return { object: 'list', data: [modelOf(await requireApp(ctx, caller), caller)] };
}

/** `GET /v1/openai/models/{model}`: the client's app when `model` names it, else 404. */
export async function retrieveModel(
  ctx: ConversationContext,
  caller: ClientCaller,
  model: string,
): Promise<OpenAiModel> {
  const app = await requireApp(ctx, caller);
  if (modelIdOf(app) !== model) {
    throw new AppError(
      ErrorName.NotFound,
      `The model '${model}' does not exist or you do not have access to it.`,
    );
  }
  return modelOf(app, caller);
}

/** The model name to echo: the request's, else the app's. */
async function echoedModel(ctx: ConversationContext, request: CompletionRequest): Promise<string> {
  return request.body.model ?? modelIdOf(await requireApp(ctx, request.caller));
}

/**
 * History messages as stored: user and assistant text; tool traffic is not kept (system and developer
 * prompts are refused by the contract, ADR 0024).
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
  request: CompletionRequest,
): Promise<{ conversation: ConversationRow; app: AppRow; content: string }> {
  const { caller, body } = request;
  const last = body.messages.at(-1)!;
  const content = openAiMessageText(last);
  if (last.role !== 'user' || !content.trim()) {
    throw validationError(
      { [`messages.${body.messages.length - 1}`]: LAST_MESSAGE_NOT_USER },
      LAST_MESSAGE_NOT_USER,
    );
  }
  if (request.conversationToken !== undefined) {
    return { ...(await requireConversationWithApp(ctx, caller, request.conversationToken)), content };
  }
  const { conversation, app } = await openConversation(
    ctx,
    caller,
    { vendor_app_id: caller.appId, vendor_channel: 'api', parameters: {} },
    { greet: false },
  );
  const history = body.messages.slice(0, -1).flatMap((message) => storedForm(message) ?? []);
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
 * answer), so only a failure to start it throws. Answers the reply's text, or throws its stored error.
 */
async function runReply(
  ctx: ConversationContext,
  request: CompletionRequest,
  { conversation, app, content }: Awaited<ReturnType<typeof prepare>>,
  tap: ReplyTap,
): Promise<string> {
  let answer: Awaited<ReturnType<typeof sendMessage>>;
  try {
    answer = await sendMessage(ctx, request.caller, conversation, content, {
      app,
      relayUrl: request.relayUrl,
      observe: tap.observe,
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
  return tap.text;
}

export async function chatCompletion(
  ctx: ConversationContext,
  request: CompletionRequest,
): Promise<{ completion: ChatCompletion; conversation: string }> {
  const model = await echoedModel(ctx, request);
  const prepared = await prepare(ctx, request);
  const { conversation } = prepared;
  const tap = new ReplyTap();
  const text = await runReply(ctx, request, prepared, tap);
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
    },
  };
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
  const model = await echoedModel(ctx, request);
  const prepared = await prepare(ctx, request);
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
  try {
    await runReply(ctx, request, prepared, tap);
  } catch (err) {
    if (!sse) throw err;
    if (!(err instanceof AppError)) ctx.log.error({ err }, 'streamed reply failed');
    const failure =
      err instanceof AppError ? err : new AppError(ErrorName.InternalServerError, 'Internal server error');
    sse.data(openAiError(failure.toBody(), errorStatus(failure.name)));
    sse.done();
    return;
  }
  const stream = opened();
  stream.data(chunk({}, 'stop'));
  if (includeUsage) stream.data({ ...base, choices: [], usage: tap.usage });
  stream.done();
}
