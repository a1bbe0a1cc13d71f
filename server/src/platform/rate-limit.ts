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

export class RedisRateLimiter implements RateLimiter {
  constructor(
    private readonly redis: RedisClientType,
    private readonly prefix = 'llmor:rl:',
  ) {}

  async hit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
    const k = this.prefix + key;
    const [count, ttl] = (await this.redis
      .multi()
      .incr(k)
      .expire(k, windowSeconds, 'NX')
      .ttl(k)
      .exec()) as unknown as [number, number, number];
    return { allowed: count <= limit, retryAfter: Math.max(1, ttl) };
  }

  async peek(key: string): Promise<{ count: number; retryAfter: number }> {
    const k = this.prefix + key;
    const [count, ttl] = (await this.redis.multi().get(k).ttl(k).exec()) as unknown as [
      string | null,
      number,
    ];
    return { count: Number(count ?? 0), retryAfter: Math.max(0, ttl) };
  }

  async reset(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  async release(key: string): Promise<void> {
    // One round trip, and an expired counter is not brought back without its window.
    await this.redis.eval(RELEASE_SCRIPT, { keys: [this.prefix + key] });
  }
}

const RELEASE_SCRIPT = `if (tonumber(redis.call('get', KEYS[1]) or '0')) > 0 then return redis.call('decr', KEYS[1]) end return 0`;
