/**
 * A person's identity across vendors (docs/adr/0023-identity-across-tenants.md): an existing account joins
 * a vendor only by accepting, signed in as itself; names and password are the person's own, and changing
 * the password signs their other browsers out.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Console, launchBrowser, newPage, signedClient, signIn, startConsole, toast } from '../harness';

let app: Console;
const GINA = { email: 'gina@globex.test', password: 'gina password 1' };
let browser: Browser;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** A new vendor and its owner's invitation link (no mail server: the link is answered), as the superuser. */
async function createVendor(key: string, name: string, ownerEmail: string): Promise<string> {
  const api = await signedClient(app.url, 'demo');
  const created = await api<{ invite_url?: string }>('POST', '/v1/admin/vendors', {
    key,
    name,
    currency: 'EUR',
    owner_email: ownerEmail,
  });
  expect(created.invite_url).toMatch(/\/invitation\/[A-Za-z0-9_-]+$/);
  return created.invite_url!;
}

/** A new account's invitation link: choose a password (the names the inviter typed are kept). */
async function acceptAsNewAccount(url: string, password: string) {
  const visitor = await newPage(browser, app.url);
  await visitor.page.goto(url);
  await visitor.page.getByTestId('link-password').fill(password);
  await visitor.page.getByTestId('link-confirm').fill(password);
  await visitor.page.getByTestId('link-submit').click();
  await visitor.page.getByTestId('dashboard-heading').waitFor();
  return visitor;
}

async function openAccountPage(page: Page) {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('account-link').click();
  await page.waitForURL('**/account');
  await page.getByTestId('account-page').waitFor();
}

describe('account: an existing account is invited to another vendor', () => {
  it('joins only when its person accepts, signed in; a signed-out visitor of the link is told to sign in', async () => {
    const ownerLink = await createVendor('acme', 'Acme', 'owner@acme.test');
    const owner = await acceptAsNewAccount(ownerLink, 'owner password 1');
    await expect.poll(() => owner.page.getByTestId('org-current').textContent()).toBe('Acme');

    // The owner of another vendor (an account of its own, signed in) has no invitation yet. Not the seeded
    // superuser: a superuser's vendor list holds every vendor, member or not.
    const invitee = await acceptAsNewAccount(
      await createVendor('globex', 'Globex', GINA.email),
      GINA.password,
    );
    await openAccountPage(invitee.page);
    await invitee.page
      .getByTestId('account-invitations-empty')
      .getByText('No pending invitations.')
      .waitFor();

    // Acme's owner invites that address: the answer shows the link once.
    await owner.page.goto('/settings/users');
    await owner.page.getByTestId('members-invite').click();
    await owner.page.getByTestId('invite-email').fill(GINA.email);
    await owner.page.getByTestId('invite-submit').click();
    await owner.page.getByTestId('invite-link').waitFor();
    const link = await owner.page.getByTestId('invite-link').inputValue();
    await owner.page.getByTestId('invite-link-close').click();
    const row = owner.page.getByTestId(`member-row-${GINA.email}`);
    await expect.poll(() => row.getByTestId('member-status').getAttribute('data-status')).toBe('invited');

    // Someone not signed in opens the link: no password to choose, only "sign in as …".
    const stranger = await newPage(browser, app.url);
    await stranger.page.goto(link);
    await expect
      .poll(() => stranger.page.getByTestId('link-sign-in-prompt').textContent())
      .toBe(`Sign in as ${GINA.email} to accept.`);
    expect(await stranger.page.getByTestId('link-password').count()).toBe(0);
    expect(await stranger.page.getByTestId('link-accept').count()).toBe(0);

    // Signed in as someone else (the owner), the link says so and offers to sign out.
    await owner.page.goto(link);
    await expect
      .poll(() => owner.page.getByTestId('link-other-account').textContent())
      .toContain('You are signed in as owner@acme.test.');

    // The sign-in the link offers comes back to it; signed in as the invited person it could be accepted.
    await stranger.page.getByTestId('link-sign-in').click();
    await stranger.page.waitForURL(/\/login\?next=/);
    await stranger.page.getByTestId('login-email').fill(GINA.email);
    await stranger.page.getByTestId('login-password').fill(GINA.password);
    await stranger.page.getByTestId('login-submit').click();
    await stranger.page.waitForURL(`${link}`);
    await stranger.page.getByTestId('link-accept').waitFor();

    // Not a member until accepted: the invitee's vendor switcher has no Acme yet.
    await invitee.page.reload();
    await invitee.page.getByTestId('org-switcher').click();
    await invitee.page.getByTestId('org-list').waitFor();
    expect(await invitee.page.getByTestId('org-item-acme').count()).toBe(0);
    await invitee.page.keyboard.press('Escape');

    // The invitee accepts on the account page (the user menu counts the invitation) and Acme is listed.
    await invitee.page.getByTestId('user-menu-button').click();
    await expect.poll(() => invitee.page.getByTestId('account-link-badge').textContent()).toBe('1');
    await invitee.page.keyboard.press('Escape');
    const invitation = invitee.page.getByTestId(/^account-invitation-\d+$/).filter({ hasText: 'Acme' });
    await invitation.getByTestId('account-invitation-accept').click();
    await toast(invitee.page, 'You joined Acme.');
    await invitee.page.getByTestId('account-invitations-empty').waitFor();
    await invitee.page.getByTestId('org-switcher').click();
    await invitee.page.getByTestId('org-item-acme').waitFor();
    await invitee.page.keyboard.press('Escape');

    // The link is spent; the owner sees an active member.
    await stranger.page.reload();
    await expect
      .poll(() => stranger.page.getByTestId('link-invalid').textContent())
      .toContain('This link is invalid or has expired.');
    await owner.page.goto('/settings/users');
    await expect.poll(() => row.getByTestId('member-status').getAttribute('data-status')).toBe('active');

    // The other way round, through the link: Globex's owner invites Acme's, who opens the link signed in as
    // the invited person and accepts with one button; Globex is then in their vendor switcher.
    await invitee.page.goto('/settings/users');
    await invitee.page.getByTestId('members-invite').click();
    await invitee.page.getByTestId('invite-email').fill('owner@acme.test');
    await invitee.page.getByTestId('invite-submit').click();
    await invitee.page.getByTestId('invite-link').waitFor();
    const back = await invitee.page.getByTestId('invite-link').inputValue();
    await invitee.page.getByTestId('invite-link-close').click();
    // Someone else signed in (Globex's owner, in the stranger's browser) may sign out from the link.
    await stranger.page.goto(back);
    await stranger.page.getByTestId('link-sign-out').click();
    await expect
      .poll(() => stranger.page.getByTestId('link-sign-in-prompt').textContent())
      .toBe('Sign in as owner@acme.test to accept.');
    await owner.page.goto(back);
    await owner.page.getByTestId('link-accept').click();
    await owner.page.getByTestId('dashboard-heading').waitFor();
    await owner.page.getByTestId('org-switcher').click();
    await owner.page.getByTestId('org-item-globex').waitFor();
    await owner.page.keyboard.press('Escape');

    for (const session of [invitee, owner, stranger]) {
      expect(session.errors).toEqual([]);
      await session.context.close();
    }
  });
});

describe('account: names, password and sessions are the person’s own', () => {
  it('declines an invitation, renames, changes the password (signing the other browser out), signs out everywhere else', async () => {
    const ownerLink = await createVendor('beta', 'Beta', 'rita@beta.test');
    const here = await acceptAsNewAccount(ownerLink, 'first password 1');
    const there = await newPage(browser, app.url);
    await signIn(there.page, { email: 'rita@beta.test', password: 'first password 1' });

    // An invitation from another vendor can be declined: it is gone, and nothing was joined.
    const api = await signedClient(app.url, 'demo');
    const demo = (
      await api<{ data: { id: number; key: string; name: string }[] }>('GET', '/v1/vendors')
    ).data.find((v) => v.key === 'demo')!;
    await api('POST', `/v1/vendors/${demo.id}/users`, { email: 'rita@beta.test', role: 'member' });
    await openAccountPage(here.page);
    await here.page
      .getByTestId(`account-invitation-${demo.id}`)
      .getByTestId('account-invitation-decline')
      .click();
    await toast(here.page, `The invitation to ${demo.name} was declined.`);
    await here.page.getByTestId('account-invitations-empty').waitFor();
    await here.page.getByTestId('org-switcher').click();
    await here.page.getByTestId('org-item-beta').waitFor();
    expect(await here.page.getByTestId('org-item-demo').count()).toBe(0);
    await here.page.keyboard.press('Escape');

    // Rename: the user menu and the vendor's member list show the new name.
    await expect.poll(() => here.page.getByTestId('account-email').inputValue()).toBe('rita@beta.test');
    await here.page.getByTestId('account-firstname').fill('Rita');
    await here.page.getByTestId('account-lastname').fill('Renamed');
    await here.page.getByTestId('account-name-save').click();
    await toast(here.page, 'Your name has been saved.');
    await expect
      .poll(() => here.page.getByTestId('user-menu-button').textContent())
      .toContain('Rita Renamed');
    await there.page.goto('/settings/users');
    await expect
      .poll(() => there.page.getByTestId('member-row-rita@beta.test').textContent())
      .toContain('Rita Renamed');

    // Two sessions; this browser's is marked.
    await expect.poll(() => here.page.getByTestId('account-session-row').count()).toBe(2);
    await here.page.getByTestId('account-session-current').waitFor();

    // A wrong current password is refused at its field.
    await here.page.getByTestId('account-current-password').fill('not my password');
    await here.page.getByTestId('account-new-password').fill('second password 2');
    await here.page.getByTestId('account-confirm-password').fill('second password 2');
    await here.page.getByTestId('account-password-submit').click();
    await here.page
      .getByTestId('account-password-form')
      .getByText('The current password is not right.')
      .first()
      .waitFor();
    await here.page.getByTestId('account-current-password').fill('first password 1');
    await here.page.getByTestId('account-password-submit').click();
    await expect
      .poll(() => here.page.getByTestId('account-password-changed').textContent())
      .toBe('Password changed. 1 other session was signed out.');
    await expect.poll(() => here.page.getByTestId('account-session-row').count()).toBe(1);

    // The other browser is signed out: its next page is the sign-in; the old password no longer works.
    await there.page.goto('/apps');
    await there.page.waitForURL('**/login', { timeout: 15_000 });
    await there.page.getByTestId('login-email').fill('rita@beta.test');
    await there.page.getByTestId('login-password').fill('first password 1');
    await there.page.getByTestId('login-submit').click();
    await there.page.getByTestId('login-error').waitFor();
    await there.page.getByTestId('login-password').fill('second password 2');
    await there.page.getByTestId('login-submit').click();
    await there.page.getByTestId('dashboard-heading').waitFor();

    // Sign out everywhere else, after confirming.
    await here.page.reload();
    await expect.poll(() => here.page.getByTestId('account-session-row').count()).toBe(2);
    await here.page.getByTestId('account-sessions-signout-others').click();
    await here.page.getByTestId('account-sessions-confirm-submit').click();
    await expect
      .poll(() => here.page.getByTestId('account-sessions-ended').textContent())
      .toBe('1 other session was signed out.');
    await there.page.goto('/apps');
    await there.page.waitForURL('**/login', { timeout: 15_000 });

    for (const session of [here, there]) {
      expect(session.errors).toEqual([]);
      await session.context.close();
    }
  });
});
