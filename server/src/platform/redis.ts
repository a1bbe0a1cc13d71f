import type { FastifyBaseLogger } from 'fastify';
import type { createClient } from 'redis';

export type RedisClient = ReturnType<typeof createClient>;

/** The longest wait between two reconnect attempts once connected (docs/adr/0056-redis-outage.md). */
const RECONNECT_MAX_MS = 1_000;
/** A command Redis does not answer within this fails, so no caller waits on a connection that went silent. */
const COMMAND_TIMEOUT_MS = 2_000;

/** A start that cannot reach the configured Redis: its message is the one line `main` prints. */
export class RedisStartError extends Error {
  /** `answered`: Redis itself refused (an error reply: a password, a database number), else nothing answered. */
  constructor(url: string, cause: unknown, answered: boolean) {
    const { hostname, port } = new URL(url);
    const where = `${hostname}:${port || 6379} (REDIS_URL)`;
    const code = (cause as { code?: unknown } | null)?.code;
    const said = cause instanceof Error ? cause.message || String(code ?? cause.name) : String(cause);
    let line: string;
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
      line = `the host ${hostname} in REDIS_URL cannot be resolved.`;
    } else if (answered) {
      line = `Redis at ${where} refused the connection: ${said}`;
    } else {
      line = `nothing answers at ${where} — is Redis running? (${said})`;
    }
    super(`llmor failed to start: ${line}`, { cause });
    this.name = 'RedisStartError';
  }
}

/**
 * A connected Redis client with llmor's settings (docs/adr/0056-redis-outage.md). Redis is required at start:
 * if it does not answer the first connect, this throws a `RedisStartError` at once. Once connected it is an
 * accelerator: a lost connection is retried forever with a back-off capped at `RECONNECT_MAX_MS`, commands
 * fail at once while disconnected (no offline queue: a rate-limit check falls back instead of waiting, and
 * nothing stale is replayed on return), and the client restores its subscriptions on reconnect.
 */
export async function connectRedis(url: string): Promise<RedisClient> {
  // Loaded only when REDIS_URL is set (it costs start time otherwise).
  const { createClient, ErrorReply } = await import('redis');
  let connected = false;
  const client = createClient({
    url,
    disableOfflineQueue: true,
    commandOptions: { timeout: COMMAND_TIMEOUT_MS },
    socket: {
      // Not yet connected: fail the start (false rethrows the socket's error). Later: 50 ms doubling to the cap,
      // with jitter so instances do not knock in step.
      reconnectStrategy: (retries) =>
        connected ? Math.min(50 * 2 ** retries, RECONNECT_MAX_MS) + Math.floor(Math.random() * 100) : false,
    },
  }) as RedisClient;
  // node-redis emits `error` at each failed attempt, and unheard it would throw: `logRedisState` says what matters.
  client.on('error', () => {});
  client.once('ready', () => {
    connected = true;
  });
  try {
    await client.connect();
  } catch (err) {
    throw new RedisStartError(url, err, err instanceof ErrorReply);
  }
  return client;
}

/** A publisher and a subscriber (a subscribed client can send nothing else); neither is left open if one fails. */
export async function connectRedisPair(url: string): Promise<[pub: RedisClient, sub: RedisClient]> {
  const [pub, sub] = await Promise.allSettled([connectRedis(url), connectRedis(url)]);
  if (pub.status === 'fulfilled' && sub.status === 'fulfilled') return [pub.value, sub.value];
  for (const c of [pub, sub]) if (c.status === 'fulfilled') await closeRedis(c.value);
  throw pub.status === 'rejected' ? pub.reason : (sub as PromiseRejectedResult).reason;
}

/** Logs one line when `client` loses Redis and one when it is back (not one per reconnect attempt). */
export function logRedisState(client: RedisClient, log: FastifyBaseLogger, name: string): void {
  let up = client.isReady;
  client.on('error', (err: unknown) => {
    if (up) log.warn({ err }, `redis (${name}) unreachable, reconnecting`);
    up = false;
  });
  client.on('ready', () => {
    if (!up) log.info(`redis (${name}) reachable again`);
    up = true;
  });
}

/** Closes a client whether or not Redis answers now (quitting a disconnected one would wait for nothing). */
export async function closeRedis(client: RedisClient): Promise<void> {
  if (!client.isOpen) return;
  if (client.isReady) await client.close();
  else client.destroy();
}
