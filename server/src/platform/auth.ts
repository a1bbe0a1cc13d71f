import { INVALID_ACCESS_TOKEN } from '@llmor/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext, VerifyResult } from '../modules/auth/sessions';
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
  // A callback hook, not an async one: the cached path then costs no promise per request.
  app.addHook('onRequest', (request, _reply, done) => {
    // Only API routes authenticate; an unknown path falls through to the 404 handler.
    if (!request.routeOptions.url?.startsWith('/v1/') || request.routeOptions.config.auth === 'none')
      return done();
    const raw = request.headers['x-accesstoken'];
    const header = typeof raw === 'string' ? raw : undefined;
    const settle = (result: VerifyResult) => {
      if (!result.ok) return done(unauthorized(FAILURE_TEXT[result.reason]));
      request.auth = result.ctx;
      done();
    };
    const cached = ctx.sessions.verifyCached(header, request.method, request.url);
    if (cached) return settle(cached);
    ctx.sessions.verify(header, request.method, request.url).then(settle, done);
  });
}

/** The signed-in user of a request, or 401 for a valid session that is not signed in. */
export function requireUser(request: FastifyRequest) {
  const auth = request.auth;
  if (!auth?.user) throw unauthorized('Authentication required: please sign in.');
  return { ...auth, user: auth.user };
}
