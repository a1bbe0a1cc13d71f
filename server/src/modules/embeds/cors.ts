import {
  EMBED_ORIGIN_REFUSED,
  EMBED_TOKEN_HEADER,
  ErrorName,
  embedAllowsOrigin,
  RELAY_SOCKET_HEADER,
} from '@llmor/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../platform/context';
import { embedAllowedOrigins, findConversationByCapability } from '../conversations/repo';
import { allowedOriginsOf } from './present';
import { findEmbedByToken } from './repo';

/** The conversation routes a widget calls: `POST /v1/conversations`, `GET/POST /v1/conversations/{token}`. */
const CONVERSATION_PATH = /^\/v1\/conversations(?:\/([A-Za-z0-9_-]+))?\/?(?:\?|$)/;
const ALLOW_METHODS = 'GET, POST';
/** The widget's headers: its token, and its relay socket (so its own socket gets no echo of its input). */
const ALLOW_HEADERS = `content-type, ${EMBED_TOKEN_HEADER}, ${RELAY_SOCKET_HEADER}`;
/** Browsers keep a preflight's answer this long (seconds; Chromium caps it at 7200). */
const PREFLIGHT_MAX_AGE = '600';

/**
 * Cross-origin calls of the web widget (docs/reference/api.md "Reaching an app from outside"): CORS on the
 * conversation routes only, and only for `X-EmbedToken` callers. No other route answers CORS, so the
 * console's API stays same-origin.
 *
 * - A preflight asking for `x-embedtoken` names no embed (it carries no headers' values). For
 *   `/v1/conversations/{token}` the conversation's embed decides; for `POST /v1/conversations` any origin
 *   may ask, and the call itself is refused (403) when the embed does not allow the page's origin.
 * - A call with `X-EmbedToken` from an allowed origin gets `access-control-allow-origin` (also on its
 *   errors, so the widget can read them); from another origin none, and the outside-caller check answers 403.
 */
export function registerEmbedCors(app: FastifyInstance, ctx: AppContext): void {
  /** The origins an embed conversation's pages may have; null when it is no embed's conversation. */
  const conversationOrigins = async (token: string) => {
    const conversation = await findConversationByCapability(ctx.db, token);
    if (conversation?.embedId == null) return null;
    return embedAllowedOrigins(ctx.db, conversation.vendorId, conversation.embedId);
  };
  const embedOrigins = async (token: string) => {
    const embed = await findEmbedByToken(ctx.db, token);
    return embed ? allowedOriginsOf(embed) : null;
  };
  const allowed = (origin: string, origins: string[] | null) =>
    origins !== null && embedAllowsOrigin(origins, origin);

  const allowOrigin = (reply: FastifyReply, origin: string) =>
    reply.header('access-control-allow-origin', origin).header('vary', 'origin');

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const origin = request.headers.origin;
    const path = CONVERSATION_PATH.exec(request.url);
    if (!origin || !path) return;
    const conversationToken = path[1];

    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      const asked = String(request.headers['access-control-request-headers'] ?? '').toLowerCase();
      if (!asked.split(',').some((h) => h.trim() === EMBED_TOKEN_HEADER)) return;
      const ok = conversationToken ? allowed(origin, await conversationOrigins(conversationToken)) : true;
      if (!ok) {
        return reply
          .code(403)
          .header('vary', 'origin')
          .send({ name: ErrorName.Forbidden, message: EMBED_ORIGIN_REFUSED });
      }
      return allowOrigin(reply, origin)
        .code(204)
        .header('access-control-allow-methods', ALLOW_METHODS)
        .header('access-control-allow-headers', ALLOW_HEADERS)
        .header('access-control-max-age', PREFLIGHT_MAX_AGE)
        .send();
    }

    const embedToken = request.headers[EMBED_TOKEN_HEADER];
    if (typeof embedToken !== 'string') return;
    if (allowed(origin, await embedOrigins(embedToken))) allowOrigin(reply, origin);
  });
}
