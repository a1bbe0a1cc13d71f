import { EventEmitter } from 'node:events';
import type { FastifyBaseLogger } from 'fastify';
import type { createClient } from 'redis';

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

export class RedisBroadcast implements Broadcast {
  private constructor(
    private readonly pub: ReturnType<typeof createClient>,
    private readonly sub: ReturnType<typeof createClient>,
    private readonly prefix: string,
  ) {}

  static async connect(url: string, log: FastifyBaseLogger, prefix = 'llmor:bc:'): Promise<RedisBroadcast> {
    // Loaded only when REDIS_URL is set (it costs start time otherwise).
    const { createClient } = await import('redis');
    const pub = createClient({ url });
    const sub = pub.duplicate();
    for (const client of [pub, sub]) client.on('error', (err) => log.error({ err }, 'broadcast redis error'));
    await Promise.all([pub.connect(), sub.connect()]);
    return new RedisBroadcast(pub, sub, prefix);
  }

  async publish(channel: string, message: string): Promise<void> {
    await this.pub.publish(this.prefix + channel, message);
  }

  subscribe(channel: string, handler: (message: string) => void): void {
    void this.sub.subscribe(this.prefix + channel, handler);
  }

  async close(): Promise<void> {
    await Promise.allSettled([this.pub.quit(), this.sub.quit()]);
  }
}
