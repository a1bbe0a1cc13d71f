import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import { closeRedis, connectRedisPair, logRedisState, type RedisClient } from './redis';

/**
 * Process-wide notices every instance must hear at once (a revoked session, say). In one process an
 * event emitter; with `REDIS_URL`, Redis pub/sub, so every instance — this one included — receives
 * each notice.
 */
export interface Broadcast {
  publish(channel: string, message: string): Promise<void>;
  subscribe(channel: string, handler: (message: string) => void): void;
  close(): Promise<void>;
}

export class LocalBroadcast implements Broadcast {
  private readonly emitter = new EventEmitter();

  async publish(channel: string, message: string): Promise<void> {
    this.emitter.emit(channel, message);
  }

  subscribe(channel: string, handler: (message: string) => void): void {
    this.emitter.on(channel, handler);
  }

  async close(): Promise<void> {
    this.emitter.removeAllListeners();
  }
}

/**
 * Redis pub/sub. While Redis does not answer, a notice still reaches this instance (never the others: they
 * catch up when their cached state expires, docs/adr/0056-redis-outage.md); the subscriptions come back with
 * the connection.
 */
export class RedisBroadcast implements Broadcast {
  /** This instance's handlers, told directly when Redis cannot carry a notice. */
  private readonly here = new LocalBroadcast();

  private constructor(
    private readonly pub: RedisClient,
    private readonly sub: RedisClient,
    private readonly prefix: string,
    private readonly log: FastifyBaseLogger,
  ) {}

  static async connect(url: string, log: FastifyBaseLogger, prefix = 'llmor:bc:'): Promise<RedisBroadcast> {
    const [pub, sub] = await connectRedisPair(url);
    logRedisState(pub, log, 'broadcast');
    logRedisState(sub, log, 'broadcast subscriber');
    return new RedisBroadcast(pub, sub, prefix, log);
  }

  async publish(channel: string, message: string): Promise<void> {
    try {
      await this.pub.publish(this.prefix + channel, message);
    } catch (err) {
      if (this.pub.isReady) this.log.warn({ err }, 'broadcast not published');
      await this.here.publish(channel, message);
    }
  }

  subscribe(channel: string, handler: (message: string) => void): void {
    this.here.subscribe(channel, handler);
    this.sub
      .subscribe(this.prefix + channel, handler)
      .catch((err: unknown) => this.log.error({ err }, 'broadcast not subscribed'));
  }

  async close(): Promise<void> {
    await this.here.close();
    await Promise.allSettled([closeRedis(this.pub), closeRedis(this.sub)]);
  }
}
