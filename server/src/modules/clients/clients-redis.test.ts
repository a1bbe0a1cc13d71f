import { createClient, type RedisClientType } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../platform/crypto';
import { RedisRateLimiter } from '../../platform/rate-limit';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeUser,
  makeVendor,
} from '../../test/harness';
import { makeChatApp, makeVendorModel } from '../completion/testing';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

/** Two instances sharing one PostgreSQL database and one Redis: an API client's limit and count span both. */
describe.runIf(Boolean(DATABASE_URL && REDIS_URL))('API client limits across two instances', () => {
  let a: ListeningTestServer;
  let b: ListeningTestServer;
  let redis: RedisClientType;
  let owner: Client;
  let vendorKey: string;
  let base: string;
  let appId: number;

  beforeAll(async () => {
    redis = createClient({ url: REDIS_URL }) as RedisClientType;
    await redis.connect();
    // What server.ts builds with REDIS_URL, under a prefix of this run's own.
    const rateLimiter = new RedisRateLimiter(redis, `llmor:test:${randomToken(6)}:`);
    a = await createListeningTestServer({ env: { REDIS_URL: REDIS_URL! }, rateLimiter });
    b = await createListeningTestServer({
      databaseUrl: a.databaseUrl,
      env: { REDIS_URL: REDIS_URL! },
      rateLimiter,
    });
    const vendor = await makeVendor(a.ctx);
    vendorKey = vendor.key;
    const user = await makeUser(a.ctx, { vendors: [vendor] });
    owner = await Client.signedIn(a.app, user.email, user.password);
    const app = await makeChatApp(a.ctx, vendor, { model: await makeVendorModel(a.ctx, vendor) });
    appId = app.id;
    base = `/v1/vendors/${vendor.id}/apps/${app.id}/clients`;
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await redis?.quit();
  });

  it('shares the rate limit window and counts every accepted call once', async () => {
    const created = await owner.post(base, {
      name: 'Shared',
      request_rate_limit: 4,
      request_rate_interval: 60,
    });
    const { id, full_token } = created.json().data;
    const call = (server: ListeningTestServer) =>
      server.app.inject({
        method: 'POST',
        url: '/v1/conversations',
        headers: { 'x-vendortoken': full_token, 'x-vendor': vendorKey },
        payload: { vendor_app_id: appId, vendor_channel: 'api' },
      });
    const statuses = [];
    for (const server of [a, b, a, b, a, b]) statuses.push((await call(server)).statusCode);
    expect(statuses).toEqual([201, 201, 201, 201, 429, 429]);
    const shown = (await owner.get(`${base}/${id}`)).json().data;
    expect(shown.requets_count).toBe(4);
  });
});
