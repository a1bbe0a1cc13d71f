import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestServer,
  makeApp,
  makeUser,
  makeVendor,
  type TestServer,
  uniq,
} from '../../test/harness';

let server: TestServer;
let admin: Client;

beforeAll(async () => {
  server = await createTestServer();
  const su = await makeUser(server.ctx, { isSu: true });
  admin = await Client.signedIn(server.app, su.email, su.password);
});
afterAll(async () => {
  await server?.close();
});

describe('admin vendors', () => {
  it("counts each vendor's own apps and members, in the list, its sort and one vendor", async () => {
    const tag = uniq('counted');
    const none = await makeVendor(server.ctx, `${tag} none`);
    const two = await makeVendor(server.ctx, `${tag} two`);
    await makeApp(server.ctx, two);
    await makeApp(server.ctx, two);
    await makeUser(server.ctx, { vendors: [two] });

    const counts = (rows: { name: string; app_count: number; member_count: number }[]) =>
      rows.map((v) => [v.name, v.app_count, v.member_count]);
    const list = await admin.get(`/v1/admin/vendors?search=${tag}&order=app_count&order_dir=asc`);
    expect(list.statusCode).toBe(200);
    expect(counts(list.json().data)).toEqual([
      [`${tag} none`, 0, 0],
      [`${tag} two`, 2, 1],
    ]);
    const desc = await admin.get(`/v1/admin/vendors?search=${tag}&order=app_count&order_dir=desc`);
    expect(counts(desc.json().data).map(([name]) => name)).toEqual([`${tag} two`, `${tag} none`]);

    expect((await admin.get(`/v1/admin/vendors/${none.id}`)).json().data).toMatchObject({
      app_count: 0,
      member_count: 0,
    });
    expect((await admin.get(`/v1/admin/vendors/${two.id}`)).json().data).toMatchObject({
      app_count: 2,
      member_count: 1,
    });
  });
});
