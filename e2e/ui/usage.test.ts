import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Console,
  installDemoChatbot,
  launchBrowser,
  newPage,
  signedClient,
  signIn,
  startConsole,
  textLines,
} from '../harness';

let app: Console;
let browser: Browser;
let appId: number;
let idleAppId: number;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();

  const api = await signedClient(app.url, 'demo');
  let vendorId: number;
  ({ vendorId, appId } = await installDemoChatbot(api));
  idleAppId = (
    await api<{ data: { id: number } }>('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' })
  ).data.id;

  // One message answered by the offline demo model: one usage row for the app.
  const conversation: { token: string } = (
    await api('POST', '/v1/conversations', {
      vendor_app_id: appId,
      vendor_channel: 'management',
      parameters: {},
    })
  ).data;
  await api('POST', `/v1/conversations/${conversation.token}`, { content: 'Count my tokens, please.' });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const figure = (page: Page, period: string, testId: string) =>
  page.getByTestId(`usage-block-${period}`).getByTestId(testId);

async function figures(page: Page, period: string) {
  const read = async (id: string) => (await figure(page, period, id).innerText()).trim();
  return {
    prompt: await read('usage-tokens-prompt'),
    completion: await read('usage-tokens-completion'),
    requests: await read('usage-requests'),
    cost: await read('usage-cost'),
  };
}

describe('app settings: usage', () => {
  it("shows the app's requests and tokens in the four blocks", async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/usage`);
    await page.getByTestId('usage-blocks').waitFor();
    expect(await page.getByTestId('settings-title').innerText()).toBe('Usage');
    const periods: [string, string][] = [
      ['today', 'Today'],
      ['last_7_days', 'Last 7 days'],
      ['last_30_days', 'Last 30 days'],
      ['total', 'Total'],
    ];
    for (const [period, title] of periods) {
      await expect.poll(() => figure(page, period, 'usage-requests').innerText()).toBe('1');
      const block = page.getByTestId(`usage-block-${period}`);
      expect(await block.innerText()).toContain(title);
      for (const label of ['Prompt Tokens', 'Completion Tokens', 'Requests', 'Cost']) {
        expect(await block.innerText(), `${period} ${label}`).toContain(label);
        expect(await textLines(block.getByText(label, { exact: true })), `${period} ${label}`).toBe(1);
      }
      const f = await figures(page, period);
      expect(Number(f.prompt.replace(/,/g, '')), period).toBeGreaterThan(0);
      expect(Number(f.completion.replace(/,/g, '')), period).toBeGreaterThan(0);
      // The demo vendor's currency, formatted by the server (the offline demo model is free).
      expect(f.cost, period).toMatch(/^[A-Z]{3} 0\.00$/);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows zeros for an app without usage', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${idleAppId}/settings/usage`);
    await page.getByTestId('usage-blocks').waitFor();
    await expect.poll(async () => (await figures(page, 'total')).cost).toMatch(/^[A-Z]{3} 0\.00$/);
    for (const period of ['today', 'last_7_days', 'last_30_days', 'total']) {
      const f = await figures(page, period);
      expect([f.prompt, f.completion, f.requests], period).toEqual(['0', '0', '0']);
    }
    expect(errors).toEqual([]);
    await context.close();
  });
  it('shows the failed usage call as an error with Try again, never as zeros, and recovers', async () => {
    // docs/adr/0028-console-data-layer.md: a failed load never looks like data ("$0.00" in a CHF vendor).
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    const usage = /\/v1\/vendors\/\d+\/usage/;
    let failed = 0;
    await page.route(usage, async (route) => {
      failed++;
      await route.fulfill({
        status: 500,
        contentType: 'application/json',
        body: JSON.stringify({ name: 'InternalServerError', message: 'Internal server error' }),
      });
    });
    await page.goto(`/apps/${appId}/settings/usage`);
    await page.getByTestId('usage-load-error').waitFor();
    expect(failed).toBeGreaterThan(0);
    expect(await page.getByTestId('usage-blocks').count()).toBe(0);
    // Shown where the figures would be, not also as a banner.
    expect(await page.locator('.mantine-Notification-root').count()).toBe(0);
    await page.unroute(usage);
    await page.getByTestId('usage-load-error-retry').click();
    await page.getByTestId('usage-blocks').waitFor();
    expect(Object.values(await figures(page, 'total'))).toHaveLength(4);
    expect(errors).toEqual([]);
    await context.close();
  });
});
