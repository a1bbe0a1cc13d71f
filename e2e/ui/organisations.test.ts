import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Console, launchBrowser, newPage, SAVED, signIn, startConsole, toast } from '../harness';

let app: Console;
let browser: Browser;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/**
 * Opens an invitation link in its own browser profile, chooses a password and lands on the dashboard;
 * `prefilled` is the first name the inviter typed, which the form must start with.
 */
async function acceptInvitation(
  url: string,
  password: string,
  name?: { first: string; last: string },
  prefilled?: string,
) {
  const visitor = await newPage(browser, app.url);
  await visitor.page.goto(url);
  await visitor.page.getByTestId('link-password').waitFor();
  if (prefilled !== undefined) {
    await expect.poll(() => visitor.page.getByTestId('link-firstname').inputValue()).toBe(prefilled);
  }
  if (name) {
    await visitor.page.getByTestId('link-firstname').fill(name.first);
    await visitor.page.getByTestId('link-lastname').fill(name.last);
  }
  await visitor.page.getByTestId('link-password').fill(password);
  await visitor.page.getByTestId('link-confirm').fill(`${password}!`);
  await visitor.page.getByTestId('link-submit').click();
  // A typo in the repetition is caught before anything is sent.
  await visitor.page.getByText('The passwords differ.').waitFor();
  await visitor.page.getByTestId('link-confirm').fill(password);
  await visitor.page.getByTestId('link-submit').click();
  await visitor.page.getByTestId('dashboard-heading').waitFor();
  return visitor;
}

async function inviteLinkFromModal(page: Page): Promise<string> {
  await page.getByTestId('invite-link').waitFor();
  const url = await page.getByTestId('invite-link').inputValue();
  await page.getByTestId('invite-link-close').click();
  return url;
}

describe('organisations: a superuser onboards Acme and its people from the console', () => {
  it('creates the vendor, the owner accepts and invites a colleague, each sees what their role allows', async () => {
    // The superuser creates "Acme"; with no mail server the invitation link is shown once.
    const admin = await newPage(browser, app.url);
    await signIn(admin.page);
    await admin.page.getByTestId('nav-admin').click();
    await admin.page.waitForURL('**/admin/vendors');
    await admin.page.getByTestId('admin-vendors-create').click();
    await admin.page.getByTestId('admin-vendor-name').fill('Acme');
    await admin.page.getByTestId('admin-vendor-key').fill('Not a key!');
    await admin.page.getByTestId('admin-vendor-currency').fill('EUR');
    await admin.page.getByTestId('admin-vendor-owner-email').fill('owner@acme.test');
    await admin.page.getByTestId('admin-vendor-submit').click();
    await admin.page.getByText('Use 2-50 lower-case letters, digits, - and _').waitFor();
    await admin.page.getByTestId('admin-vendor-key').fill('acme');
    await admin.page.getByTestId('admin-vendor-submit').click();
    const ownerLink = await inviteLinkFromModal(admin.page);
    expect(ownerLink).toMatch(new RegExp(`^${app.url}/invitation/[A-Za-z0-9_-]+$`));
    await admin.page.waitForURL('**/admin/vendors/*/details');
    await expect.poll(() => admin.page.getByTestId('admin-vendor-edit-name').inputValue()).toBe('Acme');

    // The owner accepts in a second browser and works in Acme only.
    const owner = await acceptInvitation(ownerLink, 'owner password 1', { first: 'Olga', last: 'Owner' });
    await expect.poll(() => owner.page.getByTestId('org-current').textContent()).toBe('Acme');
    expect(await owner.page.getByTestId('nav-admin').count()).toBe(0);

    // The owner invites a colleague from Settings → Users.
    await owner.page.getByTestId('nav-settings').click();
    await owner.page.getByTestId('settings-subnav-users').click();
    await owner.page.waitForURL('**/settings/users');
    await owner.page.getByTestId('member-row-owner@acme.test').waitFor();
    await owner.page.getByTestId('members-invite').click();
    await owner.page.getByTestId('invite-email').fill('dev@acme.test');
    await owner.page.getByTestId('invite-firstname').fill('Dana');
    await owner.page.getByTestId('invite-submit').click();
    const memberLink = await inviteLinkFromModal(owner.page);
    const invitedRow = owner.page.getByTestId('member-row-dev@acme.test');
    await expect
      .poll(() => invitedRow.getByTestId('member-status').getAttribute('data-status'))
      .toBe('invited');

    // The colleague accepts, sees Acme, and Settings says it is for owners.
    const member = await acceptInvitation(memberLink, 'member password 1', undefined, 'Dana');
    await expect.poll(() => member.page.getByTestId('org-current').textContent()).toBe('Acme');
    // The name the inviter typed is still the colleague's once accepted, not wiped.
    await member.page.goto('/account');
    await expect.poll(() => member.page.getByTestId('account-firstname').inputValue()).toBe('Dana');
    await member.page.goto('/settings/users');
    await member.page.getByTestId('settings-owners-only').waitFor();
    // Nothing in Settings is a member's: no sidebar link, no sub-navigation, one crumb.
    expect(await member.page.getByTestId('nav-settings').count()).toBe(0);
    expect(await member.page.getByTestId('settings-subnav').count()).toBe(0);
    expect(await member.page.getByTestId('breadcrumbs').textContent()).toBe('Dashboard/Settings');
    expect(await member.page.getByTestId('nav-admin').count()).toBe(0);
    await member.page.goto('/apps');
    await member.page.getByTestId('page-title').waitFor();
    expect(await member.page.getByTestId('no-vendor-selected').count()).toBe(0);

    // The owner deactivates the colleague's membership: on the next page the colleague has no vendor.
    await owner.page.reload();
    await invitedRow.getByTestId('member-link').click();
    await owner.page.getByTestId('member-form').waitFor();
    await expect.poll(() => invitedRow.count()).toBe(0);
    await owner.page.getByTestId('member-active').click({ force: true });
    await owner.page.getByTestId('member-save').click();
    await toast(owner.page, SAVED);
    // Coming back to the open tab is enough: no reload, no "not found" over an empty app list.
    await member.page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await member.page.getByTestId('no-vendor-selected').waitFor();
    expect(await member.page.getByText('Vendor not found').count()).toBe(0);

    // Mail (SMTP): an invalid sender is a field error on the form, and nothing is sent to the server.
    await owner.page.goto('/settings/integrations/smtp');
    await owner.page.getByTestId('smtp-form').waitFor();
    await owner.page.getByTestId('smtp-host').fill('mail.acme.test');
    await owner.page.getByTestId('smtp-from').fill('not an email');
    const settingsWrites: string[] = [];
    owner.page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/settings')) settingsWrites.push(r.url());
    });
    await owner.page.getByTestId('smtp-save').click();
    await expect
      .poll(() => owner.page.getByTestId('smtp-form').getByText('Enter a valid email address').count())
      .toBe(1);
    expect(settingsWrites).toEqual([]);

    // The last owner cannot step down: the server's reason is shown.
    await owner.page.goto('/settings/users');
    await owner.page.getByTestId('member-row-owner@acme.test').getByTestId('member-link').click();
    await owner.page.getByTestId('member-active').click({ force: true });
    await owner.page.getByTestId('member-save').click();
    await toast(owner.page, 'A vendor needs at least one active owner.');

    for (const session of [admin, owner, member]) {
      expect(session.errors).toEqual([]);
      await session.context.close();
    }
  });

  it('refuses a used or made-up link with a clear message', async () => {
    const { context, page } = await newPage(browser, app.url);
    await page.goto(`/invitation/${'x'.repeat(43)}`);
    await expect
      .poll(() => page.getByTestId('link-invalid').textContent())
      .toContain('This link is invalid or has expired.');
    // The link pages carry the product's logo, as sign-in does.
    expect(await page.getByTestId('product-logo').textContent()).toBe('llmor');
    await context.close();
  });
});
