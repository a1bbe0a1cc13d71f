import { findUserByEmail } from '@llmor/server/modules/auth/repo';
import { addMember, findVendorByKey, insertVendor } from '@llmor/server/modules/vendors/repo';
import { sql } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type Console, launchBrowser, newPage, signIn, startConsole } from '../harness';

let app: Console;
let browser: Browser;

beforeAll(async () => {
  // No session cache: a session deleted in the database is unknown on the next request (the reload test).
  app = await startConsole({ SESSION_CACHE_MS: '0' });
  browser = await launchBrowser();
  // A second organisation for the admin, so switching has somewhere to go.
  const { db } = app.server.ctx;
  const admin = (await findUserByEmail(db, ADMIN.email))!;
  const second = await insertVendor(db, { key: 'second', name: 'Second Org', currency: 'EUR' });
  await addMember(db, second.id, admin.id);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('the console shell', () => {
  it('sends a signed-out visitor to login, refuses a wrong password, then signs in to the dashboard', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await page.goto('/apps');
    await page.waitForURL('**/login');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid')))
      .toBe('login-email');

    await page.getByTestId('login-email').fill(ADMIN.email);
    await page.getByTestId('login-password').fill('not the password');
    await page.getByTestId('login-password').press('Enter');
    await expect
      .poll(() => page.getByTestId('login-error').textContent())
      .toContain('Invalid email or password');

    await page.getByTestId('login-password').fill(ADMIN.password);
    await page.getByTestId('login-submit').click();
    await page.getByTestId('dashboard-heading').waitFor();
    expect(await page.getByTestId('dashboard-heading').textContent()).toBe('Dashboard');
    expect(await page.getByTestId('nav-admin').isVisible()).toBe(true);
    // The stored session is obfuscated, not the plain token JSON.
    const stored = await page.evaluate(() => localStorage.getItem('llmorsession'));
    expect(stored).toBeTruthy();
    expect(stored).not.toContain('token');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('switches language (stored, page reloaded in German) and back', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('language-item-de_DE').click();
    await page.waitForFunction(() => localStorage.getItem('language') === 'de_DE');
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toBe('Einstellungen');
    await page.getByTestId('user-menu-button').click();
    expect(await page.getByTestId('language-item-de_DE').getAttribute('aria-checked')).toBe('true');
    await page.getByTestId('language-item-en_US').click();
    await expect.poll(() => page.getByTestId('nav-settings').textContent()).toBe('Settings');
    await context.close();
  });

  it('switches organisation: the key is stored and the page reloads in the other vendor', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    const demo = await findVendorByKey(app.server.ctx.db, 'demo');
    await expect.poll(() => page.getByTestId('org-current').textContent()).toBe(demo!.name);
    await page.getByTestId('org-switcher').click();
    await page.getByTestId('org-item-second').click();
    await page.waitForFunction(() => localStorage.getItem('llmorvendor') === 'second');
    await expect.poll(() => page.getByTestId('org-current').textContent()).toBe('Second Org');
    await context.close();
  });

  it('signs out to the login screen, and a revisit stays signed out', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('sign-out').click();
    await page.waitForURL('**/login');
    await page.getByTestId('login-form').waitFor();
    await page.goto('/');
    await page.waitForURL('**/login');
    await context.close();
  });

  it('reloads after 3 s when the stored session is no longer valid, then starts over at login', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    // The server forgets every session (as after a data reset); with no session cache (SESSION_CACHE_MS
    // above) the next start-up finds the stored session invalid.
    await app.server.ctx.db.execute(sql`delete from sessions`);
    const started = Date.now();
    await page.reload();
    await page.waitForURL('**/login', { timeout: 15_000 });
    await page.getByTestId('login-form').waitFor();
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_900);
    await context.close();
  });

  it('opens the API reference from the user menu: every area of the API, searchable, with schemas', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('api-reference-link').click();
    await page.waitForURL('**/docs/api');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('API reference');
    for (const area of ['apps', 'auth', 'conversations', 'functions', 'models', 'usage', 'vendors']) {
      expect(await page.getByTestId(`api-reference-group-${area}`).count(), area).toBe(1);
    }
    const all = await page.getByTestId('api-reference-operation').count();
    expect(all).toBeGreaterThan(25);
    await page.getByTestId('api-reference-search').fill('install an app');
    await expect.poll(() => page.getByTestId('api-reference-operation').count()).toBe(1);
    await page.getByTestId('api-reference-operation').getByRole('button').first().click();
    await expect.poll(() => page.getByTestId('api-reference-operation').innerText()).toContain('app_key');
    await page.getByTestId('api-reference-search').fill('no such call anywhere');
    await page.getByTestId('api-reference-empty').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
