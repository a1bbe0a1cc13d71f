import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestServer, makeUser, makeVendor, type TestServer } from '../../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
});

describe('vendors', () => {
  it("lists only the user's vendors, as a list envelope", async () => {
    const mine1 = await makeVendor(server.ctx, 'Beta Org');
    const mine2 = await makeVendor(server.ctx, 'Alpha Org');
    await makeVendor(server.ctx, 'Someone Else');
    const user = await makeUser(server.ctx, { vendors: [mine1, mine2] });
    const c = await Client.signedIn(server.app, user.email, user.password);
    const res = await c.get('/v1/vendors');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        expect.objectContaining({ id: mine2.id, name: 'Alpha Org', key: mine2.key }),
        expect.objectContaining({ id: mine1.id }),
      ],
      total_count: 2,
      filter_count: 2,
    });
  });

  it("answers 404 for another vendor's id, an unknown id and a non-numeric id", async () => {
    const mine = await makeVendor(server.ctx);
    const other = await makeVendor(server.ctx);
    const user = await makeUser(server.ctx, { vendors: [mine] });
    const c = await Client.signedIn(server.app, user.email, user.password);
    expect((await c.get(`/v1/vendors/${mine.id}`)).json().data.id).toBe(mine.id);
    for (const id of [other.id, 999999, 'abc', '1.5', '-1']) {
      const res = await c.get(`/v1/vendors/${id}`);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'Vendor not found' });
    }
  });

  it('lets a superuser see every vendor, saying which they belong to (where they land)', async () => {
    const other = await makeVendor(server.ctx, 'AAA first by name');
    const own = await makeVendor(server.ctx, 'ZZZ own');
    const su = await makeUser(server.ctx, { isSu: true, vendors: [own] });
    const c = await Client.signedIn(server.app, su.email, su.password);
    const vendors: { id: number; member: boolean; role: string }[] = (await c.get('/v1/vendors')).json().data;
    expect(vendors.map((v) => v.id)).toContain(other.id);
    expect(vendors.find((v) => v.id === other.id)).toMatchObject({ member: false, role: 'owner' });
    expect(vendors.find((v) => v.id === own.id)).toMatchObject({ member: true });
    expect((await c.get(`/v1/vendors/${own.id}`)).json().data.member).toBe(true);
    expect((await c.get(`/v1/vendors/${other.id}`)).statusCode).toBe(200);
  });

  it('ignores an X-Vendor key the user does not belong to', async () => {
    const mine = await makeVendor(server.ctx);
    const other = await makeVendor(server.ctx);
    const user = await makeUser(server.ctx, { vendors: [mine] });
    const c = await Client.signedIn(server.app, user.email, user.password);
    c.vendorKey = other.key;
    expect((await c.get('/v1/auth/session/user')).json().vendor).toBeNull();
    c.vendorKey = mine.key;
    expect((await c.get('/v1/auth/session/user')).json().vendor.id).toBe(mine.id);
  });

  it('requires a signed-in user (a bare session gets 401 without dropping the session)', async () => {
    const c = await Client.create(server.app);
    const res = await c.get('/v1/vendors');
    expect(res.statusCode).toBe(401);
    expect(res.json().message).not.toContain('Invalid access token');
  });

  it('answers 404 JSON for unknown API routes', async () => {
    const c = await Client.create(server.app);
    const res = await c.get('/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().name).toBe('NotFound');
  });
});
