import { ErrorName, message } from '@llmor/contracts';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { queueRoutes } from '../modules/admin/queue';
import { adminRoutes } from '../modules/admin/routes';
import { appRoutes } from '../modules/apps/routes';
import { authRoutes } from '../modules/auth/routes';
import { billingRoutes } from '../modules/billing/routes';
import { outsideCallers } from '../modules/clients/callers';
import { clientRoutes } from '../modules/clients/routes';
import { conversationRoutes } from '../modules/conversations/routes';
import { datastoreRoutes } from '../modules/datastores/routes';
import { registerEmbedCors } from '../modules/embeds/cors';
import { embedRoutes } from '../modules/embeds/routes';
import { registerEmbedScript } from '../modules/embeds/widget';
import { functionRoutes } from '../modules/functions/routes';
import { HEALTH_PATHS, registerHealthRoutes } from '../modules/health/routes';
import { registerIconRoutes } from '../modules/icons/routes';
import { memberRoutes } from '../modules/members/routes';
import { modelRoutes } from '../modules/models/routes';
import { openAiUnrouted } from '../modules/openai/present';
import { openAiRoutes } from '../modules/openai/routes';
import { settingsRoutes } from '../modules/settings/routes';
import { slackRoutes } from '../modules/slack/routes';
import { usageRoutes } from '../modules/usage/routes';
import { findVendorApp } from '../modules/vendors/owned';
import { findVendorById, findVendorByKey } from '../modules/vendors/repo';
import { vendorRoutes } from '../modules/vendors/routes';
import { type Config, linkBaseUrl } from '../platform/config';
import { proxyTrust } from '../platform/http/client-address';
import { handleStopping, type Stopping } from '../platform/http/connections';
import { inRequestLocale } from '../platform/http/locale';
import { openApiRoutes, registerOpenApi } from '../platform/http/openapi';
import { Pipeline } from '../platform/http/pipeline';
import type { RouteSpec } from '../platform/http/route';
import { serializeError } from '../platform/log';
import { METRICS_PATH, type Metrics, registerMetrics } from '../platform/metrics';
import { registerSecurityHeaders } from '../platform/security';
import { registerHttpTracing, tracingOn } from '../platform/tracing';
import { DEFAULT_WEB_DIST, isConsoleRoute, registerWebConsole, sendConsole } from '../platform/web';
import type { ServerContext } from './context';
import { VERSION } from './version';

const BODY_LIMIT = 1024 * 1024;

/** The Fastify instance of a server: its logger, body limit, proxies and the stop's own 503. */
export function createHttpServer(config: Config): FastifyInstance {
  return Fastify({
    logger: {
      level: config.LOG_LEVEL,
      redact: [
        'req.headers["x-accesstoken"]',
        'req.headers.authorization',
        'req.headers["x-vendortoken"]',
        'req.headers["x-embedtoken"]',
      ],
      serializers: { err: serializeError },
    },
    bodyLimit: BODY_LIMIT,
    // A stopping server answers its own 503 (platform/http/connections.ts), from the drain's start on.
    return503OnClosing: false,
    // Client addresses come from the socket unless the operator names the proxies (TRUST_PROXY).
    trustProxy: config.TRUST_PROXY === false ? false : proxyTrust(config.TRUST_PROXY),
    // Per-request log lines only when debugging: they cost CPU on every call.
    logController: new LogController({
      disableRequestLogging: config.LOG_LEVEL !== 'debug' && config.LOG_LEVEL !== 'trace',
    }),
  });
}

/**
 * Every route through the one request pipeline, with what runs around them: tracing, `/metrics`, the
 * stop's refusals, security headers, the embeds' CORS and the OpenAPI document.
 */
export async function registerHttp(
  app: FastifyInstance,
  ctx: ServerContext,
  metrics: Metrics,
): Promise<{ routes: readonly RouteSpec[]; stopping: Stopping }> {
  const { db } = ctx;
  const pipeline = new Pipeline({
    config: ctx.config,
    rateLimiter: ctx.rateLimiter,
    ports: {
      sessions: ctx.sessions,
      vendors: {
        byId: (id) => findVendorById(db, id),
        byKey: (key) => findVendorByKey(db, key),
      },
      outsiders: outsideCallers(ctx),
      owned: { app: (vendorId, appId) => findVendorApp(db, vendorId, appId) },
    },
  });
  pipeline.install(app);
  // Before any route: handlers run inside their request's span (docs/adr/0040-traces.md).
  if (tracingOn()) registerHttpTracing(app, [METRICS_PATH, ...HEALTH_PATHS]);
  registerMetrics(app, metrics, ctx.config.METRICS_TOKEN);
  // The liveness probe answers until the listener closes; everything else is refused once stopping.
  const stopping = handleStopping(app, { open: ['/healthz'] });
  registerSecurityHeaders(app);
  registerEmbedCors(app, ctx);
  await registerOpenApi(app, VERSION, linkBaseUrl(ctx.config));

  registerHealthRoutes(app, ctx);
  pipeline.register(app, [
    ...openApiRoutes(app),
    ...authRoutes(ctx, ctx.sessions),
    ...vendorRoutes(ctx),
    ...conversationRoutes(ctx),
    ...appRoutes(ctx),
    ...modelRoutes(ctx),
    ...functionRoutes(ctx),
    ...usageRoutes(ctx),
    ...memberRoutes(ctx),
    ...settingsRoutes(ctx),
    ...adminRoutes(ctx),
    ...queueRoutes(ctx),
    ...datastoreRoutes(ctx),
    ...slackRoutes(ctx),
    ...billingRoutes(ctx),
    ...clientRoutes(ctx),
    ...openAiRoutes(ctx),
    ...embedRoutes(ctx),
  ]);
  registerIconRoutes(app, ctx);
  registerEmbedScript(app, ctx);
  return { routes: pipeline.routes, stopping };
}

/**
 * What answers a request no route took: the built console's pages (when served), OpenAI's shape under its
 * paths, else a 404 naming the route. Last, after every route.
 */
export async function registerFallbacks(
  app: FastifyInstance,
  routes: readonly RouteSpec[],
  opts: { config: Config; serveWeb: boolean },
): Promise<void> {
  const webServed =
    opts.serveWeb && (await registerWebConsole(app, opts.config.WEB_DIST ?? DEFAULT_WEB_DIST));
  const openAiUnroutedAnswer = openAiUnrouted(routes);
  app.setNotFoundHandler((request, reply) => {
    const openAi = openAiUnroutedAnswer(request.method, request.url);
    if (openAi) {
      if (openAi.allow) reply.header('allow', openAi.allow);
      return reply.code(openAi.status).send(openAi.body);
    }
    if (webServed && (request.method === 'GET' || request.method === 'HEAD') && isConsoleRoute(request.url)) {
      return sendConsole(reply);
    }
    return reply.code(404).send({
      name: ErrorName.NotFound,
      message: inRequestLocale(
        request,
        message('routeUnknown', { route: `${request.method} ${request.url}` }),
      ),
    });
  });
}
