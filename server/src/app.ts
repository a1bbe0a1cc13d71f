import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ErrorName, message } from '@llmor/contracts';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { adminJobs, queueRoutes } from './modules/admin/queue';
import { adminRoutes } from './modules/admin/routes';
import { appRoutes } from './modules/apps/routes';
import { authRoutes } from './modules/auth/routes';
import { sessionJobs } from './modules/auth/service';
import { SessionVerifier } from './modules/auth/sessions';
import { billingRoutes } from './modules/billing/routes';
import { ReplySpending } from './modules/billing/service';
import { outsideCallers, relayCallers } from './modules/clients/callers';
import { clientRoutes } from './modules/clients/routes';
import { CompletionEngine, type EngineOptions } from './modules/completion/engine';
import { greetingFor } from './modules/completion/input';
import type { AppRow, ConversationPorts } from './modules/conversations/ports';
import { handleRelayConnection } from './modules/conversations/relay';
import { conversationRoutes } from './modules/conversations/routes';
import { closeParsePool, registerParsePoolMetrics } from './modules/datastores/parse-pool';
import { datastoreRoutes } from './modules/datastores/routes';
import { type KnowledgeContext, ReplyKnowledge } from './modules/datastores/service';
import { datastoreJobs, sweep } from './modules/datastores/sync';
import { warmMemoryIndexes } from './modules/datastores/vectors';
import { registerEmbedCors } from './modules/embeds/cors';
import { embedRoutes } from './modules/embeds/routes';
import { registerEmbedScript } from './modules/embeds/widget';
import { functionRoutes } from './modules/functions/routes';
import { registerSiliconPoolMetrics } from './modules/functions/sandbox';
import { HEALTH_PATHS, registerHealthRoutes } from './modules/health/routes';
import { registerIconRoutes } from './modules/icons/routes';
import { memberRoutes } from './modules/members/routes';
import { modelRoutes } from './modules/models/routes';
import { openAiUnrouted } from './modules/openai/present';
import { openAiRoutes } from './modules/openai/routes';
import { settingsRoutes } from './modules/settings/routes';
import { slackJobs } from './modules/slack/reply';
import { slackRoutes } from './modules/slack/routes';
import { usageRoutes } from './modules/usage/routes';
import { findVendorApp } from './modules/vendors/owned';
import { findVendorById, findVendorByKey } from './modules/vendors/repo';
import { vendorRoutes } from './modules/vendors/routes';
import { type Broadcast, LocalBroadcast, RedisBroadcast } from './platform/broadcast';
import { type Config, linkBaseUrl, redisNamespace } from './platform/config';
import type { AppContext } from './platform/context';
import type { SecretBox } from './platform/crypto';
import { type Database, registerDatabaseMetrics } from './platform/db';
import { proxyTrust } from './platform/http/client-address';
import { handleStopping, type Stopping } from './platform/http/connections';
import { inRequestLocale } from './platform/http/locale';
import { openApiRoutes, registerOpenApi } from './platform/http/openapi';
import { Pipeline } from './platform/http/pipeline';
import type { RouteSpec } from './platform/http/route';
import { serializeError } from './platform/log';
import { createMetrics, METRICS_PATH, registerMetrics } from './platform/metrics';
import { OutboundGuard } from './platform/outbound/guard';
import { SERVER_ROOT } from './platform/paths';
import { JobQueue } from './platform/queue';
import type { RateLimiter } from './platform/rate-limit';
import { RelayHub } from './platform/relay/hub';
import { limitSocketsPerAddress } from './platform/relay/limits';
import type { PresenceTiming } from './platform/relay/presence';
import { startRelay } from './platform/relay/server';
import { registerSecurityHeaders } from './platform/security';
import { registerHttpTracing, tracingOn } from './platform/tracing';
import { DEFAULT_WEB_DIST, isConsoleRoute, registerWebConsole, sendConsole } from './platform/web';

export const VERSION: string = JSON.parse(readFileSync(join(SERVER_ROOT, 'package.json'), 'utf8')).version;

export interface BuildOptions {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  secretBox: SecretBox;
  /** Cross-instance notices (default: this process only). */
  broadcast?: Broadcast;
  /** Serve the built console (default true). */
  serveWeb?: boolean;
  /** The relay presence's heartbeat and timeout with Redis (tests shorten them). */
  relayPresence?: PresenceTiming;
  /** The conversation rooms' publisher (default a hub on this app's socket.io; tests record it). */
  relay?: RelayHub;
  /** The completion engine's replaceable parts (tests' fakes); the rest of its collaborators are the server's. */
  engine?: Partial<Pick<EngineOptions, 'resolveModel' | 'tools' | 'responders'>>;
  now?: () => number;
}

/**
 * The one context object of a server: the platform services, the domain services the root builds and
 * the ports it wires. Every module gets this same object typed as what it needs.
 */
export interface ServerContext extends AppContext, ConversationPorts, KnowledgeContext {
  sessions: SessionVerifier;
  completion: CompletionEngine;
}

const BODY_LIMIT = 1024 * 1024;

/**
 * The composition root: builds the platform services and the domain services, wires modules to each
 * other through their ports, and registers every route through the one request pipeline.
 * `inject()` drives the result in tests.
 */
export async function buildApp(
  opts: BuildOptions,
): Promise<{ app: FastifyInstance; ctx: ServerContext; routes: readonly RouteSpec[]; stopping: Stopping }> {
  const app = Fastify({
    logger: {
      level: opts.config.LOG_LEVEL,
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
    trustProxy: opts.config.TRUST_PROXY === false ? false : proxyTrust(opts.config.TRUST_PROXY),
    // Per-request log lines only when debugging: they cost CPU on every call.
    logController: new LogController({
      disableRequestLogging: opts.config.LOG_LEVEL !== 'debug' && opts.config.LOG_LEVEL !== 'trace',
    }),
  });
  const db = opts.database.db;
  // One registry per server; each domain registers its own families on it (docs/adr/0035-metrics.md).
  const metrics = createMetrics();
  registerSiliconPoolMetrics(metrics);
  registerParsePoolMetrics(metrics, opts.config);
  // Timing every statement is the hot path's cost: only when the metrics are exposed.
  registerDatabaseMetrics(metrics, opts.database, { statements: !!opts.config.METRICS_TOKEN });
  const broadcast =
    opts.broadcast ??
    (opts.config.REDIS_URL
      ? await RedisBroadcast.connect(opts.config.REDIS_URL, app.log, `${redisNamespace(opts.config)}bc:`)
      : new LocalBroadcast());
  app.addHook('onClose', () => broadcast.close());
  const worker = opts.config.ROLES.includes('worker');
  const queue = new JobQueue(opts.database, app.log, { worker, metrics });
  const relay = opts.relay ?? new RelayHub(metrics);
  // The platform part first: the domain services built on it reach the finished context (the same object).
  const platform: AppContext & KnowledgeContext = {
    config: opts.config,
    database: opts.database,
    db,
    rateLimiter: opts.rateLimiter,
    secretBox: opts.secretBox,
    log: app.log,
    version: VERSION,
    broadcast,
    queue,
    relay,
    publicUrl: linkBaseUrl(opts.config),
    outbound: new OutboundGuard({ allow: opts.config.OUTBOUND_ALLOW }),
  };
  const spending = new ReplySpending(platform);
  const completion = new CompletionEngine({
    relay,
    metrics,
    spending,
    knowledge: new ReplyKnowledge(platform),
    ...opts.engine,
  });
  const ctx: ServerContext = Object.assign(platform, {
    sessions: new SessionVerifier(
      db,
      broadcast,
      {
        idleMs: opts.config.SESSION_IDLE_MINUTES * 60_000,
        maxMs: opts.config.SESSION_MAX_DAYS * 86_400_000,
        cacheMs: opts.config.SESSION_CACHE_MS,
      },
      relay,
      opts.now,
    ),
    completion,
    apps: {
      greeting: (app: AppRow, locale: string | undefined) =>
        app.type === 'silicon' ? null : greetingFor(app.parameters, locale),
    },
    replies: completion,
    relayCallers: relayCallers(platform),
    spending,
  });

  const pipeline = new Pipeline({
    config: opts.config,
    rateLimiter: opts.rateLimiter,
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
  registerMetrics(app, metrics, opts.config.METRICS_TOKEN);
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

  // socket.io on this app's HTTP server (relay role) and/or the Redis adapter shared by all instances.
  await startRelay(app, ctx.relay, app.log, {
    serve: opts.config.ROLES.includes('relay'),
    redisUrl: opts.config.REDIS_URL,
    redisKey: `${redisNamespace(opts.config)}relay`,
    presence: opts.relayPresence,
    onConnection: (socket) => handleRelayConnection(ctx, socket),
    middleware: [
      limitSocketsPerAddress(
        ctx.rateLimiter,
        opts.config.RELAY_SOCKETS_PER_ADDRESS,
        proxyTrust(opts.config.TRUST_PROXY),
      ),
    ],
  });
  // Replies still running when the app closes are aborted (a serving process drained them before, ADR 0055);
  // each stores its error and end events. Before the HTTP server waits for its requests: a send waits for its
  // reply (ADR 0025).
  app.addHook('preClose', async () => {
    await ctx.completion.close(app.log);
  });

  // Replies whose process died left their leases: released, with the interrupted reply's notice, before this
  // process takes a send; on the embedded database this process is the only one, so every lease is stale
  // (ADR 0025).
  await completion.releaseStaleLeases(ctx, { all: opts.database.soleProcess });

  // Background work: every process can queue jobs; a worker also runs them, and at start resumes what a
  // stopped or killed process left (on the embedded database it is the only process, so every lease is stale).
  queue.define([...adminJobs(), ...sessionJobs(ctx), ...datastoreJobs(ctx), ...slackJobs(ctx)]);
  app.addHook('onClose', () => queue.stop());
  // After the queue: no job is left to reach a provider through the guard's connections.
  app.addHook('onClose', () => ctx.outbound.close());
  app.addHook('onClose', () => closeParsePool(opts.config));
  if (worker) {
    await queue.start();
    await sweep(ctx, { restart: opts.database.soleProcess });
  }
  // A process that serves searches builds its datastores' in-memory indexes in the background, recently
  // searched first, so the first search after a start finds its index ready (ADR 0042).
  if (opts.config.ROLES.includes('api')) {
    let closing = false;
    const warming = warmMemoryIndexes(opts.database, { stopped: () => closing }).catch((err: unknown) => {
      if (!closing) app.log.warn({ err }, 'warming the datastores’ search indexes failed');
    });
    app.addHook('onClose', async () => {
      closing = true;
      await warming;
    });
  }

  const webServed =
    opts.serveWeb !== false && (await registerWebConsole(app, opts.config.WEB_DIST ?? DEFAULT_WEB_DIST));
  const openAiUnroutedAnswer = openAiUnrouted(pipeline.routes);
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

  return { app, ctx, routes: pipeline.routes, stopping };
}
