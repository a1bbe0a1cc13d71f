import { INVALID_ACCESS_TOKEN } from '@llmor/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../modules/auth/sessions';
import type { AppContext } from './context';
import { unauthorized } from './errors';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /** 'session' (default for /v1): a signed X-AccessToken is required. 'none': public. */
    auth?: 'session' | 'none';
  }
}

const FAILURE_TEXT = {
  missing: `${INVALID_ACCESS_TOKEN}: the X-AccessToken header is missing`,
  malformed: `${INVALID_ACCESS_TOKEN}: the X-AccessToken header cannot be decoded`,
  stale: `${INVALID_ACCESS_TOKEN}: the timestamp is outside the allowed window`,
  unknown: `${INVALID_ACCESS_TOKEN}: the session does not exist`,
  signature: `${INVALID_ACCESS_TOKEN}: the signature does not match`,
} as const;

/** Authenticates every /v1 call unless its route says `config: { auth: 'none' }`. */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/') || request.routeOptions.config.auth === 'none') return;
    if (!request.routeOptions.url) return; // unknown route: let the 404 handler answer
    const header = request.headers['x-accesstoken'];
    const result = await ctx.sessions.verify(
      typeof header === 'string' ? header : undefined,
      request.method,
      request.url,
    );
    if (!result.ok) throw unauthorized(FAILURE_TEXT[result.reason]);
    request.auth = result.ctx;
  });
}

/** The signed-in user of a request, or 401 for a valid session that is not signed in. */
export function requireUser(request: FastifyRequest) {
  const auth = request.auth;
  if (!auth?.user) throw unauthorized('Authentication required: please sign in.');
  return { ...auth, user: auth.user };
}
