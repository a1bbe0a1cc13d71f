/**
 * Unsaved input is never discarded without asking: every form reports its dirty state to one guard
 * (docs/adr/0029-unsaved-changes.md), which asks before in-app navigation (sidebar, breadcrumbs,
 * section tabs) and lets the browser ask before a reload or close.
 */
import type { AdminVendorCreated } from '@llmor/contracts';
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
let appId: number;
let functionId: number;
/** An invitation that sets a new account's password (the page outside the signed-in shell). */
let invitationUrl: string;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  const api = await signedClient(app.url, 'demo');
  const demo = await installDemoChatbot(api);
  appId = demo.appId;
  const fn: { id: number } = (
    await api('POST', `/v1/vendors/${demo.vendorId}/functions`, {
      name: 'Greeter',
      function_key: 'greeter',
      description: '',
      runtime: 'silicon',
      is_library: false,
    })
  ).data;
  functionId = fn.id;
  // A second vendor to switch to (the superuser works in every vendor).
  const globex = await api<AdminVendorCreated>('POST', '/v1/admin/vendors', {
    key: 'globex',
    name: 'Globex',
    currency: 'EUR',
    owner_email: 'owner@globex.test',
  });
  invitationUrl = globex.invite_url!;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const prompt = (page: Page) => page.getByTestId('unsaved-prompt');

/** Leaves by `leave`, is asked, stays (input kept); leaves again and discards (lands on `landing`). */
async function staysThenDiscards(
  page: Page,
  leave: () => Promise<void>,
  kept: () => Promise<void>,
  landing: RegExp,
) {
  const before = page.url();
  await leave();
  await prompt(page).getByTestId('unsaved-stay').click();
  await prompt(page).waitFor({ state: 'hidden' });
  expect(page.url()).toBe(before);
  await kept();
  await leave();
  await prompt(page).getByTestId('unsaved-leave').click();
  await page.waitForURL(landing);
}

describe('unsaved changes', () => {
  it('asks before leaving each form with unsaved input; Stay keeps it, Discard leaves it', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);

    // App details: the sidebar asks.
    await page.goto(`/apps/${appId}/settings/details`);
    const name = page.getByTestId('details-name');
    const original = await name.inputValue();
    await name.fill('Renamed, not saved');
    await staysThenDiscards(
      page,
      () => page.getByTestId('nav-models').click(),
      async () => expect(await name.inputValue()).toBe('Renamed, not saved'),
      /\/models$/,
    );
    await page.goto(`/apps/${appId}/settings/details`);
    await expect.poll(() => name.inputValue()).toBe(original);
    // Saved input leaves without asking.
    await name.fill('Renamed and saved');
    await page.getByTestId('details-save').click();
    await toast(page, SAVED);
    await page.getByTestId('nav-functions').click();
    await page.waitForURL(/\/functions$/);
    expect(await prompt(page).isVisible()).toBe(false);

    // The function editor: switching to Runs would drop the code, so it asks.
    await page.goto(`/functions/${functionId}/editor`);
    const code = page.getByTestId('function-code').locator('.cm-content');
    await code.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.insertText('return "kept"');
    await staysThenDiscards(
      page,
      () => page.getByTestId('function-tab-runs').click(),
      async () => expect(await code.textContent()).toBe('return "kept"'),
      /\/runs$/,
    );
    await page.getByTestId('function-tab-editor').click();
    await expect.poll(() => code.textContent()).not.toContain('kept');

    // Settings → Vendor: the sidebar asks.
    await page.goto('/settings/vendor');
    const vendorName = page.getByTestId('vendor-settings-name');
    await vendorName.fill('Not saved Inc.');
    await staysThenDiscards(
      page,
      () => page.getByTestId('nav-apps').click(),
      async () => expect(await vendorName.inputValue()).toBe('Not saved Inc.'),
      /\/apps$/,
    );

    // Switching vendor replaces the page without navigating: it asks as well.
    await page.goto('/settings/vendor');
    await vendorName.fill('Still not saved');
    await page.getByTestId('org-switcher').click();
    await page.getByTestId('org-item-globex').click();
    await prompt(page).getByTestId('unsaved-stay').click();
    await prompt(page).waitFor({ state: 'hidden' });
    expect(await page.getByTestId('org-current').textContent()).toBe('Demo Vendor');
    expect(await vendorName.inputValue()).toBe('Still not saved');
    await page.getByTestId('org-switcher').click();
    await page.getByTestId('org-item-globex').click();
    await prompt(page).getByTestId('unsaved-leave').click();
    await expect.poll(() => page.getByTestId('org-current').textContent()).toBe('Globex');
    await expect.poll(() => vendorName.inputValue()).toBe('Globex');

    // Account: the user menu's way out asks too.
    await page.goto('/account');
    const firstname = page.getByTestId('account-firstname');
    await firstname.fill('Unsaved');
    await staysThenDiscards(
      page,
      () => page.getByTestId('nav-functions').click(),
      async () => expect(await firstname.inputValue()).toBe('Unsaved'),
      /\/functions$/,
    );

    expect(errors).toEqual([]);
    await context.close();
  });

  it('lets the browser ask before reloading a page with unsaved input, and not when nothing differs', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });

    await page.goto('/settings/vendor');
    const vendorName = page.getByTestId('vendor-settings-name');
    const original = await vendorName.inputValue();
    await vendorName.fill('Reloaded away');
    const unsaved = () => page.evaluate(() => document.documentElement.dataset.unsaved ?? null);
    await expect.poll(unsaved).toBe('true');
    await page.reload();
    expect(dialogs).toEqual(['beforeunload']);
    // Accepted: the edit is gone.
    await expect.poll(() => vendorName.inputValue()).toBe(original);

    // Nothing unsaved: no question.
    await vendorName.fill(original);
    await expect.poll(unsaved).toBe(null);
    await page.reload();
    await vendorName.waitFor();
    expect(dialogs).toEqual(['beforeunload']);

    expect(errors).toEqual([]);
    await context.close();
  });

  it("guards the invitation's form outside the signed-in shell: the browser asks, a successful accept does not", async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.type());
      void dialog.accept();
    });
    const unsaved = () => page.evaluate(() => document.documentElement.dataset.unsaved ?? null);

    await page.goto('/login');
    await page.getByTestId('login-form').waitFor();
    await page.goto(invitationUrl);
    const password = page.getByTestId('link-password');
    await password.waitFor();
    // The names the inviter offered are the form's starting point, not unsaved input.
    expect(await unsaved()).toBe(null);
    await password.fill('a password typed');
    await expect.poll(unsaved).toBe('true');
    // Back to the sign-in page, then a reload: the browser asks each time (accepted: the input is gone).
    await page.goBack();
    await page.getByTestId('login-form').waitFor();
    expect(dialogs).toEqual(['beforeunload']);
    await page.goForward();
    await password.waitFor();
    expect(await password.inputValue()).toBe('');
    await password.fill('a password typed');
    await expect.poll(unsaved).toBe('true');
    await page.reload();
    expect(dialogs).toEqual(['beforeunload', 'beforeunload']);

    // Accepting leaves for the dashboard without a question.
    await password.fill('globex owner password');
    await page.getByTestId('link-confirm').fill('globex owner password');
    await page.getByTestId('link-submit').click();
    await page.getByTestId('dashboard-heading').waitFor();
    expect(await prompt(page).count()).toBe(0);
    expect(dialogs).toEqual(['beforeunload', 'beforeunload']);

    expect(errors).toEqual([]);
    await context.close();
  });
});
