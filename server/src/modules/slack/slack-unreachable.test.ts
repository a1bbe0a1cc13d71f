/** Slack not answering at all is no refusal of Slack's: 502 saying it could not be reached, nothing stored. */
import { createServer } from 'node:net';
import { MESSAGES } from '@llmor/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Client, createTestServer, makeApp, makeUser, makeVendor, type TestServer } from '../../test/harness';

let server: TestServer;

/** A local port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  server = await createTestServer({ env: { SLACK_API_URL: `http://127.0.0.1:${await closedPort()}/api/` } });
});
afterAll(async () => {
  await server?.close();
});

it('answers 502 "could not be reached" when Slack cannot be reached, in the request locale, and stores nothing', async () => {
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
  const owner = await Client.signedIn(server.app, user.email, user.password);
  const app = await makeApp(server.ctx, vendor);
  const set = await owner.put(`/v1/vendors/${vendor.id}/settings`, {
    slack: { config_token: 'xoxe.xoxp-1-test' },
  });
  expect(set.statusCode).toBe(200);
  const url = `/v1/vendors/${vendor.id}/apps/${app.id}/integrations/slack`;

  const refused = await owner.post(url, { slack_bot_name: 'Helper' });
  expect(refused.statusCode).toBe(502);
  expect(refused.json()).toEqual({ name: 'BadGateway', message: MESSAGES.slackUnreachable.en_US });
  const german = await owner.post(`${url}?locale=de_DE`, { slack_bot_name: 'Helper' });
  expect(german.json().message).toBe(MESSAGES.slackUnreachable.de_DE);
  expect((await owner.get(url)).json().data.is_configured).toBe(false);
});
