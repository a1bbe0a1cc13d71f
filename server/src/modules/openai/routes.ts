import {
  CONVERSATION_HEADER,
  chatCompletionBody,
  chatCompletionSchema,
  conversationTokenParam,
  openAiModelListSchema,
  openAiModelParam,
  openAiModelSchema,
  openAiResponseSchema,
  responsesBody,
} from '@llmor/contracts';
import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../platform/errors';
import type { Outsider } from '../../platform/http/identity';
import { route } from '../../platform/http/route';
import { requestTrace } from '../../platform/tracing';
import { type ClientCaller, callerOf } from '../conversations/access';
import type { ConversationContext } from '../conversations/ports';
import { openAiErrorShape } from './present';
import {
  chatCompletion,
  createResponse,
  listModels,
  retrieveModel,
  streamCompletion,
  streamResponse,
} from './service';

const tags = ['openai'];
const access = { auth: 'bearer' } as const;

/** The Bearer token is an API client's (the outside-caller port issues no other kind for it). */
function clientOf(outsider: Outsider): ClientCaller {
  const caller = callerOf({ vendor: outsider.vendor, identity: null, outsider });
  if (caller.kind !== 'client') throw new Error('A Bearer token named no API client.');
  return caller;
}

/** `X-Conversation`, when sent, must look like a conversation token. */
function conversationToken(request: FastifyRequest): string | undefined {
  const value = request.headers[CONVERSATION_HEADER];
  if (value === undefined) return undefined;
  const parsed = conversationTokenParam.shape.token.safeParse(value);
  if (!parsed.success) throw badRequest(`The ${CONVERSATION_HEADER} header is not a conversation token.`);
  return parsed.data;
}

/** OpenAI's Chat Completions API over an API client's app (contracts/src/http/openai.ts). */
export const openAiRoutes = (ctx: ConversationContext) => [
  route({
    method: 'POST',
    url: '/v1/openai/chat/completions',
    summary: "OpenAI-compatible chat completion answered by the API client's app (stream: true → SSE)",
    tags,
    access,
    body: chatCompletionBody,
    response: chatCompletionSchema,
    errorShape: openAiErrorShape,
    errors: ['PaymentRequired', 'Conflict', 'GatewayTimeout', 'InternalServerError'],
    mediaTypes: { 'text/event-stream': [200] },
    handler: async ({ outsider, body, request, reply }) => {
      const input = {
        caller: clientOf(outsider),
        body,
        conversationToken: conversationToken(request),
        trace: requestTrace(request),
      };
      if (body.stream) {
        await streamCompletion(ctx, input, reply);
        return undefined as never;
      }
      const { completion, conversation } = await chatCompletion(ctx, input);
      reply.header(CONVERSATION_HEADER, conversation);
      return completion;
    },
  }),
  route({
    method: 'POST',
    url: '/v1/openai/responses',
    summary: "OpenAI Responses API answered by the API client's app (stream: true → SSE events)",
    tags,
    access,
    body: responsesBody,
    response: openAiResponseSchema,
    errorShape: openAiErrorShape,
    errors: ['PaymentRequired', 'Conflict', 'GatewayTimeout', 'InternalServerError'],
    mediaTypes: { 'text/event-stream': [200] },
    handler: async ({ outsider, body, request, reply }) => {
      const input = { caller: clientOf(outsider), body, trace: requestTrace(request) };
      if (body.stream) {
        await streamResponse(ctx, input, reply);
        return undefined as never;
      }
      const { response, conversation } = await createResponse(ctx, input);
      reply.header(CONVERSATION_HEADER, conversation);
      return response;
    },
  }),
  route({
    method: 'GET',
    url: '/v1/openai/models',
    summary: "The API client's app, as the one model its key reaches",
    tags,
    access,
    response: openAiModelListSchema,
    errorShape: openAiErrorShape,
    handler: ({ outsider }) => listModels(ctx, clientOf(outsider)),
  }),
  route({
    method: 'GET',
    url: '/v1/openai/models/:model',
    summary: "The client's app as a model, when the id names it",
    tags,
    access,
    params: openAiModelParam,
    resource: 'Model',
    response: openAiModelSchema,
    errorShape: openAiErrorShape,
    handler: ({ outsider, params }) => retrieveModel(ctx, clientOf(outsider), params.model),
  }),
];
