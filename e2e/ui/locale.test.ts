/**
 * The server's texts in the console's language (docs/adr/0030): a wrong password and a used-up plan in
 * de_CH and fr_FR read in that language — no English — and the period's end in the locale's date pattern.
 * The instance has no mail server: "Forgot your password?" says whom to ask rather than promising a link.
 */
import { formatDay, type Locale, message } from '@llmor/contracts';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type Console,
  installDemoChatbot,
  launchBrowser,
  newPage,
  signedClient,
  startConsole,
} from '../harness';

let app: Console;
let browser: Browser;
let appId: number;
let periodEnd: string;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  const api = await signedClient(app.url, 'demo');
  let vendorId: number;
  ({ vendorId, appId } = await installDemoChatbot(api));
  const plan: { id: number } = (
    await api('POST', '/v1/admin/plans', {
      name: 'Nothing',
      price_minor: 0,
      currency: 'CHF',
      interval: 'month',
      limits: { requests: 0 },
    })
  ).data;
  const subscription: { current_period_end: string } = (
    await api('POST', `/v1/admin/vendors/${vendorId}/subscriptions`, { plan_id: plan.id })
  ).data;
  periodEnd = subscription.current_period_end.slice(0, 10);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** English words of the texts under test: none may show in another language. */
const ENGLISH = /\b(Invalid|password|period|used up|Upgrade|requests)\b/;

describe('server texts in the console language', () => {
  for (const locale of ['de_CH', 'fr_FR'] as Locale[]) {
    it(`says a wrong password and a used-up plan in ${locale}`, async () => {
      const { context, page, errors } = await newPage(browser, app.url);
      await context.addInitScript((l) => localStorage.setItem('language', l), locale);

      await page.goto('/login');
      await page.getByTestId('login-email').fill(ADMIN.email);
      await page.getByTestId('login-password').fill('not-the-password');
      await page.getByTestId('login-submit').click();
      const refusal = page.getByTestId('login-error');
      await refusal.waitFor();
      const refusalText = await refusal.innerText();
      expect(refusalText).toContain(message('invalidCredentials', {}, locale));
      expect(refusalText).not.toMatch(ENGLISH);

      // Without an instance mail server no reset link can come: the page says whom to ask instead.
      await page.getByTestId('forgot-toggle').click();
      const noMail = page.getByTestId('forgot-no-mail');
      await noMail.waitFor();
      expect(await noMail.innerText()).not.toMatch(ENGLISH);
      expect(await page.getByTestId('forgot-form').count()).toBe(0);

      await page.getByTestId('login-password').fill(ADMIN.password);
      await page.getByTestId('login-submit').click();
      await page.getByTestId('dashboard-heading').waitFor();

      await page.goto(`/apps/${appId}/chat`);
      await page.getByTestId('composer-input').fill('hello');
      await page.getByTestId('composer-input').press('Enter');
      const banner = page.getByTestId('usage-limit-banner');
      await banner.waitFor();
      const bannerText = await banner.innerText();
      expect(bannerText).toContain(formatDay(periodEnd, locale));
      expect(bannerText).not.toContain(periodEnd);
      expect(bannerText).not.toMatch(ENGLISH);
      expect(errors).toEqual([]);
      await context.close();
    });
  }
});
