import { formatDay } from '@llmor/contracts';
import type { Browser, Page } from 'playwright-core';
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

let app: Console;
let browser: Browser;
let vendorId: number;
let appId: number;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  const api = await signedClient(app.url, 'demo');
  ({ vendorId, appId } = await installDemoChatbot(api));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function createPlan(page: Page, name: string, requests: string) {
  await page.goto('/admin/plans');
  await page.getByTestId('admin-plans-table').waitFor();
  await page.getByTestId('admin-plan-create').click();
  await page.getByTestId('admin-plan-name').fill(name);
  await page.getByTestId('admin-plan-price').fill("CHF 1'900.5");
  expect(await page.getByTestId('admin-plan-price').inputValue()).toBe("1'900.5");
  await page.getByTestId('admin-plan-currency').fill('chf');
  await page.getByTestId('admin-plan-limit-requests').fill(requests);
  await page.getByTestId('admin-plan-save').click();
  await toast(page, SAVED);
  const row = page.getByTestId('admin-plan-row').filter({ hasText: name });
  await row.waitFor();
  expect(await row.innerText()).toContain('CHF 1900.50 per month');
}

async function assignPlan(page: Page, name: string) {
  await page.goto(`/admin/vendors/${vendorId}/subscriptions`);
  await page.getByTestId('admin-assign-form').waitFor();
  await page.getByTestId('admin-assign-plan').click();
  await page.getByRole('option', { name }).click();
  await page.getByTestId('admin-assign-submit').click();
  await toast(page, 'The plan is in force now.');
  const current = page.getByTestId('admin-subscription-row').first();
  await expect.poll(() => current.innerText()).toContain(name);
  expect(await current.innerText()).toMatch(/\bactive\b/i);
}

async function send(page: Page, text: string) {
  await page.getByTestId('composer-input').fill(text);
  await page.getByTestId('composer-input').press('Enter');
}

describe('billing', () => {
  it('a plan of 2 requests stops the third send with a banner; a bigger plan lets sending go on', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);

    // The superuser makes a plan of 2 requests and puts the vendor on it.
    await createPlan(page, 'Starter', '2');
    await assignPlan(page, 'Starter');

    // The owner sends twice, and the third send is refused before any model runs.
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('conversation-empty').waitFor();
    await send(page, 'first');
    await page.waitForURL(new RegExp(`/apps/${appId}/chat/[A-Za-z0-9_-]{16,}$`));
    await page
      .locator('[data-testid="message"][data-role="assistant"]', { hasText: 'You said: first' })
      .waitFor();
    await send(page, 'second');
    await page
      .locator('[data-testid="message"][data-role="assistant"]', { hasText: 'You said: second' })
      .waitFor();
    await send(page, 'third');
    const banner = page.getByTestId('usage-limit-banner');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/limit is reached[\s\S]*2 requests for this period are used up/);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('third');

    // The banner leads to the subscription page: the plan in force; usage shows the limit reached.
    await page.getByTestId('usage-limit-upgrade').click();
    await page.waitForURL(/\/settings\/subscription$/);
    expect(await page.getByTestId('billing-current-plan-name').innerText()).toBe('Starter');
    await page.getByTestId('billing-ask-operator').waitFor();
    await page.getByTestId('billing-tab-usage').click();
    await page.waitForURL(/\/settings\/billing\/usage$/);
    const requests = page.getByTestId('billing-usage-requests');
    await requests.waitFor();
    expect(await requests.getAttribute('data-reached')).toBe('true');
    expect(await page.getByTestId('billing-usage-requests-text').innerText()).toBe('2 of 2 · Limit reached');
    expect(await page.getByTestId('billing-usage-tokens-text').innerText()).toMatch(/\(unlimited\)$/);

    // A new conversation started from the composer is refused the same way, and none is left empty.
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('conversation-empty').waitFor();
    const history = page.getByTestId('conversation-history-item');
    await expect.poll(() => history.count()).toBe(1);
    await send(page, 'a new start');
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/2 requests for this period are used up/);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('a new start');
    expect(new URL(page.url()).pathname).toBe(`/apps/${appId}/chat`);
    await page.reload();
    await page.getByTestId('conversation-empty').waitFor();
    await expect.poll(() => history.count()).toBe(1);

    // The superuser assigns a bigger plan; sending works again and the banner goes.
    await createPlan(page, 'Team', '100');
    await assignPlan(page, 'Team');
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('conversation-history-item').first().click();
    await send(page, 'fourth');
    await page
      .locator('[data-testid="message"][data-role="assistant"]', { hasText: 'You said: fourth' })
      .waitFor();
    expect(await page.getByTestId('usage-limit-banner').count()).toBe(0);
    await page.goto('/settings/billing/usage');
    await expect.poll(() => page.getByTestId('billing-usage-requests-text').innerText()).toBe('1 of 100');

    expect(errors).toEqual([]);
    await context.close();
  });

  it("picks the billing country by name; admin sees an owner's cancellation", async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto('/settings/billing/address');
    await page.getByTestId('billing-address-form').waitFor();
    await page.getByTestId('billing-address-name').fill('Acme AG');
    await page.getByTestId('billing-address-line1').fill('Bahnhofstrasse 1');
    await page.getByTestId('billing-address-postal_code').fill('3011');
    await page.getByTestId('billing-address-city').fill('Bern');
    await page.getByTestId('billing-address-country').fill('Switz');
    await page.getByRole('option', { name: 'Switzerland' }).click();
    await page.getByTestId('billing-address-save').click();
    await toast(page, SAVED);
    const api = await signedClient(app.url, 'demo');
    await expect
      .poll(
        async () =>
          (await api<{ data: { country: string } }>('GET', `/v1/vendors/${vendorId}/billing/address`)).data
            .country,
      )
      .toBe('CH');

    // The owner cancels; the superuser's view of the vendor's subscriptions says when the plan ends.
    const subscriptions = await api<{ data: { id: number; current_period_end: string }[] }>(
      'GET',
      `/v1/admin/vendors/${vendorId}/subscriptions`,
    );
    const current = subscriptions.data[0]!;
    await api('POST', `/v1/vendors/${vendorId}/billing/to/cancel`, { subscription_id: current.id });
    await page.goto(`/admin/vendors/${vendorId}/subscriptions`);
    const ends = page.getByTestId('admin-subscription-row').first().getByTestId('admin-subscription-ends');
    await ends.waitFor();
    expect(await ends.innerText()).toContain(formatDay(current.current_period_end.slice(0, 10), 'en_US'));

    expect(errors).toEqual([]);
    await context.close();
  });
});
