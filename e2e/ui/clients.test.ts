import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
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

const run = promisify(execFile);

let app: Console;
let browser: Browser;
let appId: number;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  const api = await signedClient(app.url, 'demo');
  ({ appId } = await installDemoChatbot(api));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Runs a command as a user would paste it into a shell. */
async function shell(command: string): Promise<string> {
  const { stdout } = await run('bash', ['-c', command], { timeout: 30_000 });
  return stdout;
}

describe('app settings: API clients', () => {
  it('creates a client, shows its token once with curl examples that work when pasted, and its conversation in the history', async () => {
    const { page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/clients`);
    await page.getByTestId('clients-empty').waitFor();
    expect(await page.getByTestId('settings-title').innerText()).toBe('API clients');

    // Create: the name is required; then the full token once, and '+' becomes the id.
    await page.getByTestId('clients-create').click();
    await page.waitForURL(`**/apps/${appId}/settings/clients/+`);
    await expect.poll(() => page.getByTestId('settings-title').innerText()).toBe('New API client');
    expect(await page.getByTestId('client-active-input').isChecked()).toBe(true);
    expect(await page.getByTestId('client-token-input').count()).toBe(0);
    await page.getByTestId('client-save').click();
    await page.getByTestId('client-name-error').waitFor();
    await page.getByTestId('client-name-input').fill('Backend');
    await page.getByTestId('client-rate-limit-input').fill('100');
    await page.getByTestId('client-save').click();
    await page.getByTestId('client-rate-interval-error').waitFor();
    await page.getByTestId('client-rate-interval-input').fill('60');
    await page.getByTestId('client-save').click();
    await toast(page, SAVED);
    await page.waitForURL(/\/settings\/clients\/\d+$/);
    const clientId = Number(page.url().split('/').at(-1));
    const fullToken = await page.getByTestId('client-full-token').inputValue();
    expect(fullToken).toMatch(/^llmor_[A-Za-z0-9_-]{43}$/);
    expect(await page.getByTestId('client-issued').innerText()).toMatch(/only time the full token is shown/);
    expect(await page.getByTestId('client-token-input').inputValue()).toBe(`…${fullToken.slice(-8)}`);
    expect(await page.getByTestId('client-token-input').isDisabled()).toBe(true);

    // The client page's example opens a conversation; the second one also sends it a message.
    const open = await page.getByTestId('client-curl-open').innerText();
    expect(open).toBe(
      `curl -X POST ${app.url}/v1/conversations -H 'X-VendorToken: ${fullToken}' -H 'X-Vendor: demo' -H 'content-type: application/json' -d '{"vendor_app_id":${appId},"vendor_channel":"api"}'`,
    );
    const opened = JSON.parse(await shell(open));
    expect(opened.data).toMatchObject({ vendor_app_id: appId, channel: 'api' });
    const sent = JSON.parse(await shell(await page.getByTestId('client-curl-send').innerText()));
    const sentToken: string = sent.conversation.token;
    expect(
      sent.data.map((m: { role: string; message: string }) => [m.role, m.message.split('\n')[0]]),
    ).toEqual(
      expect.arrayContaining([
        ['user', 'Hello!'],
        ['assistant', 'You said: Hello!'],
      ]),
    );
    const openai = JSON.parse(await shell(await page.getByTestId('client-curl-openai').innerText()));
    expect(openai.choices[0].message.content).toMatch(/^You said: Hello!/);

    // The list: name, green dot, last 8 of the token, used, four requests (open, open + send, OpenAI).
    await page.getByTestId('client-back').click();
    const row = page.getByTestId(`client-row-${clientId}`);
    await row.waitFor();
    expect(await row.getByTestId('client-name').innerText()).toBe('Backend');
    expect(await row.getByTestId('client-status').getAttribute('data-active')).toBe('true');
    expect(await row.getByTestId('client-token').innerText()).toBe(fullToken.slice(-8));
    expect(await row.getByTestId('client-requests').innerText()).toBe('4');
    expect(await row.getByTestId('client-last-used').innerText()).not.toBe('never used');
    expect(await page.getByTestId('clients-sort-created_at').getAttribute('data-sort')).toBe('desc');
    expect(await page.locator('body').innerText()).not.toContain(fullToken);

    // Both conversations are in the app's history with their channel.
    await page.goto(`/apps/${appId}/chat`);
    const item = page.locator(`[data-testid="conversation-history-item"][data-token="${sentToken}"]`);
    await item.waitFor();
    expect(await item.getAttribute('data-channel')).toBe('api');
    expect(await item.getByTestId('conversation-channel').innerText()).toBe('API');
    await item.click();
    await expect
      .poll(async () => page.getByTestId('message-text').allInnerTexts())
      .toEqual(expect.arrayContaining([expect.stringMatching(/^You said: Hello!/)]));
    expect(errors).toEqual([]);
  });

  it('edits a client: usage statistics, deactivating refuses its token, sorting by requests', async () => {
    const { page, errors } = await newPage(browser, app.url);
    await signIn(page);
    const api = await signedClient(app.url, 'demo');
    const vendorId = ((await api('GET', '/v1/vendors')).data as { id: number; key: string }[]).find(
      (v) => v.key === 'demo',
    )!.id;
    const base = `/v1/vendors/${vendorId}/apps/${appId}/clients`;
    const quiet: { id: number } = (await api('POST', base, { name: 'Quiet' })).data;
    const busy: { id: number; full_token: string } = (await api('POST', base, { name: 'Busy' })).data;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${app.url}/v1/conversations`, {
        method: 'POST',
        headers: { 'X-VendorToken': busy.full_token, 'X-Vendor': 'demo', 'content-type': 'application/json' },
        body: JSON.stringify({ vendor_app_id: appId, vendor_channel: 'api' }),
      });
      expect(res.status).toBe(201);
    }

    // A never-used client: no usage statistics; a used one: its figures.
    await page.goto(`/apps/${appId}/settings/clients/${quiet.id}`);
    await page.getByTestId('client-form').waitFor();
    expect(await page.getByTestId('client-usage').count()).toBe(0);
    expect(await page.getByTestId('client-issued').count()).toBe(0);
    await page.goto(`/apps/${appId}/settings/clients/${busy.id}`);
    await page.getByTestId('client-usage').waitFor();
    expect(await page.getByTestId('client-usage-requests').innerText()).toBe('3');

    // Deactivate: saved, red in the list, and the token is refused.
    await page.getByTestId('client-active-input').click({ force: true });
    await page.getByTestId('client-save').click();
    await toast(page, SAVED);
    await page.getByTestId('client-back').click();
    const busyRow = page.getByTestId(`client-row-${busy.id}`);
    await busyRow.waitFor();
    await expect.poll(() => busyRow.getByTestId('client-status').getAttribute('data-active')).toBe('false');
    const refused = await fetch(`${app.url}/v1/conversations`, {
      method: 'POST',
      headers: { 'X-VendorToken': busy.full_token, 'X-Vendor': 'demo', 'content-type': 'application/json' },
      body: JSON.stringify({ vendor_app_id: appId, vendor_channel: 'api' }),
    });
    expect(refused.status).toBe(401);

    // Newest first by default; by request count ascending, then descending (Backend made 4, Busy 3).
    const names = () => page.getByTestId('client-name').allInnerTexts();
    await expect.poll(names).toEqual(['Busy', 'Quiet', 'Backend']);
    await page.getByTestId('clients-sort-requets_count').click();
    await expect.poll(names).toEqual(['Quiet', 'Busy', 'Backend']);
    await page.getByTestId('clients-sort-requets_count').click();
    expect(await page.getByTestId('clients-sort-requets_count').getAttribute('data-sort')).toBe('desc');
    await expect.poll(names).toEqual(['Backend', 'Busy', 'Quiet']);
    expect(await page.getByTestId(`client-row-${quiet.id}`).getByTestId('client-last-used').innerText()).toBe(
      'never used',
    );
    expect(errors).toEqual([]);
  });
});
