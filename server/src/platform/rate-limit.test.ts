import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryRateLimiter, type RateLimiter, RedisRateLimiter } from './rate-limit';

const REDIS_URL = process.env.REDIS_URL;

function contract(name: string, make: () => RateLimiter) {
  describe(name, () => {
    it('counts hits per window, peeks without counting, and resets', async () => {
      const limiter = make();
      const key = `test:${name}:${Date.now()}:${Math.random()}`;
      expect(await limiter.peek(key)).toEqual({ count: 0, retryAfter: 0 });
      expect((await limiter.hit(key, 2, 60)).allowed).toBe(true);
      expect((await limiter.hit(key, 2, 60)).allowed).toBe(true);
      const third = await limiter.hit(key, 2, 60);
      expect(third.allowed).toBe(false);
      expect(third.retryAfter).toBeGreaterThan(0);
      const seen = await limiter.peek(key);
      expect(seen.count).toBe(3);
      expect(seen.retryAfter).toBeGreaterThan(50);
      expect((await limiter.peek(key)).count).toBe(3);
      await limiter.reset(key);
      expect((await limiter.peek(key)).count).toBe(0);
    });

    it('releases hits back, never below zero nor past the window', async () => {
      const limiter = make();
      const key = `test:${name}:release:${Date.now()}:${Math.random()}`;
      await limiter.release(key);
      expect((await limiter.peek(key)).count).toBe(0);
      await limiter.hit(key, 1, 60);
      expect((await limiter.hit(key, 1, 60)).allowed).toBe(false);
      await limiter.release(key);
      await limiter.release(key);
      expect((await limiter.hit(key, 1, 60)).allowed).toBe(true);
      await limiter.release(key);
      await limiter.release(key);
      expect((await limiter.peek(key)).count).toBe(0);
    });
  });
}

contract('memory rate limiter', () => new MemoryRateLimiter());

describe.runIf(Boolean(REDIS_URL))('redis', () => {
  let redis: RedisClientType;
  beforeAll(async () => {
    redis = createClient({ url: REDIS_URL }) as RedisClientType;
    await redis.connect();
  });
  afterAll(async () => {
    await redis?.quit();
  });
  contract('redis rate limiter', () => new RedisRateLimiter(redis));
});
