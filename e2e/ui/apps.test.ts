import { findUserByEmail } from '@llmor/server/modules/auth/repo';
import { installModel } from '@llmor/server/modules/models/service';
import { findVendorByKey } from '@llmor/server/modules/vendors/repo';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN,
  type Console,
  isClipped,
  launchBrowser,
  newPage,
  rendered,
  SAVED,
  signIn,
  startConsole,
  toast,
} from '../harness';

let app: Console;
let browser: Browser;
let model: { id: number; name: string };

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  // A completion model for the picker (the offline demo needs no configuration).
  const { ctx } = app.server;
  const admin = (await findUserByEmail(ctx.db, ADMIN.email))!;
  const demo = (await findVendorByKey(ctx.db, 'demo'))!;
  const installed = await installModel(ctx, demo, {
    modelKey: 'builtin-offline-demo',
    parameters: {},
    userId: admin.id,
  });
  model = { id: installed.id, name: installed.name };
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

async function installFromDialog(page: Page, appKey: string): Promise<string> {
  await page.goto('/apps');
  await page.getByTestId('apps-install-button').click();
  const dialog = page.getByRole('dialog', { name: 'Install new App' });
  await dialog.waitFor();
  await page.getByTestId(`install-app-${appKey}`).click();
  await page.waitForURL(/\/apps\/\d+\/settings\/details$/);
  await dialog.waitFor({ state: 'hidden' });
  return /\/apps\/(\d+)\//.exec(page.url())![1]!;
}

/** Replaces the whole text of a CodeMirror editor (insertText: no auto-closing brackets). */
async function replaceEditorText(page: Page, testId: string, text: string) {
  await page.getByTestId(testId).locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

const cardNames = (page: Page) => page.getByTestId('app-card-name').allTextContents();
const footer = (page: Page) => page.getByTestId('list-footer-text').textContent();

describe('apps', () => {
  it('installs an app from the dialog, edits its details, and shows server errors under the field', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.getByTestId('nav-apps').click();
    await page.waitForURL('**/apps');
    await page.getByTestId('apps-empty').waitFor();

    // The dialog lists the catalogue; Close closes it.
    await page.getByTestId('apps-install-button').click();
    const dialog = page.getByRole('dialog', { name: 'Install new App' });
    await page.getByTestId('install-item-chatbot').waitFor();
    expect(await page.getByTestId('install-item-silicon').textContent()).toContain('Silicon Script');
    // Each Install button shows its whole label, beside however long a description.
    for (const button of await page.locator('[data-testid^="install-app-"]').all()) {
      expect(await button.innerText()).toBe('Install');
      expect(await isClipped(button.locator('.mantine-Button-label'))).toBe(false);
    }
    await page.getByTestId('install-dialog-close').click();
    await dialog.waitFor({ state: 'hidden' });

    const id = await installFromDialog(page, 'chatbot');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Chatbot');
    expect(await page.getByTestId('settings-title').textContent()).toBe('App Details');
    expect(await page.getByTestId('details-app-key').inputValue()).toBe('chatbot');
    expect(await page.getByTestId('breadcrumbs').textContent()).toContain('Chatbot');
    expect(await page.getByTestId('settings-nav-details').getAttribute('aria-current')).toBe('page');
    expect(await page.getByTestId('details-creator').textContent()).toContain('Admin');

    // Rename, pick the completion model, save.
    await page.getByTestId('details-name').fill('Support Bot');
    await page.getByTestId('details-description').fill('Answers support questions.');
    await page.getByTestId('details-model').click();
    await page.getByTestId(`details-model-option-${model.id}`).click();
    expect(await page.getByTestId('details-model').inputValue()).toBe(model.name);
    await page.getByTestId('details-save').click();
    await toast(page, SAVED);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Support Bot');

    // The saved values come back after a reload (the picker labels the chosen model).
    await page.reload();
    await expect.poll(() => page.getByTestId('details-name').inputValue()).toBe('Support Bot');
    await expect.poll(() => page.getByTestId('details-model').inputValue()).toBe(model.name);

    // Advanced: the JSON editor keeps invalid text local; a value the server refuses shows under it.
    await page.getByTestId('details-advanced-toggle').click();
    await page.getByTestId('details-parameters-json').locator('.cm-content').waitFor();
    await replaceEditorText(page, 'details-parameters-json', '{"temperature": ');
    await expect
      .poll(() => page.getByTestId('details-parameters-json-error').textContent())
      .toBe('The JSON document is invalid.');
    // Invalid JSON is never saved: Save is refused until it parses.
    expect(await page.getByTestId('details-save').isDisabled()).toBe(true);
    await page.keyboard.insertText('5}');
    await page.getByTestId('details-parameters-json-error').waitFor({ state: 'detached' });
    await page.getByTestId('details-save').click();
    await toast(page, 'The request is invalid.');
    await expect
      .poll(() => page.getByTestId('details-parameters-json-error').textContent())
      .toBe('temperature: Must be at most 2');
    await replaceEditorText(page, 'details-parameters-json', '{"temperature": 1.5}');
    await page.getByTestId('details-save').click();
    await toast(page, SAVED);
    await page.getByTestId('details-parameters-json-error').waitFor({ state: 'detached' });

    // Configuration: the grid from the definitions, edited and saved.
    await page.getByTestId('settings-nav-parameters').click();
    await page.waitForURL(`**/apps/${id}/settings/parameters`);
    await expect.poll(() => page.getByTestId('settings-title').textContent()).toBe('Configuration');
    await page.getByTestId('param-system_prompt').waitFor();
    expect(await page.getByTestId('param-field-system_prompt').getAttribute('data-span')).toBe('12');
    expect(await page.getByTestId('param-field-temperature').getAttribute('data-span')).toBe('6');
    expect(await page.getByTestId('param-header_behaviour').textContent()).toContain('Behaviour');
    expect(await page.getByTestId('param-temperature').inputValue()).toBe('1.5');

    await page.getByTestId('param-system_prompt').fill('You are a pirate. Answer like one.');
    // Number inputs clamp to min/max on blur.
    await page.getByTestId('param-temperature').fill('5');
    await page.getByTestId('param-temperature').press('Tab');
    await expect.poll(() => page.getByTestId('param-temperature').inputValue()).toBe('2');
    // Localized text: one text per locale.
    await page.getByTestId('param-greeting-locales').getByText('Deutsch', { exact: true }).click();
    await page.getByTestId('param-greeting-de_DE').fill('Ahoi! Was brauchst du?');
    // Sample conversation: roles alternate, the avatar cycles the role, remove works.
    expect(await page.getByTestId('param-sample_conversation-empty').textContent()).toBe(
      'No items added yet.',
    );
    await page.getByTestId('param-sample_conversation-add').click();
    await page.getByTestId('param-sample_conversation-add').click();
    await page.getByTestId('param-sample_conversation-add').click();
    const role = (i: number) =>
      page.getByTestId(`param-sample_conversation-item-${i}`).getAttribute('data-role');
    expect([await role(0), await role(1), await role(2)]).toEqual(['user', 'assistant', 'user']);
    await page.getByTestId('param-sample_conversation-role-2').click();
    expect(await role(2)).toBe('assistant');
    await page.getByTestId('param-sample_conversation-remove-2').click();
    await page.getByTestId('param-sample_conversation-message-0').fill('Where is my parcel?');
    await page.getByTestId('param-sample_conversation-message-1').fill('Arr, on its way, matey.');
    // Icon picker: search the icon set.
    await page.getByTestId('param-icon').click();
    await page.getByTestId('param-icon').fill('robot');
    await page.getByTestId('param-icon-option-robot').click();
    expect(await page.getByTestId('param-icon').inputValue()).toBe('robot');
    await page.getByTestId('parameters-save').click();
    await toast(page, SAVED);

    await page.reload();
    await expect
      .poll(() => page.getByTestId('param-system_prompt').inputValue())
      .toBe('You are a pirate. Answer like one.');
    expect(await page.getByTestId('param-temperature').inputValue()).toBe('2');
    expect(await page.getByTestId('param-icon').inputValue()).toBe('robot');
    expect(await page.getByTestId('param-sample_conversation-message-1').inputValue()).toBe(
      'Arr, on its way, matey.',
    );
    await page.getByTestId('param-greeting-locales').getByText('Deutsch', { exact: true }).click();
    expect(await page.getByTestId('param-greeting-de_DE').inputValue()).toBe('Ahoi! Was brauchst du?');

    // A text over its max length: the hint shows at once, and the server's refusal lands under the field.
    await page.getByTestId('param-system_prompt').fill('x'.repeat(20_001));
    await expect
      .poll(() => page.getByTestId('param-field-system_prompt').textContent())
      .toContain('Max length is 20000 characters.');
    await page.getByTestId('parameters-save').click();
    await toast(page, 'The request is invalid.');
    expect(await page.getByTestId('param-field-system_prompt').textContent()).toContain(
      'Max length is 20000 characters.',
    );

    // The refused text is not saved: leaving asks first; discarding it goes on.
    await page.getByTestId('app-tab-conversations').click();
    await page.getByTestId('unsaved-leave').click();
    await page.waitForURL(`**/apps/${id}/chat`);
    // On the conversations tab the breadcrumb does not repeat the app name.
    await expect.poll(() => page.getByTestId('breadcrumbs').textContent()).toBe('Dashboard/Apps');
    await page.getByTestId('conversations-view').waitFor();
    expect(await page.getByTestId('page-title').textContent()).toBe('Support Bot');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('searches, filters and sorts the list, and deletes an app through the menu', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await installFromDialog(page, 'generic');
    const translatorId = await installFromDialog(page, 'translator');

    await page.goto('/apps');
    await expect.poll(() => cardNames(page)).toEqual(['Translator', 'Generic App', 'Support Bot']);
    expect(await footer(page)).toBe('Showing 1 - 3 of 3 entries');
    const card = page.locator(`[data-testid="app-card"][data-app-id="${translatorId}"]`);
    expect(await card.getByTestId('app-card-key').textContent()).toBe('translator');
    expect(await card.getByTestId('app-card-creator').textContent()).toBe('Admin');
    expect(await card.getByTestId('app-card-created').textContent()).toBe('just now');

    // Search (resets to page 0) and the filtered footer.
    await page.getByTestId('apps-search').fill('trans');
    await expect.poll(() => cardNames(page)).toEqual(['Translator']);
    expect(await footer(page)).toBe('Showing 1 - 1 of 1 entries (filtered from 3 total entries)');
    await page.getByTestId('apps-search').fill('');
    await expect.poll(() => cardNames(page)).toHaveLength(3);

    // Sort.
    await page.getByTestId('apps-sort').click();
    await page.getByRole('option', { name: 'Name A-Z' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Generic App', 'Support Bot', 'Translator']);
    await page.getByTestId('apps-sort').click();
    await page.getByRole('option', { name: 'App key Z-A' }).click();
    await expect.poll(() => cardNames(page)).toEqual(['Translator', 'Generic App', 'Support Bot']);

    // Filter by type: toggling options; removing the last option removes the filter.
    await page.getByTestId('apps-filter-button').click();
    await page.getByTestId('apps-filter-option-oneshot').click();
    await expect.poll(() => cardNames(page)).toEqual(['Translator']);
    await page.getByTestId('apps-filter-option-generic').click();
    await expect.poll(() => cardNames(page)).toEqual(['Translator', 'Generic App']);
    await page.getByTestId('apps-filter-option-oneshot').click();
    await expect.poll(() => cardNames(page)).toEqual(['Generic App']);
    await page.keyboard.press('Escape');
    await page.getByTestId('apps-filter-pill-generic-remove').click();
    await page.getByTestId('apps-active-filters').waitFor({ state: 'detached' });
    await expect.poll(() => cardNames(page)).toHaveLength(3);
    expect(await footer(page)).toBe('Showing 1 - 3 of 3 entries');

    // Open a card, delete the app: cancel first, then confirm.
    await card.click();
    await page.waitForURL(`**/apps/${translatorId}/chat`);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Translator');
    await page.getByTestId('app-menu').click();
    await page.getByTestId('app-menu-delete').click();
    const confirm = page.getByRole('dialog', { name: 'Delete App' });
    await confirm.waitFor();
    expect(await page.getByTestId('delete-app-text').textContent()).toBe(
      'Are you sure you want to delete this app? This action cannot be undone.',
    );
    await page.getByTestId('delete-app-cancel').click();
    await confirm.waitFor({ state: 'hidden' });
    await page.getByTestId('app-menu').click();
    await page.getByTestId('app-menu-delete').click();
    // Requests for the deleted app still unanswered: a stray banner would come from one of them.
    let pending = 0;
    const ofDeleted = (url: string) => new URL(url).pathname.endsWith(`/apps/${translatorId}`);
    const count = (step: number) => (request: { url(): string }) => {
      if (ofDeleted(request.url())) pending += step;
    };
    page.on('request', count(1));
    page.on('requestfinished', count(-1));
    page.on('requestfailed', count(-1));
    await page.getByTestId('delete-app-confirm').click();
    await toast(page, 'App deleted successfully');
    await page.waitForURL(/\/apps$/);
    await expect.poll(() => cardNames(page)).toEqual(['Generic App', 'Support Bot']);
    expect(await footer(page)).toBe('Showing 1 - 2 of 2 entries');
    // A successful delete leaves no stray 'App not found' banner behind: every request for the deleted
    // app has been answered and what it answered has been rendered.
    await expect.poll(() => pending).toBe(0);
    await rendered(page);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a clear not-found page for a missing app: one message, no banners, no endless skeleton', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    for (const path of ['/apps/987654/settings/details', '/apps/987654/chat']) {
      await page.goto(path);
      await page.getByTestId('app-not-found').waitFor();
      expect(await page.getByTestId('page-title').innerText()).toBe('App not found');
      expect(await page.getByTestId('app-title-loading').count()).toBe(0);
      expect(await page.getByTestId('error-banner').count()).toBe(0);
      expect(await page.getByTestId('app-menu').count()).toBe(0);
    }
    await page.getByRole('link', { name: 'Back to Apps' }).click();
    await page.waitForURL(/\/apps$/);
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows an error state with a retry, not the empty state, when the list cannot be loaded', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    let failing = true;
    await page.route(/\/v1\/vendors\/\d+\/apps(\?.*)?$/, (route) =>
      failing && route.request().method() === 'GET'
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: '{"name":"Unavailable","message":"Down"}',
          })
        : route.continue(),
    );
    await page.goto('/apps');
    await page.getByTestId('apps-load-error').waitFor();
    expect(await page.getByTestId('apps-empty').count()).toBe(0);
    failing = false;
    await page.getByTestId('apps-load-error-retry').click();
    await page.getByTestId('apps-grid').waitFor();
    expect(await page.getByTestId('apps-load-error').count()).toBe(0);
    await context.close();
  });
});
