import {
  asLocale,
  conversationCreatedSchema,
  conversationListItemSchema,
  conversationMessagesQuery,
  conversationPageSchema,
  conversationTokenParam,
  createConversationBody,
  dataEnvelopeSchema,
  listConversationsQuery,
  listEnvelopeSchema,
  localeQuery,
  messageSentSchema,
  RELAY_SOCKET_HEADER,
  sendMessageBody,
} from '@llmor/contracts';
import type { FastifyRequest } from 'fastify';
import { requestLocale } from '../../platform/http/locale';
import { route } from '../../platform/http/route';
import { requestTrace } from '../../platform/tracing';
import { callerOf, userCaller } from './access';
import type { ConversationContext } from './ports';
import { errorsInLocale } from './present';
import {
  conversationPage,
  createConversationWithinPlan,
  listConversationsOf,
  relayUrl,
  requireConversation,
  requireConversationWithApp,
  sendMessage,
  vendorWithConversation,
} from './service';

/** The poster's relay socket (`X-Relay-Socket`), if it looks like a socket.io id; see contracts/src/relay.ts. */
function posterSocket(request: FastifyRequest): string | undefined {
  const value = request.headers[RELAY_SOCKET_HEADER];
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : undefined;
}

const tags = ['conversations'];
const access = { auth: 'user', vendor: 'header' } as const;
/** Console users, and API clients and embeds on their own app (docs/reference/api.md "Outside callers"). */
const anyCaller = { auth: 'user', vendor: 'header', outsiders: true } as const;

/** Calls documented in contracts/src/http/conversations.ts; the vendor comes from `X-Vendor`. */
export const conversationRoutes = (ctx: ConversationContext) => [
  route({
    method: 'POST',
    url: '/v1/conversations',
    summary: 'Open a conversation with an app (the greeting comes back as its first message)',
    tags,
    access: anyCaller,
    body: createConversationBody,
    query: localeQuery,
    status: 201,
    response: dataEnvelopeSchema(conversationCreatedSchema),
    // The plan's requests or tokens are used up (code 60): no conversation is opened.
    errors: ['PaymentRequired'],
    handler: async ({ vendor, identity, outsider, body, query, request }) => ({
      data: await createConversationWithinPlan(ctx, callerOf({ vendor, identity, outsider }), body, {
        locale: query.locale,
        relayUrl: relayUrl(ctx),
        address: request.ip,
      }),
    }),
  }),
  route({
    method: 'GET',
    url: '/v1/conversations',
    summary: 'Conversations of the vendor or one app (paging, newest first)',
    tags,
    access,
    query: listConversationsQuery,
    response: listEnvelopeSchema(conversationListItemSchema),
    handler: ({ vendor, identity, query }) => listConversationsOf(ctx, userCaller(vendor, identity), query),
  }),
  route({
    method: 'GET',
    url: '/v1/conversations/:token',
    summary: 'A conversation and a page of its messages (newest page first; `next_cursor` pages back)',
    tags,
    access: anyCaller,
    params: conversationTokenParam,
    query: conversationMessagesQuery,
    resource: 'Conversation',
    response: conversationPageSchema,
    handler: async ({ vendor, identity, outsider, params, query }) => {
      const conversation = await requireConversation(
        ctx,
        callerOf({ vendor, identity, outsider }),
        params.token,
      );
      return errorsInLocale(
        await conversationPage(ctx, conversation, relayUrl(ctx), query),
        asLocale(query.locale),
      );
    },
  }),
  route({
    method: 'POST',
    url: '/v1/conversations/:token',
    summary:
      'Send a message; answers with the messages it added when the reply is stored (504 past the sync window, the reply goes on)',
    tags,
    access: anyCaller,
    rateLimit: {
      bucket: 'conversations:send',
      per: 'caller',
      limit: (config) => config.SEND_RATE_PER_MINUTE,
      windowSeconds: 60,
    },
    params: conversationTokenParam,
    resource: 'Conversation',
    body: sendMessageBody,
    response: messageSentSchema,
    errors: ['Conflict', 'GatewayTimeout', 'PaymentRequired'],
    // The console's `X-Vendor` vendor and the conversation in one read (docs/adr/0046).
    vendorWith: (key, params) => {
      const token = conversationTokenParam.safeParse(params);
      return vendorWithConversation(ctx, key, token.success ? token.data.token : null);
    },
    handler: async ({ vendor, identity, outsider, params, body, request, loaded }) => {
      const caller = callerOf({ vendor, identity, outsider });
      const { conversation, ...read } = await requireConversationWithApp(ctx, caller, params.token, loaded);
      const sent = await sendMessage(ctx, {
        caller,
        conversation,
        content: body.content,
        read,
        posterSocket: posterSocket(request),
        relayUrl: relayUrl(ctx),
        trace: requestTrace(request),
      });
      return errorsInLocale(sent, requestLocale(request));
    },
  }),
];
