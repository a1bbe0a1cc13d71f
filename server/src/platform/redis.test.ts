import type { RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasRedisServer, type OwnRedis, startOwnRedis } from '../test/redis-server';
import { RedisRateLimiter } from './rate-limit';
import { closeRedis, connectRedis, type RedisClient, RedisStartError } from './redis';

/** Redis down and back, for real: this test's own redis-server is killed and started again on its port. */
describe.runIf(hasRedisServer)(
  'Redis rate limits while Redis is away (docs/adr/0056-redis-outage.md)',
  () => {
    let redis: OwnRedis;
    let client: RedisClient;
    let limiter: RedisRateLimiter;
    const prefix = 'rl-test:';

    beforeAll(async () => {
      redis = await startOwnRedis();
      client = await connectRedis(redis.url);
      limiter = new RedisRateLimiter(client as RedisClientType, prefix);
    });
    afterAll(async () => {
      if (client) await closeRedis(client);
      await redis?.stop();
    });

    const allowed = async (key: string, limit: number, times: number) => {
      const seen: boolean[] = [];
      for (let i = 0; i < times; i++) seen.push((await limiter.hit(key, limit, 60)).allowed);
      return seen;
    };

    it('counts in Redis, falls back to this instance’s memory while Redis is down, and returns to Redis', async () => {
      expect(await allowed('send', 2, 3)).toEqual([true, true, false]);
      expect(await client.get(`${prefix}send`)).toBe('3');

      await redis.stop();
      await expect.poll(() => client.isReady, { timeout: 10_000 }).toBe(false);
      // The memory window starts empty: the limit holds again, per instance, for the outage.
      expect(await allowed('send', 2, 3)).toEqual([true, true, false]);
      expect(await limiter.peek('send')).toMatchObject({ count: 3 });
      await limiter.release('send');
      expect(await limiter.peek('send')).toMatchObject({ count: 2 });
      await limiter.reset('send');
      expect(await limiter.peek('send')).toEqual({ count: 0, retryAfter: 0 });

      await redis.start();
      await expect.poll(() => client.isReady, { timeout: 10_000 }).toBe(true);
      // Back in Redis (started empty: nothing saved), so every instance shares the count again.
      expect(await allowed('send', 2, 1)).toEqual([true]);
      expect(await client.get(`${prefix}send`)).toBe('1');
    });

    it('fails a start in one line when Redis answers but refuses the connection', async () => {
      const failure = await connectRedis(`redis://:not-the-password@127.0.0.1:${redis.port}`).then(
        () => null,
        (err: unknown) => err,
      );
      expect(failure).toBeInstanceOf(RedisStartError);
      expect((failure as Error).message).toMatch(
        new RegExp(
          `^llmor failed to start: Redis at 127\\.0\\.0\\.1:${redis.port} \\(REDIS_URL\\) refused the connection: .*AUTH`,
        ),
      );
    });

    it('answers a check sent just as Redis dies (from Redis or, failed, from memory)', async () => {
      const hit = limiter.hit('inflight', 1, 60);
      const stopped = redis.stop();
      expect(await hit).toMatchObject({ allowed: true });
      await stopped;
      await redis.start();
      await expect.poll(() => client.isReady, { timeout: 10_000 }).toBe(true);
    });
  },
);

describe('connecting to Redis at start', () => {
  it('fails at once with one line naming REDIS_URL when nothing answers', async () => {
    const failure = await connectRedis('redis://127.0.0.1:1').then(
      () => null,
      (err: unknown) => err,
    );
    expect(failure).toBeInstanceOf(RedisStartError);
    expect((failure as Error).message).toBe(
      'llmor failed to start: nothing answers at 127.0.0.1:1 (REDIS_URL) — is Redis running? (connect ECONNREFUSED 127.0.0.1:1)',
    );
  });
});
