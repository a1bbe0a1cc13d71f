import { readFileSync } from 'node:fs';
import { ErrorName } from '@llmor/contracts';
import Fastify, { type FastifyError, type FastifyInstance, LogController } from 'fastify';
import { registerAppRoutes } from './modules/apps/routes';
import { registerAuthRoutes } from './modules/auth/routes';
import { SessionVerifier } from './modules/auth/sessions';
import { CompletionEngine } from './modules/completion/engine';
import { registerConversationRoutes } from './modules/conversations/routes';
import { registerFunctionRoutes } from './modules/functions/routes';
import { registerHealthRoutes } from './modules/health/routes';
import { registerIconRoutes } from './modules/icons/routes';
import { registerModelRoutes } from './modules/models/routes';
import { RelayHub } from './modules/relay/hub';
import { startRelay } from './modules/relay/server';
import { registerUsageRoutes } from './modules/usage/routes';
import { registerVendorRoutes } from './modules/vendors/routes';
import { registerAuthentication } from './platform/auth';
import type { Config } from './platform/config';
import type { AppContext } from './platform/context';
import type { SecretBox } from './platform/crypto';
import type { Database } from './platform/db';
import { HttpError } from './platform/errors';
import type { RateLimiter } from './platform/rate-limit';
import { DEFAULT_WEB_DIST, isConsoleRoute, registerWebConsole } from './platform/web';

export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

export interface BuildOptions {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  secretBox: SecretBox;
  /** Serve the built console (default true). */
  serveWeb?: boolean;
  now?: () => number;
}

const BODY_LIMIT = 1024 * 1024;

/** The HTTP app: every module's routes over one context. `inject()` drives it in tests. */
export async function buildApp(opts: BuildOptions): Promise<{ app: FastifyInstance; ctx: AppContext }> {
  const app = Fastify({
    logger: {
      level: opts.config.LOG_LEVEL,
      redact: ['req.headers["x-accesstoken"]', 'req.headers.authorization'],
    },
    bodyLimit: BODY_LIMIT,
    trustProxy: true,
    // Per-request log lines only when debugging: they cost CPU on every call.
    logController: new LogController({
      disableRequestLogging: opts.config.LOG_LEVEL !== 'debug' && opts.config.LOG_LEVEL !== 'trace',
    }),
  });
  const ctx: AppContext = {
    config: opts.config,
    database: opts.database,
    db: opts.database.db,
    sessions: new SessionVerifier(opts.database.db, opts.now),
    rateLimiter: opts.rateLimiter,
    secretBox: opts.secretBox,
    log: app.log,
    version: VERSION,
    relay: new RelayHub(),
    completion: new CompletionEngine(),
  };

  // An empty body with a JSON content type (a bodiless POST) is no body, not a parse error.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(new HttpError(400, ErrorName.BadRequest, 'The request body is not valid JSON.'), undefined);
    }
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    if (error instanceof HttpError) {
      if (error.extra.headers) reply.headers(error.extra.headers);
      return reply.code(error.statusCode).send(error.toBody());
    }
    const status = error.statusCode ?? 500;
    if (status === 413) {
      return reply
        .code(413)
        .send({ name: ErrorName.PayloadTooLarge, message: 'The request body is too large.' });
    }
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ name: ErrorName.BadRequest, message: error.message });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ name: ErrorName.InternalServerError, message: 'Internal server error' });
  });

  registerAuthentication(app, ctx);
  registerHealthRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerVendorRoutes(app, ctx);
  registerConversationRoutes(app, ctx);
  // socket.io on this app's HTTP server (relay role) and/or the Redis adapter shared by all instances.
  await startRelay(app, ctx, { serve: opts.config.ROLES.includes('relay'), redisUrl: opts.config.REDIS_URL });
  registerAppRoutes(app, ctx);
  registerIconRoutes(app, ctx);
  registerModelRoutes(app, ctx);
  registerFunctionRoutes(app, ctx);
  registerUsageRoutes(app, ctx);

  const webServed =
    opts.serveWeb !== false && (await registerWebConsole(app, opts.config.WEB_DIST ?? DEFAULT_WEB_DIST));
  app.setNotFoundHandler((request, reply) => {
    if (webServed && request.method === 'GET' && isConsoleRoute(request.url)) {
      return reply.type('text/html').sendFile('index.html');
    }
    return reply
      .code(404)
      .send({ name: ErrorName.NotFound, message: `Route ${request.method} ${request.url} not found` });
  });

  return { app, ctx };
}
