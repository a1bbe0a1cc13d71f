import type { RedisClientType } from 'redis';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window resets. */
  retryAfter: number;
}

/** Fixed-window counters: in memory for one process, in Redis when several instances share them. */
export interface RateLimiter {
  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult>;
  /** The count in the current window without adding to it (0 when none). */
  peek(key: string): Promise<{ count: number; retryAfter: number }>;
  reset(key: string): Promise<void>;
  /**
   * Takes one hit back (never below 0): a counter of things held open (sockets) is hit when one opens and
   * released when it closes; the window only bounds how long a count lost to a crash survives.
   */
  release(key: string): Promise<void>;
}

export class MemoryRateLimiter implements RateLimiter {
  private readonly windows = new Map<string, { count: number; resetAt: number }>();

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const now = Date.now();
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      if (this.windows.size > 100_000) this.sweep(now);
      w = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.windows.set(key, w);
    }
    w.count++;
    return { allowed: w.count <= limit, retryAfter: Math.max(1, Math.ceil((w.resetAt - now) / 1000)) };
  }

  async peek(key: string): Promise<{ count: number; retryAfter: number }> {
    const now = Date.now();
    const w = this.windows.get(key);
    if (!w || w.resetAt <= now) return { count: 0, retryAfter: 0 };
    return { count: w.count, retryAfter: Math.max(1, Math.ceil((w.resetAt - now) / 1000)) };
  }

  async reset(key: string): Promise<void> {
    this.windows.delete(key);
  }

  async release(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.count > 0) w.count--;
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (w.resetAt <= now) this.windows.delete(k);
  }
}

/**
 * Counters in Redis, shared by every instance. While Redis does not answer, counts fall back to this
 * instance's memory (the limit then holds per instance: N instances allow up to N times it for the outage), and
 * go back to Redis as soon as it answers again (docs/adr/0056-redis-outage.md).
 */
export class RedisRateLimiter implements RateLimiter {
  /** Told each Redis failure that made a call fall back (the connection's own loss is logged by its client). */
  onFallback: (err: unknown) => void = () => {};

  constructor(
    private readonly redis: RedisClientType,
    private readonly prefix = 'llmor:rl:',
    private readonly fallback: RateLimiter = new MemoryRateLimiter(),
  ) {}

  hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    return this.either(
      async () => {
        const k = this.prefix + key;
        const [count, ttl] = (await this.redis
          .multi()
          .incr(k)
          .expire(k, windowSeconds, 'NX')
          .ttl(k)
          .exec()) as unknown as [number, number, number];
        return { allowed: count <= limit, retryAfter: Math.max(1, ttl) };
      },
      (memory) => memory.hit(key, limit, windowSeconds),
    );
  }

  peek(key: string): Promise<{ count: number; retryAfter: number }> {
    return this.either(
      async () => {
        const k = this.prefix + key;
        const [count, ttl] = (await this.redis.multi().get(k).ttl(k).exec()) as unknown as [
          string | null,
          number,
        ];
        return { count: Number(count ?? 0), retryAfter: Math.max(0, ttl) };
      },
      (memory) => memory.peek(key),
    );
  }

  reset(key: string): Promise<void> {
    return this.either(
      async () => {
        await this.redis.del(this.prefix + key);
      },
      (memory) => memory.reset(key),
    );
  }

  release(key: string): Promise<void> {
    return this.either(
      async () => {
        // One round trip, and an expired counter is not brought back without its window.
        await this.redis.eval(RELEASE_SCRIPT, { keys: [this.prefix + key] });
      },
      (memory) => memory.release(key),
    );
  }

  /** Redis while it answers (the client fails a command at once while disconnected), else this instance's counts. */
  private async either<T>(
    viaRedis: () => Promise<T>,
    viaMemory: (memory: RateLimiter) => Promise<T>,
  ): Promise<T> {
    if (!this.redis.isReady) return viaMemory(this.fallback);
    try {
      return await viaRedis();
    } catch (err) {
      this.onFallback(err);
      return viaMemory(this.fallback);
    }
  }
}

const RELEASE_SCRIPT = `if (tonumber(redis.call('get', KEYS[1]) or '0')) > 0 then return redis.call('decr', KEYS[1]) end return 0`;
