import {
  conversationTokenParam,
  createConversationBody,
  listConversationsQuery,
  localeQuery,
  RELAY_SOCKET_HEADER,
  sendMessageBody,
} from '@llmor/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context';
import { parse, parsePath } from '../../platform/validate';
import { resolveCaller } from './access';
import {
  conversationWithMessages,
  createConversation,
  listConversationsOf,
  relayUrl,
  requireConversation,
  sendMessage,
} from './service';

/** The poster's relay socket (`X-Relay-Socket`), if it looks like a socket.io id; see contracts/src/relay.ts. */
function posterSocket(request: FastifyRequest): string | undefined {
  const value = request.headers[RELAY_SOCKET_HEADER];
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined;
}

export function registerConversationRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/v1/conversations', async (request, reply) => {
    const caller = await resolveCaller(ctx, request);
    const body = parse(createConversationBody, request.body ?? {});
    const { locale } = parse(localeQuery, request.query);
    const data = await createConversation(ctx, caller, body, { locale, relayUrl: relayUrl(ctx, request) });
    reply.code(201);
    return { data };
  });

  app.get('/v1/conversations', async (request) => {
    const caller = await resolveCaller(ctx, request);
    const query = parse(listConversationsQuery, request.query);
    return listConversationsOf(ctx, caller, query);
  });

  app.get('/v1/conversations/:token', async (request) => {
    const caller = await resolveCaller(ctx, request);
    const { token } = parsePath(conversationTokenParam, request.params, 'Conversation');
    const conversation = await requireConversation(ctx, caller, token);
    return conversationWithMessages(ctx, conversation, relayUrl(ctx, request));
  });

  app.post('/v1/conversations/:token', async (request) => {
    const caller = await resolveCaller(ctx, request);
    const { token } = parsePath(conversationTokenParam, request.params, 'Conversation');
    const { content } = parse(sendMessageBody, request.body ?? {});
    const conversation = await requireConversation(ctx, caller, token);
    return sendMessage(ctx, caller, conversation, content, {
      posterSocket: posterSocket(request),
      relayUrl: relayUrl(ctx, request),
    });
  });

  // Replies still running when the server stops are aborted; each stores its error and end events.
  app.addHook('onClose', async () => {
    await ctx.completion.close();
  });
}
