import { FakeSlack } from '@llmor/server/test/fakes/slack';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Console,
  installDemoChatbot,
  launchBrowser,
  newPage,
  SAVED,
  signedClient,
  signIn,
  startConsole,
  toast,
} from '../harness';

let slack: FakeSlack;
let app: Console;
let browser: Browser;
let api: Awaited<ReturnType<typeof signedClient>>;
let vendorId: number;
let appId: number;

beforeAll(async () => {
  slack = await FakeSlack.start();
  app = await startConsole({ SLACK_API_URL: slack.apiUrl, SLACK_OAUTH_AUTHORIZE_URL: slack.authorizeUrl });
  browser = await launchBrowser();
  api = await signedClient(app.url, 'demo');
  ({ vendorId, appId } = await installDemoChatbot(api));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
  await slack?.close();
});

describe('app settings: Slack integration', () => {
  it('goes from No Slack App to an installed bot that answers a mention in its thread, kept in the history', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/integrations/slack`);

    // Without the vendor's configuration token: the warning with its link, the guide, no Slack app.
    await page.getByTestId('slack-vendor-warning').waitFor();
    expect(await page.getByTestId('settings-title').innerText()).toBe('Slack Integration');
    expect(await page.getByTestId('slack-vendor-warning').innerText()).toContain(
      'Vendor Configuration Required',
    );
    expect(await page.getByTestId('slack-vendor-link').getAttribute('href')).toBe(
      '/settings/integrations/slack',
    );
    const status = page.getByTestId('slack-status');
    expect(await status.getAttribute('data-configured')).toBe('false');
    expect(await status.innerText()).toContain('No Slack App');
    await page.getByTestId('slack-how').waitFor();
    expect(await page.getByTestId('slack-details').count()).toBe(0);

    // The owner sets the token in vendor settings; the warning goes.
    await api('PUT', `/v1/vendors/${vendorId}/settings`, { slack: { config_token: slack.configToken } });
    await page.reload();
    await page.getByTestId('slack-form').waitFor();
    expect(await page.getByTestId('slack-vendor-warning').count()).toBe(0);

    // The button waits for a bot name; always-online is on by default.
    const save = page.getByTestId('slack-save');
    expect(await save.innerText()).toBe('Create Slack App');
    expect(await save.isDisabled()).toBe(true);
    expect(await page.getByTestId('slack-always-online').isChecked()).toBe(true);
    await page.getByTestId('slack-bot-name').fill('Demo Helper');
    expect(await save.isDisabled()).toBe(false);
    await save.click();
    await toast(page, SAVED);

    const created = slack.onlyApp();
    await expect.poll(() => status.getAttribute('data-configured')).toBe('true');
    expect(await status.innerText()).toContain(`App ${created.appId} · not installed in a workspace yet`);
    expect(await page.getByTestId('slack-app-id').innerText()).toBe(created.appId);
    expect(await page.getByTestId('slack-client-id').innerText()).toBe(created.credentials.client_id);
    expect(await page.getByTestId('slack-team-domain').innerText()).toBe('—');
    expect(await save.innerText()).toBe('Update Slack App');
    expect(await page.getByTestId('slack-how').count()).toBe(0);
    expect(created.manifest).toMatchObject({
      features: { bot_user: { display_name: 'Demo Helper', always_online: true } },
      settings: { event_subscriptions: { request_url: `${app.url}/v1/slack/events/${appId}` } },
    });

    // Install In Slack: Slack's page (the fake approves at once) sends the person back to llmor's result page.
    await page.getByTestId('slack-install').click();
    await page.getByTestId('slack-install-title').waitFor();
    expect(await page.getByTestId('slack-install-title').innerText()).toBe('Slack bot installed');
    expect(await page.getByTestId('slack-install-message').innerText()).toContain(
      'Demo Helper is installed in the workspace fake-team',
    );
    await page.getByTestId('slack-install-back').click();
    await page.getByTestId('slack-details').waitFor();
    expect(page.url()).toBe(`${app.url}/apps/${appId}/settings/integrations/slack`);
    expect(await page.getByTestId('slack-team-domain').innerText()).toBe('fake-team');
    expect(await status.innerText()).toContain(`App ${created.appId} · installed in fake-team`);

    // Someone mentions the bot in a channel: Slack posts the signed event, the answer lands in the thread.
    const ts = `${Math.floor(Date.now() / 1000)}.000100`;
    const event = slack.signedEvent(created.appId, {
      type: 'app_mention',
      user: 'U0PERSON',
      text: `<@${created.botUserId}> hello from Slack`,
      channel: 'C0GENERAL',
      ts,
    });
    const delivered = await fetch(slack.eventsUrl(created.appId), {
      method: 'POST',
      headers: event.headers,
      body: event.body,
    });
    expect(delivered.status).toBe(200);
    const reply = await slack.waitForMessage((m) => m.thread_ts === ts);
    expect(reply.channel).toBe('C0GENERAL');
    expect(reply.text).toMatch(/^You said: hello from Slack/);

    // The thread is a conversation in the app's history, with the question and the answer.
    await page.goto(`/apps/${appId}/chat`);
    const item = page.getByTestId('conversation-history-item');
    await item.first().waitFor();
    expect(await item.count()).toBe(1);
    await item.first().click();
    const texts = page.getByTestId('message-text');
    // (After the app's greeting, if it has one.)
    await expect
      .poll(async () => (await texts.allInnerTexts()).slice(-2))
      .toEqual([
        expect.stringContaining('hello from Slack'),
        expect.stringMatching(/^You said: hello from Slack/),
      ]);

    slack.expectNoFailures();
    expect(errors).toEqual([]);
    await context.close();
  });
});
