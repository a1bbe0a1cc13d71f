import { message, SLACK_BOT_SCOPES } from '@llmor/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { schema } from '../../platform/db';
import { conflict, paymentRequired } from '../../platform/errors';
import { FakeSlack, type FakeSlackApp, signedHeaders } from '../../test/fakes/slack';
import { Client, createTestServer, makeApp, makeUser, makeVendor, type TestServer } from '../../test/harness';
import type { AppRow } from '../completion/repo';
import { makeChatApp } from '../completion/testing';
import type { ConversationPorts } from '../conversations/ports';
import type { VendorRow } from '../vendors/repo';
import { verifySlackSignature } from './events';
import { slackChunks } from './reply';

const PUBLIC_URL = 'https://llmor.example';

let slack: FakeSlack;
let server: TestServer;
let vendor: VendorRow;
let otherVendor: VendorRow;
let owner: Client;
let member: Client;
let stranger: Client;
let app: AppRow;
let otherApp: AppRow;

/** What the server's replies refuse with, in order, before the engine is asked; empty, the engine answers. */
const refusals: Error[] = [];
const replies: ConversationPorts['replies'] = {
  start: (ctx, request) => {
    const refusal = refusals.shift();
    return refusal ? Promise.reject(refusal) : server.ctx.completion.start(ctx, request);
  },
  close: () => server.ctx.completion.close(),
};

const base = (v: VendorRow, appId: number) => `/v1/vendors/${v.id}/apps/${appId}/integrations/slack`;
const rows = async <T extends keyof typeof schema>(table: T) =>
  // biome-ignore lint/suspicious/noExplicitAny: any table of the schema
  server.ctx.db.select().from(schema[table] as any);

/** Posts an Events API request as Slack would (the body exactly as signed). */
const deliver = (appId: number | string, req: { headers: Record<string, string>; body: string }) =>
  server.app.inject({
    method: 'POST',
    url: `/v1/slack/events/${appId}`,
    headers: req.headers,
    payload: req.body,
  });

let tsSeq = 0;
const nextTs = () => `1700000000.${String(++tsSeq).padStart(6, '0')}`;
const mention = (text: string, extra: Record<string, unknown> = {}) => ({
  type: 'app_mention',
  user: 'U0PERSON',
  text,
  channel: 'C0GENERAL',
  ts: nextTs(),
  ...extra,
});

/** Waits until the queue has worked every job (the fake's message list is then final). */
async function settle(): Promise<void> {
  await vi.waitFor(
    async () => {
      const { rows: jobs } = await server.ctx.queue.history({
        action: 'slack-reply',
        page: 0,
        pageSize: 100,
      });
      if (!jobs.every((j) => j.status === 'success' || j.status === 'failure')) {
        throw new Error('slack-reply jobs still running');
      }
    },
    { timeout: 15_000, interval: 50 },
  );
}

beforeAll(async () => {
  slack = await FakeSlack.start();
  server = await createTestServer({
    env: {
      ROLES: 'api,relay,worker',
      PUBLIC_URL,
      SLACK_API_URL: slack.apiUrl,
      SLACK_OAUTH_AUTHORIZE_URL: slack.authorizeUrl,
    },
    replies,
  });
  vendor = await makeVendor(server.ctx);
  otherVendor = await makeVendor(server.ctx);
  const ownerUser = await makeUser(server.ctx, { vendors: [vendor], role: 'owner' });
  const memberUser = await makeUser(server.ctx, { vendors: [vendor], role: 'member' });
  const strangerUser = await makeUser(server.ctx, { vendors: [otherVendor], role: 'owner' });
  owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
  member = await Client.signedIn(server.app, memberUser.email, memberUser.password);
  member.vendorKey = vendor.key;
  stranger = await Client.signedIn(server.app, strangerUser.email, strangerUser.password);
  // The vendor's Slack configuration token, set by its owner in vendor settings; integrations are the owners' too.
  const set = await owner.put(`/v1/vendors/${vendor.id}/settings`, {
    slack: { config_token: slack.configToken },
  });
  expect(set.statusCode).toBe(200);
  // A chatbot answering with the built-in offline demo model ("You said: …").
  const installed = await owner.post(`/v1/vendors/${vendor.id}/avamodels/builtin-offline-demo/install`, {
    parameters: {},
  });
  const [model] = await server.ctx.db
    .select()
    .from(schema.vendorModels)
    .where(eq(schema.vendorModels.id, installed.json().data.id));
  app = await makeChatApp(server.ctx, vendor, { model: model! });
  otherApp = await makeApp(server.ctx, otherVendor);
});
afterAll(async () => {
  await server?.close();
  await slack?.close();
});

describe('Slack integration settings', () => {
  it('answers the defaults for an app without one, with whether the vendor has a configuration token', async () => {
    const mine = await owner.get(base(vendor, app.id));
    expect(mine.statusCode).toBe(200);
    expect(mine.json().data).toEqual({
      vendor_app_id: app.id,
      slack_bot_name: '',
      slack_bot_always_online: true,
      is_configured: false,
      slack_app_id: null,
      slack_client_id: null,
      slack_team_domain: null,
      slack_oauth_authorize_url: null,
      vendor_configured: true,
    });
    const theirs = await stranger.get(base(otherVendor, otherApp.id));
    expect(theirs.json().data.vendor_configured).toBe(false);
    expect((await owner.get(base(vendor, otherApp.id))).statusCode).toBe(404);
    expect((await owner.get(`/v1/vendors/${vendor.id}/apps/abc/integrations/slack`)).statusCode).toBe(404);
  });

  it('refuses to create without the vendor configuration token, a bot name, or when Slack refuses; nothing stored', async () => {
    const noToken = await stranger.post(base(otherVendor, otherApp.id), { slack_bot_name: 'Helper' });
    expect(noToken.statusCode).toBe(400);
    expect(noToken.json().message).toContain('Vendor Configuration Required');

    const blank = await owner.post(base(vendor, app.id), { slack_bot_name: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors).toEqual({ slack_bot_name: 'Required' });
    const wrongType = await owner.post(base(vendor, app.id), {
      slack_bot_name: 'Helper',
      slack_bot_always_online: 'yes',
    });
    expect(wrongType.statusCode).toBe(400);
    expect(slack.calls).toEqual([]);

    slack.failNext('apps.manifest.create', 'invalid_auth');
    const refused = await owner.post(base(vendor, app.id), { slack_bot_name: 'Helper' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe('Slack refused to create the app: Slack answered: invalid_auth');
    expect(await rows('slackIntegrations')).toEqual([]);
    expect((await owner.put(base(vendor, app.id), { slack_bot_name: 'Helper' })).statusCode).toBe(404);
    slack.calls.length = 0;
  });
});

describe('a Slack bot from creation to threaded answers', () => {
  let slackApp: FakeSlackApp;

  it('creates the Slack app with the manifest, keeps its credentials sealed, and refuses a second create', async () => {
    const res = await owner.post(base(vendor, app.id), { slack_bot_name: 'Helper Bot' });
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    slackApp = slack.onlyApp();
    const [create] = slack.callsOf('apps.manifest.create');
    expect(create!.token).toBe(slack.configToken);
    expect(create!.contentType).toBe('application/x-www-form-urlencoded');
    expect(create!.params.manifest).toMatchObject({
      display_information: { name: 'Helper Bot' },
      features: { bot_user: { display_name: 'Helper Bot', always_online: true } },
      oauth_config: {
        redirect_urls: [`${PUBLIC_URL}/v1/slack/oauth/callback`],
        scopes: { bot: [...SLACK_BOT_SCOPES] },
      },
      settings: {
        event_subscriptions: {
          request_url: `${PUBLIC_URL}/v1/slack/events/${app.id}`,
          bot_events: ['app_mention', 'message.im'],
        },
      },
    });
    expect(data).toMatchObject({
      slack_bot_name: 'Helper Bot',
      slack_bot_always_online: true,
      is_configured: true,
      slack_app_id: slackApp.appId,
      slack_client_id: slackApp.credentials.client_id,
      slack_team_domain: null,
      vendor_configured: true,
    });
    const authorize = new URL(data.slack_oauth_authorize_url);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(slack.authorizeUrl);
    expect(authorize.searchParams.get('client_id')).toBe(slackApp.credentials.client_id);
    expect(authorize.searchParams.get('scope')).toBe(SLACK_BOT_SCOPES.join(','));
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/v1/slack/oauth/callback`);
    expect(authorize.searchParams.get('state')).toMatch(new RegExp(`^${app.id}\\.[A-Za-z0-9_-]{32}$`));

    const [row] = await rows('slackIntegrations');
    const stored = JSON.stringify(row);
    for (const secret of Object.values(slackApp.credentials).filter((s) => !s.includes('.')))
      expect(stored).not.toContain(secret);
    expect(res.body).not.toContain(slackApp.credentials.client_secret);
    expect(res.body).not.toContain(slackApp.credentials.signing_secret);

    const again = await owner.post(base(vendor, app.id), { slack_bot_name: 'Helper Bot' });
    expect(again.statusCode).toBe(409);
    expect(slack.callsOf('apps.manifest.create')).toHaveLength(1);
  });

  it('installs through OAuth: the callback exchanges the code, stores the bot token sealed and names the workspace', async () => {
    const url = (await owner.get(base(vendor, app.id))).json().data.slack_oauth_authorize_url;
    const approved = await fetch(url, { redirect: 'manual' });
    expect(approved.status).toBe(302);
    const redirect = new URL(approved.headers.get('location')!);
    expect(`${redirect.origin}${redirect.pathname}`).toBe(`${PUBLIC_URL}/v1/slack/oauth/callback`);

    const page = await server.app.inject({ method: 'GET', url: `${redirect.pathname}${redirect.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Slack bot installed');
    expect(page.body).toContain('Helper Bot is installed in the workspace fake-team');
    expect(page.body).toContain(`href="${PUBLIC_URL}/apps/${app.id}/settings/integrations/slack"`);
    const [access] = slack.callsOf('oauth.v2.access');
    expect(access!.params).toMatchObject({
      client_id: slackApp.credentials.client_id,
      client_secret: slackApp.credentials.client_secret,
      redirect_uri: `${PUBLIC_URL}/v1/slack/oauth/callback`,
    });

    const data = (await owner.get(base(vendor, app.id))).json().data;
    expect(data.slack_team_domain).toBe('fake-team');
    const [row] = await server.ctx.db.select().from(schema.slackIntegrations);
    expect(row).toMatchObject({ slackTeamId: 'T0FAKE', slackBotUserId: slackApp.botUserId });
    expect(JSON.stringify(row)).not.toContain(slackApp.botToken!);

    // The same code again (a reload of the result page): Slack refuses it, the page says so.
    const reload = await server.app.inject({ method: 'GET', url: `${redirect.pathname}${redirect.search}` });
    expect(reload.statusCode).toBe(400);
    expect(reload.body).toContain('Slack refused the installation: Slack answered: invalid_code');
  });

  it('answers a mention in its thread, through a conversation on channel slack that keeps the thread history', async () => {
    const first = mention(`<@${slackApp.botUserId}> hello bot`);
    const res = await deliver(app.id, slack.signedEvent(slackApp.appId, first));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    const reply = await slack.waitForMessage((m) => m.thread_ts === first.ts);
    expect(reply.channel).toBe('C0GENERAL');
    expect(reply.text).toMatch(/^You said: hello bot\n/);
    expect(reply.token).toBe(slackApp.botToken);

    const [thread] = await server.ctx.db.select().from(schema.slackThreads);
    expect(thread).toMatchObject({ channelId: 'C0GENERAL', threadTs: first.ts, vendorAppId: app.id });
    const history = await member.get(`/v1/conversations?vendor_app_id=${app.id}`);
    expect(history.json().data).toEqual([
      expect.objectContaining({ id: thread!.conversationId, channel: 'slack', message_count: 2 }),
    ]);

    // A follow-up in the thread goes to the same conversation.
    const followUp = mention(`<@${slackApp.botUserId}> and again`, { thread_ts: first.ts });
    await deliver(app.id, slack.signedEvent(slackApp.appId, followUp));
    const second = await slack.waitForMessage((m) => m.thread_ts === first.ts && m !== reply);
    expect(second.text).toMatch(/^You said: and again\n/);
    const token = history.json().data[0].token;
    const messages = (await member.get(`/v1/conversations/${token}`)).json().data;
    expect(messages.map((m: { role: string }) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(await rows('slackThreads')).toHaveLength(1);
  });

  it("answers Slack's retries of one event once", async () => {
    const event = mention(`<@${slackApp.botUserId}> only once`);
    const request = slack.signedEvent(slackApp.appId, event);
    expect((await deliver(app.id, request)).statusCode).toBe(200);
    const retry = slack.signedEvent(slackApp.appId, event, { eventId: request.eventId });
    const again = await deliver(app.id, {
      ...retry,
      headers: { ...retry.headers, 'x-slack-retry-num': '1' },
    });
    expect(again.statusCode).toBe(200);
    await slack.waitForMessage((m) => m.thread_ts === event.ts);
    await settle();
    expect(slack.messages.filter((m) => m.thread_ts === event.ts)).toHaveLength(1);
  });

  it('answers direct messages, never its own messages, other bots or message subtypes', async () => {
    const before = slack.messages.length;
    const eventsBefore = (await rows('slackEvents')).length;
    const ignored = [
      { type: 'message', channel_type: 'im', user: slackApp.botUserId, text: 'my own answer' },
      { type: 'message', channel_type: 'im', bot_id: 'B0OTHER', text: 'another bot' },
      { type: 'message', channel_type: 'im', user: 'U0PERSON', subtype: 'message_changed', text: 'edited' },
      { type: 'message', channel_type: 'channel', user: 'U0PERSON', text: 'not for the bot' },
      { type: 'app_mention', user: 'U0PERSON', text: `<@${slackApp.botUserId}>  ` },
    ];
    for (const event of ignored) {
      const res = await deliver(
        app.id,
        slack.signedEvent(slackApp.appId, { channel: 'D0DIRECT', ts: nextTs(), ...event }),
      );
      expect(res.statusCode).toBe(200);
    }
    const direct = {
      type: 'message',
      channel_type: 'im',
      user: 'U0PERSON',
      text: 'a direct question',
      channel: 'D0DIRECT',
      ts: nextTs(),
    };
    await deliver(app.id, slack.signedEvent(slackApp.appId, direct));
    const reply = await slack.waitForMessage((m) => m.thread_ts === direct.ts);
    expect(reply).toMatchObject({
      channel: 'D0DIRECT',
      text: expect.stringMatching(/^You said: a direct question/),
    });
    await settle();
    expect(slack.messages.length).toBe(before + 1);
    expect((await rows('slackEvents')).length).toBe(eventsBefore + 1);
  });

  it('posts the plan refusal (402) in the thread instead of an answer', async () => {
    refusals.push(paymentRequired('The plan allows no more requests this month.', 60));
    try {
      const event = mention(`<@${slackApp.botUserId}> over the limit`);
      await deliver(app.id, slack.signedEvent(slackApp.appId, event));
      const reply = await slack.waitForMessage((m) => m.thread_ts === event.ts);
      expect(reply.text).toBe('The plan allows no more requests this month.');
    } finally {
      refusals.length = 0;
    }
  });

  it("says its own texts in the vendor's language: a plan refusal and a busy thread", async () => {
    const used = { count: 5, date: '2026-12-01' };
    refusals.push(
      paymentRequired(message('usedUpRequests', used), 60),
      conflict('A reply is still being generated in this conversation. Wait for it to finish.'),
    );
    expect((await owner.put(`/v1/vendors/${vendor.id}/settings`, { locale: 'fr_FR' })).statusCode).toBe(200);
    try {
      const said: string[] = [];
      for (const text of ['over the limit', 'while busy']) {
        const event = mention(`<@${slackApp.botUserId}> ${text}`);
        await deliver(app.id, slack.signedEvent(slackApp.appId, event));
        said.push((await slack.waitForMessage((m) => m.thread_ts === event.ts)).text as string);
      }
      expect(said).toEqual([message('usedUpRequests', used, 'fr_FR'), message('slackBusy', {}, 'fr_FR')]);
      expect(said[1]).not.toBe(message('slackBusy'));
    } finally {
      refusals.length = 0;
      await owner.put(`/v1/vendors/${vendor.id}/settings`, { locale: 'en_US' });
    }
  });

  it('updates the Slack app (apps.manifest.update) with the new name and presence', async () => {
    const res = await owner.put(base(vendor, app.id), {
      slack_bot_name: 'Renamed Bot',
      slack_bot_always_online: false,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      slack_bot_name: 'Renamed Bot',
      slack_bot_always_online: false,
      is_configured: true,
      slack_team_domain: 'fake-team',
    });
    const [update] = slack.callsOf('apps.manifest.update');
    expect(update!.token).toBe(slack.configToken);
    expect(update!.params.app_id).toBe(slackApp.appId);
    expect(update!.params.manifest).toMatchObject({
      display_information: { name: 'Renamed Bot' },
      features: { bot_user: { display_name: 'Renamed Bot', always_online: false } },
    });
    expect((await owner.get(base(vendor, app.id))).json().data.slack_bot_name).toBe('Renamed Bot');
    slack.expectNoFailures();
  });
});

describe('the events endpoint refuses what Slack did not sign for this app; nothing is stored', () => {
  let slackApp: FakeSlackApp;
  let stored: () => Promise<string>;

  beforeAll(() => {
    slackApp = slack.onlyApp();
    stored = async () =>
      JSON.stringify([await rows('slackEvents'), await rows('slackThreads'), await rows('conversations')]);
  });

  it('answers url_verification with the challenge', async () => {
    const body = JSON.stringify({ token: 'x', challenge: 'c-123', type: 'url_verification' });
    const res = await deliver(app.id, {
      headers: signedHeaders(slackApp.credentials.signing_secret, body),
      body,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ challenge: 'c-123' });
  });

  it('401s unsigned, stale, future, replayed, wrongly signed and tampered requests', async () => {
    const before = await stored();
    const event = mention(`<@${slackApp.botUserId}> forged`);
    const good = slack.signedEvent(slackApp.appId, event);
    const now = Math.floor(Date.now() / 1000);
    const { 'x-slack-signature': _s, ...unsigned } = good.headers;
    const cases: { name: string; headers: Record<string, string>; body: string }[] = [
      { name: 'unsigned', headers: unsigned, body: good.body },
      // Well outside the 300 s window: a busy machine's seconds between signing and checking cannot bring them in.
      { name: 'stale', ...slack.signedEvent(slackApp.appId, event, { timestamp: now - 330 }) },
      { name: 'future', ...slack.signedEvent(slackApp.appId, event, { timestamp: now + 330 }) },
      { name: 'wrong secret', ...slack.signedEvent(slackApp.appId, event, { secret: 'not-the-secret' }) },
      { name: 'tampered', headers: good.headers, body: good.body.replace('forged', 'altered') },
      {
        name: 'malformed signature',
        headers: { ...good.headers, 'x-slack-signature': 'v0=xyz' },
        body: good.body,
      },
      {
        name: 'no timestamp',
        headers: { ...good.headers, 'x-slack-request-timestamp': '' },
        body: good.body,
      },
    ];
    for (const c of cases) {
      const res = await deliver(app.id, c);
      expect(res.statusCode, c.name).toBe(401);
    }
    // A request captured ten minutes ago and sent again: its signature is right, its time is not.
    const captured = slack.signedEvent(slackApp.appId, event, { timestamp: now - 600 });
    expect((await deliver(app.id, captured)).statusCode).toBe(401);
    expect(await stored()).toBe(before);
  });

  it("401s events for an unknown app, an app without a Slack app, and another vendor's app; 400s malformed JSON", async () => {
    const before = await stored();
    const event = slack.signedEvent(slackApp.appId, mention(`<@${slackApp.botUserId}> misrouted`));
    expect((await deliver(999_999, event)).statusCode).toBe(401);
    expect((await deliver(otherApp.id, event)).statusCode).toBe(401);
    const unconfigured = await makeChatApp(server.ctx, vendor);
    expect((await deliver(unconfigured.id, event)).statusCode).toBe(401);
    expect((await deliver('abc', event)).statusCode).toBe(404);

    const malformed = '{"type": "event_callback", ';
    const res = await deliver(app.id, {
      headers: signedHeaders(slackApp.credentials.signing_secret, malformed),
      body: malformed,
    });
    expect(res.statusCode).toBe(400);
    const notSlack = JSON.stringify({ type: 'event_callback', event: 'nope' });
    const shape = await deliver(app.id, {
      headers: signedHeaders(slackApp.credentials.signing_secret, notSlack),
      body: notSlack,
    });
    expect(shape.statusCode).toBe(400);
    await settle();
    expect(await stored()).toBe(before);
    slack.expectNoFailures();
  });

  it('shows a clear page for an OAuth redirect with a forged state or a refusal', async () => {
    const forged = await server.app.inject({
      method: 'GET',
      url: `/v1/slack/oauth/callback?code=x&state=${app.id}.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
    });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('This installation link is not valid');
    const state = new URL(
      (await owner.get(base(vendor, app.id))).json().data.slack_oauth_authorize_url,
    ).searchParams.get('state');
    const denied = await server.app.inject({
      method: 'GET',
      url: `/v1/slack/oauth/callback?error=access_denied&state=${state}`,
    });
    expect(denied.statusCode).toBe(400);
    expect(denied.body).toContain('Slack did not install the bot: access_denied.');
    expect(denied.body).toContain('Back to the console');
  });
});

describe('the fake Slack', () => {
  it('fails the test on a method, page or body it does not expect', async () => {
    const fake = await FakeSlack.start();
    try {
      const unknown = await fetch(`${fake.apiUrl}chat.delete`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'channel=C1',
      });
      expect(unknown.status).toBe(500);
      const text = await fetch(`${fake.apiUrl}chat.postMessage`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'hello',
      });
      expect(text.status).toBe(500);
      const authorize = await fetch(`${fake.authorizeUrl}?client_id=nobody`, { redirect: 'manual' });
      expect(authorize.status).toBe(500);
      expect(fake.failures).toHaveLength(3);
      expect(() => fake.expectNoFailures()).toThrow(/unexpected Slack method chat.delete/);
    } finally {
      await fake.close();
    }
  });
});

describe('slackChunks', () => {
  it('keeps short answers whole and cuts long ones at line ends within the limit', () => {
    expect(slackChunks('short')).toEqual(['short']);
    const para = 'x'.repeat(60);
    const chunks = slackChunks(Array.from({ length: 5 }, () => para).join('\n\n'), 130);
    expect(chunks).toEqual([`${para}\n\n${para}`, `${para}\n\n${para}`, para]);
    expect(slackChunks('y'.repeat(250), 100)).toEqual(['y'.repeat(100), 'y'.repeat(100), 'y'.repeat(50)]);
  });
});

describe("Slack's signature window", () => {
  it('takes a timestamp 300 s away either way and refuses one at 301 s (a fixed clock)', () => {
    const now = 1_800_000_000;
    const at = (timestamp: number) => {
      const h = signedHeaders('secret', '{}', timestamp);
      const headers = { timestamp: h['x-slack-request-timestamp'], signature: h['x-slack-signature'] };
      return verifySlackSignature('secret', headers, '{}', now);
    };
    expect([at(now - 300), at(now + 300), at(now - 301), at(now + 301)]).toEqual([true, true, false, false]);
  });
});
