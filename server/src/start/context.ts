import type { FastifyInstance } from 'fastify';
import { SessionVerifier } from '../modules/auth/sessions';
import { ReplySpending } from '../modules/billing/service';
import { relayCallers } from '../modules/clients/callers';
import { CompletionEngine, type EngineOptions } from '../modules/completion/engine';
import { greetingFor } from '../modules/completion/input';
import type { ConversationPorts } from '../modules/conversations/ports';
import { registerParsePoolMetrics } from '../modules/datastores/parse-pool';
import { type KnowledgeContext, ReplyKnowledge } from '../modules/datastores/service';
import { VectorIndexes } from '../modules/datastores/vectors';
import { registerSiliconPoolMetrics } from '../modules/functions/sandbox';
import { type Broadcast, LocalBroadcast, RedisBroadcast } from '../platform/broadcast';
import { type Config, linkBaseUrl, redisNamespace } from '../platform/config';
import type { AppContext } from '../platform/context';
import type { SecretBox } from '../platform/crypto';
import { type Database, registerDatabaseMetrics } from '../platform/db';
import type { Metrics } from '../platform/metrics';
import { OutboundGuard } from '../platform/outbound/guard';
import { JobQueue } from '../platform/queue';
import type { RateLimiter } from '../platform/rate-limit';
import { RelayHub } from '../platform/relay/hub';
import { VERSION } from './version';

/**
 * The one context object of a server: the platform services, the domain services the root builds and
 * the ports it wires. Every module gets this same object typed as what it needs.
 */
export interface ServerContext extends AppContext, ConversationPorts, KnowledgeContext {
  sessions: SessionVerifier;
  completion: CompletionEngine;
}

export interface ContextOptions {
  config: Config;
  database: Database;
  rateLimiter: RateLimiter;
  secretBox: SecretBox;
  /** Cross-instance notices (default: this process only). */
  broadcast?: Broadcast;
  /** The conversation rooms' publisher (default a hub on this app's socket.io; tests record it). */
  relay?: RelayHub;
  /** The completion engine's replaceable parts (tests' fakes); the rest of its collaborators are the server's. */
  engine?: Partial<Pick<EngineOptions, 'resolveModel' | 'tools'>>;
  /** What the channels ask for a reply (default the completion engine; tests put refusals in front of it). */
  replies?: ConversationPorts['replies'];
  /** The guard of outbound connections (default one on OUTBOUND_ALLOW; tests answer names with their own DNS). */
  outbound?: OutboundGuard;
  now?: () => number;
}

/**
 * Builds the context: the platform services first, then the domain services on them, each given its
 * collaborators once (the engine its spending, knowledge and relay). The domain services hold the platform
 * part, which becomes the finished context (the same object), so what a port reads is always current.
 */
export async function buildContext(
  app: FastifyInstance,
  metrics: Metrics,
  opts: ContextOptions,
): Promise<ServerContext> {
  const { config, database } = opts;
  // Each domain registers its own families on the server's one registry (docs/adr/0035-metrics.md).
  registerSiliconPoolMetrics(metrics);
  registerParsePoolMetrics(metrics, config);
  // Timing every statement is the hot path's cost: only when the metrics are exposed.
  registerDatabaseMetrics(metrics, database, { statements: !!config.METRICS_TOKEN });
  const broadcast =
    opts.broadcast ??
    (config.REDIS_URL
      ? await RedisBroadcast.connect(config.REDIS_URL, app.log, `${redisNamespace(config)}bc:`)
      : new LocalBroadcast());
  app.addHook('onClose', () => broadcast.close());
  const queue = new JobQueue(database, app.log, { worker: config.ROLES.includes('worker'), metrics });
  const relay = opts.relay ?? new RelayHub(metrics);
  const platform: KnowledgeContext = {
    config,
    database,
    db: database.db,
    rateLimiter: opts.rateLimiter,
    secretBox: opts.secretBox,
    log: app.log,
    version: VERSION,
    broadcast,
    queue,
    vectorIndexes: new VectorIndexes(database),
    relay,
    publicUrl: linkBaseUrl(config),
    outbound: opts.outbound ?? new OutboundGuard({ allow: config.OUTBOUND_ALLOW }),
  };
  const spending = new ReplySpending(platform);
  const completion = new CompletionEngine({
    relay,
    metrics,
    spending,
    knowledge: new ReplyKnowledge(platform),
    ...opts.engine,
  });
  const sessions = new SessionVerifier(
    database.db,
    broadcast,
    {
      idleMs: config.SESSION_IDLE_MINUTES * 60_000,
      maxMs: config.SESSION_MAX_DAYS * 86_400_000,
      cacheMs: config.SESSION_CACHE_MS,
    },
    relay,
    opts.now,
  );
  const ports: ConversationPorts & Pick<ServerContext, 'sessions' | 'completion'> = {
    sessions,
    completion,
    apps: {
      greeting: (app, locale) => (app.type === 'silicon' ? null : greetingFor(app.parameters, locale)),
    },
    replies: opts.replies ?? completion,
    relayCallers: relayCallers(platform),
    spending,
  };
  return Object.assign(platform, ports);
}
