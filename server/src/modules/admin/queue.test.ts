/** Queue monitor: housekeeping (scheduled sweeps, the queue library's own jobs) hidden unless asked for. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, createTestServer, makeUser, type TestServer } from '../../test/harness';

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

it('lists all jobs without the sweeps by default, with them when asked, and refuses a bad flag', async () => {
  await server.ctx.queue.send('datastore-sweep', { vendorId: null });
  await server.ctx.queue.send('ping', { vendorId: null });
  const actions = async (query: string) => {
    const res = await admin.get(`/v1/admin/queue/jobs${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data as { action: string }[]).map((j) => j.action);
  };
  const everyday = await actions('?type=all');
  expect(everyday).toContain('ping');
  expect(everyday).not.toContain('datastore-sweep');
  expect(everyday.some((a) => a.startsWith('__pgboss'))).toBe(false);
  expect(await actions('?type=all&internal=true')).toEqual(
    expect.arrayContaining(['ping', 'datastore-sweep']),
  );
  // Asked for by name, a housekeeping job is shown.
  expect(await actions('?type=custom&action=datastore-sweep')).toContain('datastore-sweep');
  expect((await admin.get('/v1/admin/queue/jobs?internal=maybe')).statusCode).toBe(400);
});
