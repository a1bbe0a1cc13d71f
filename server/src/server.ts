import type { FastifyInstance } from 'fastify';
import type { RedisClientType } from 'redis';
import { type BuildOptions, buildApp, type ServerContext } from './app';
import { prepareVectorStore } from './modules/datastores/vectors';
import { closeSiliconPools } from './modules/functions/sandbox';
import { type Config, linkBaseUrl, redisNamespace } from './platform/config';
import { SecretBox } from './platform/crypto';
import { openDatabase } from './platform/db';
import { loadEncryptionKey } from './platform/keys';
import { MemoryRateLimiter, RedisRateLimiter } from './platform/rate-limit';
import { closeRedis, connectRedis, logRedisState, type RedisClient } from './platform/redis';
import { type SeedResult, seed } from './seed';

export interface RunningServer {
  app: FastifyInstance;
  ctx: ServerContext;
  url: string;
  seed: SeedResult;
  close(): Promise<void>;
}

/** Opens the database, migrates, seeds and serves the chosen roles. Used by main.ts, e2e and bench. */
export interface StartOptions {
  now?: () => number;
  /** Told the seed's outcome at once, before anything else can fail (a generated password is shown once). */
  onSeeded?: (result: SeedResult) => void;
  /** The completion engine's replaceable parts (browser journeys slow the demo model). */
  engine?: BuildOptions['engine'];
}

export async function startServer(config: Config, opts: StartOptions = {}): Promise<RunningServer> {
  const database = await openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    prepareTables: prepareVectorStore,
  });
  let redis: RedisClient | null = null;
  try {
    // Once per database: instances starting together wait for the first one's (ADR 0055). The datastores'
    // tables too, made before any instance's first search could race to make them.
    const seeded = await database.underStartLock(async () => {
      if (!database.soleProcess) await prepareVectorStore(database);
      return seed(database.db, config.SEED_ADMIN_EMAIL, config.SEED_ADMIN_PASSWORD);
    });
    opts.onSeeded?.(seeded);
    // Required at start, an accelerator afterwards (docs/adr/0056-redis-outage.md).
    if (config.REDIS_URL) redis = await connectRedis(config.REDIS_URL);
    const sharedLimits = redis
      ? new RedisRateLimiter(redis as RedisClientType, `${redisNamespace(config)}rl:`)
      : null;
    const { app, ctx, stopping } = await buildApp({
      config,
      database,
      rateLimiter: sharedLimits ?? new MemoryRateLimiter(),
      secretBox: new SecretBox(loadEncryptionKey(config)),
      serveWeb: config.ROLES.includes('api'),
      now: opts.now,
      engine: opts.engine,
    });
    if (redis && sharedLimits) {
      logRedisState(redis, app.log, 'rate limits');
      sharedLimits.onFallback = (err) => app.log.warn({ err }, 'rate limit counted in memory: Redis failed');
    }
    await app.listen({ port: config.PORT, host: config.HOST });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : config.PORT;
    ctx.publicUrl = linkBaseUrl(config, port);
    const url = ctx.publicUrl;
    return {
      app,
      ctx,
      url,
      seed: seeded,
      close: async () => {
        // New requests are refused at once while running replies finish for up to SHUTDOWN_DRAIN_MS, outside
        // Fastify's close: its preClose hooks are bounded by the plugin timeout (10 s), which a drain overran
        // (ADR 0055). What is left is stopped and stored as stopped.
        stopping.begin();
        await ctx.completion.close(app.log, config.SHUTDOWN_DRAIN_MS);
        await app.close();
        // After the app: running replies (and their Lua runs) were stopped by then.
        await closeSiliconPools();
        if (redis) await closeRedis(redis);
        await database.close();
      },
    };
  } catch (err) {
    if (redis) await closeRedis(redis).catch(() => {});
    await database.close();
    throw err;
  }
}
