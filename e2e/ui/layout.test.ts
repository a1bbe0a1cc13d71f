/**
 * The console's frame on small screens and in long languages, and the settings pages' edges: the phone
 * drawer closes with Escape, a datastore's row actions are in reach on a phone, a search placeholder fits
 * in French, a member's page is only for a numeric id, and a removed member is not asked for again.
 */
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Console,
  installDemoChatbot,
  isClipped,
  launchBrowser,
  newPage,
  PHONE,
  signedClient,
  signIn,
  startConsole,
} from '../harness';

let app: Console;
let browser: Browser;
let vendorId: number;
let appId: number;
let api: Awaited<ReturnType<typeof signedClient>>;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  api = await signedClient(app.url, 'demo');
  ({ vendorId, appId } = await installDemoChatbot(api));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('layout', () => {
  it('on a phone: the drawer closes with Escape, and a document row offers its actions without scrolling', async () => {
    const datastore: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/apps/${appId}/datastores`, { name: 'faq' })
    ).data;
    await api('POST', `/v1/datastores/${datastore.id}/docs/import`, {
      mode: 'qa',
      data: JSON.stringify([
        { Q: 'Where is my parcel?', A: 'On its way, and the answer is long enough to wrap.' },
      ]),
    });

    const { context, page, errors } = await newPage(browser, app.url, PHONE);
    await signIn(page);
    const burger = page.getByTestId('nav-burger');
    const appsLink = page.getByTestId('nav-apps');
    const inView = async () => {
      const box = await appsLink.boundingBox();
      return !!box && box.x >= 0 && box.x + box.width <= PHONE.width;
    };
    await burger.click();
    await expect.poll(inView).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(inView).toBe(false);

    await page.goto(`/apps/${appId}/settings/datastores`);
    const open = page.locator('[data-testid^="document-row-"]').first().getByTestId('document-open');
    await open.waitFor();
    const box = (await open.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    await open.click();
    await page.getByRole('dialog').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it("shows the members' search placeholder whole in French", async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.evaluate(() => localStorage.setItem('language', 'fr_FR'));
    await page.goto('/settings/users');
    const search = page.getByTestId('members-search');
    await expect.poll(() => search.getAttribute('placeholder')).toBe('Rechercher des utilisateurs');
    // The placeholder's laid-out width against the box's room for text.
    const fits = await search.evaluate((el) => {
      const input = el as HTMLInputElement;
      const style = getComputedStyle(input);
      const probe = document.createElement('span');
      probe.textContent = input.placeholder;
      probe.style.font = style.font;
      probe.style.whiteSpace = 'pre';
      document.body.append(probe);
      const width = probe.getBoundingClientRect().width;
      probe.remove();
      return width <= input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    });
    expect(fits).toBe(true);
    expect(await isClipped(search)).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('finds no member page for a non-numeric id, and does not ask again for a member it removed', async () => {
    const invited: { id: number } = (
      await api('POST', `/v1/vendors/${vendorId}/users`, {
        email: 'leaving@demo.test',
        firstname: 'Lea',
        lastname: 'Ving',
        role: 'member',
      })
    ).data;
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    const memberCalls: string[] = [];
    page.on('request', (r) => {
      if (/\/v1\/vendors\/\d+\/users\/[^/?]+/.test(new URL(r.url()).pathname)) memberCalls.push(r.url());
    });

    await page.goto('/settings/users/abc');
    await page.getByTestId('not-found').waitFor();
    expect(memberCalls).toEqual([]);

    await page.goto(`/settings/users/${invited.id}`);
    await page.getByTestId('member-form').waitFor();
    await page.getByTestId('member-remove').click();
    expect(await page.getByTestId('member-remove-cancel').textContent()).toBe('Cancel');
    const before = memberCalls.length;
    await page.getByTestId('member-remove-confirm').click();
    await page.waitForURL(/\/settings\/users$/);
    await page.getByTestId('members-search').waitFor();
    // Only the removal itself went to the member's address; nothing asked for it afterwards.
    expect(memberCalls.slice(before).length).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});
