import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeApp,
  makeUser,
  makeVendor,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';

const DATABASE_URL = process.env.DATABASE_URL;
const REDIS_URL = process.env.REDIS_URL;

/** Two app instances sharing one PostgreSQL database and one Redis: a revocation on A holds on B at once. */
describe.runIf(Boolean(DATABASE_URL && REDIS_URL))(
  'revocation across two instances (PostgreSQL + Redis)',
  () => {
    let a: ListeningTestServer;
    let b: ListeningTestServer;

    beforeAll(async () => {
      a = await createListeningTestServer({ env: { REDIS_URL: REDIS_URL! } });
      b = await createListeningTestServer({ databaseUrl: a.databaseUrl, env: { REDIS_URL: REDIS_URL! } });
    });
    afterAll(async () => {
      await b?.close();
      await a?.close();
    });

    it('a member deactivated on A loses the vendor on B well inside the session cache window; sign-out too', async () => {
      const vendor = await makeVendor(a.ctx);
      const ownerUser = await makeUser(a.ctx, { vendors: [vendor], role: 'owner' });
      const memberUser = await makeUser(a.ctx, { vendors: [vendor] });
      const ownerOnA = await Client.signedIn(a.app, ownerUser.email, ownerUser.password);
      const memberOnB = await Client.signedIn(b.app, memberUser.email, memberUser.password);
      // B has the member's session in its cache now.
      expect((await memberOnB.get(`/v1/vendors/${vendor.id}`)).statusCode).toBe(200);

      const started = Date.now();
      const res = await ownerOnA.put(`/v1/vendors/${vendor.id}/users/${memberUser.id}`, { active: false });
      expect(res.statusCode).toBe(200);
      await expect.poll(async () => (await memberOnB.get(`/v1/vendors/${vendor.id}`)).statusCode).toBe(404);
      // The cache keeps sessions 5 s; the broadcast made B drop it long before.
      expect(Date.now() - started).toBeLessThan(2_000);

      // A sign-out on B is refused on A at once as well.
      const ownerOnB = Object.assign(new Client(b.app), { token: ownerOnA.token, secret: ownerOnA.secret });
      expect((await ownerOnA.get('/v1/vendors')).statusCode).toBe(200);
      expect((await ownerOnB.post('/v1/auth/signout')).statusCode).toBe(204);
      await expect.poll(async () => (await ownerOnA.get('/v1/vendors')).statusCode).toBe(401);
      expect(Date.now() - started).toBeLessThan(4_000);
    });

    it("a member deactivated on A is disconnected from B's relay at once and cannot rejoin", async () => {
      const vendor = await makeVendor(a.ctx);
      const ownerUser = await makeUser(a.ctx, { vendors: [vendor], role: 'owner' });
      const memberUser = await makeUser(a.ctx, { vendors: [vendor] });
      const ownerOnA = await Client.signedIn(a.app, ownerUser.email, ownerUser.password);
      const memberOnB = await Client.signedIn(b.app, memberUser.email, memberUser.password);
      const app = await makeApp(a.ctx, vendor);
      ownerOnA.vendorKey = vendor.key;
      const opened = await ownerOnA.post('/v1/conversations', {
        vendor_app_id: app.id,
        vendor_channel: 'management',
      });
      expect(opened.statusCode, opened.body).toBe(201);
      const token = opened.json().data.token;

      const socket = await RelayClient.connect(b.url, memberOnB.relayAuth());
      try {
        expect(await socket.ask('join', token)).toEqual({ ok: true });
        const evicted = socket.disconnected();
        const res = await ownerOnA.put(`/v1/vendors/${vendor.id}/users/${memberUser.id}`, { active: false });
        expect(res.statusCode).toBe(200);
        await evicted;
      } finally {
        socket.close();
      }
      const again = await RelayClient.connect(b.url, memberOnB.relayAuth());
      try {
        expect((await again.ask('join', token)).ok).toBe(false);
      } finally {
        again.close();
      }
    });
  },
);
