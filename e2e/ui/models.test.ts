import { findVendorByKey } from '@llmor/server/modules/vendors/repo';
import { formatMoney } from '@llmor/server/platform/money';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Console, launchBrowser, newPage, signIn, startConsole } from '../harness';

let app: Console;
let browser: Browser;
let currency: string;

const DEMO = 'builtin-offline-demo';
const COMPATIBLE = 'openai-compatible-chat';
const API_KEY = 'sk-e2e-very-secret-key-7Q2x';
/** The server names an OpenAI-compatible install after the model it serves. */
const COMPATIBLE_NAME = 'llama3.1:8b (OpenAI-compatible server)';

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  currency = (await findVendorByKey(app.server.ctx.db, 'demo'))!.currency;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const rows = (page: Page) => page.locator('[data-testid^="model-row-"]');
const rowOf = (page: Page, key: string) =>
  page.locator(`[data-testid^="model-row-"][data-model-key="${key}"]`);
const card = (page: Page, id: string) => page.getByTestId(`available-model-${id}`);
const field = (page: Page, name: string) => page.getByTestId(`schema-field-${name}`);

async function openInstallModal(page: Page) {
  await page.getByTestId('models-install').click();
  await page.getByTestId('model-install-modal').waitFor();
  await card(page, DEMO).waitFor();
}

describe('models', () => {
  it('installs models through the two-step modal, re-renders the form on code 52, masks secrets, deletes', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);

    // The list starts empty.
    await page.getByTestId('nav-models').click();
    await page.waitForURL('**/models');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Models');
    await expect.poll(() => page.getByTestId('models-empty').textContent()).toBe('No models');

    // Step Select: type filter and search; Continue needs a choice.
    await openInstallModal(page);
    expect(await page.getByTestId('model-install-continue').isDisabled()).toBe(true);
    await page.getByTestId('model-install-type').getByText('Embedding', { exact: true }).click();
    await card(page, 'builtin-lexical-embedding').waitFor();
    expect(await card(page, DEMO).count()).toBe(0);
    await page.getByTestId('model-install-type').getByText('Chat completion', { exact: true }).click();
    await card(page, DEMO).waitFor();
    expect(await card(page, 'builtin-lexical-embedding').count()).toBe(0);
    await page.getByTestId('model-install-search').fill('anthropic'); // by provider
    await card(page, 'anthropic-claude-haiku-4-5').waitFor();
    expect(await card(page, DEMO).count()).toBe(0);
    await page.getByTestId('model-install-search').fill('offline demo'); // by name
    await card(page, DEMO).waitFor();
    expect(await page.locator('[data-testid^="available-model-"][data-selected]').count()).toBe(1);
    expect(await card(page, DEMO).getByTestId('available-model-name').textContent()).toBe(
      'Offline demo (not AI)',
    );

    await card(page, DEMO).click();
    expect(await card(page, DEMO).getAttribute('aria-pressed')).toBe('true');
    await page.getByTestId('model-install-continue').click();

    // Step Configure: no parameters.
    await expect
      .poll(() => page.getByTestId('model-install-no-config').textContent())
      .toMatch(/no configuration required/i);
    const started = Date.now();
    await page.getByTestId('model-install-submit').click();
    await page.getByTestId('model-install-modal').waitFor({ state: 'detached' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(400); // loading button minimum

    // Listed with its cost, 'Unlimited' and Pay-as-you-go.
    await rowOf(page, DEMO).waitFor();
    const demoRow = rowOf(page, DEMO);
    expect(await demoRow.getByTestId('model-name').textContent()).toBe('Offline demo (not AI)');
    expect(await demoRow.getByTestId('model-cost').textContent()).toBe(formatMoney(0, currency));
    expect(await demoRow.getByTestId('model-tokens').textContent()).toBe('Unlimited');
    expect(await demoRow.getByTestId('model-billing').textContent()).toBe('Pay-as-you-go');
    expect(await demoRow.getByTestId('model-provider').textContent()).toBe('Built-in');

    // Reopening starts afresh: no search, all types, nothing chosen.
    await openInstallModal(page);
    expect(await page.getByTestId('model-install-search').inputValue()).toBe('');
    expect(await page.getByTestId('model-install-continue').isDisabled()).toBe(true);
    expect(await card(page, 'builtin-lexical-embedding').count()).toBe(1);

    // OpenAI-compatible server without the required base URL → code 52: the form comes back with the
    // submitted values and the field's message; no banner, nothing installed.
    await card(page, COMPATIBLE).click();
    await page.getByTestId('model-install-continue').click();
    await field(page, 'model').waitFor();
    expect(await field(page, 'api_key').locator('input').getAttribute('type')).toBe('password');
    expect(await field(page, 'base_url').locator('input').getAttribute('type')).toBe('url');
    await field(page, 'model').locator('input').fill('llama3.1:8b');
    await field(page, 'api_key').locator('input').fill(API_KEY);
    await page.getByTestId('model-install-submit').click();
    await expect
      .poll(() => field(page, 'base_url').textContent(), { timeout: 10_000 })
      .toContain('This field is required.');
    expect(await field(page, 'base_url').getAttribute('data-invalid')).toBe('true');
    expect(await field(page, 'model').locator('input').inputValue()).toBe('llama3.1:8b');
    expect(await field(page, 'api_key').locator('input').inputValue()).toBe(''); // secrets are never echoed
    expect(await page.getByTestId('model-install-error').count()).toBe(0);
    expect(await page.getByTestId('model-install-modal').isVisible()).toBe(true);
    expect(await rows(page).count()).toBe(1);

    // Corrected: installed and listed.
    await field(page, 'base_url').locator('input').fill('http://127.0.0.1:11434/v1');
    await expect.poll(() => field(page, 'base_url').getAttribute('data-invalid')).toBeNull();
    await field(page, 'api_key').locator('input').fill(API_KEY);
    await page.getByTestId('model-install-submit').click();
    await page.getByTestId('model-install-modal').waitFor({ state: 'detached' });
    await rowOf(page, COMPATIBLE).waitFor();
    expect(await rows(page).count()).toBe(2);
    expect(await rowOf(page, COMPATIBLE).getByTestId('model-name').textContent()).toBe(COMPATIBLE_NAME);
    expect(await rowOf(page, COMPATIBLE).getByTestId('model-tokens').textContent()).toBe('Unlimited');

    // Sorting by name (default: none); a second click reverses the order.
    const names = () => rows(page).getByTestId('model-name').allTextContents();
    expect(await page.getByTestId('models-sort-name').getAttribute('data-sort')).toBe('none');
    await page.getByTestId('models-sort-name').click();
    await expect.poll(() => page.getByTestId('models-sort-name').getAttribute('data-sort')).toBe('asc');
    await expect.poll(() => page.getByTestId('models-table').getAttribute('data-loading')).toBe('false');
    const ascending = await names();
    await page.getByTestId('models-sort-name').click();
    expect(await page.getByTestId('models-sort-name').getAttribute('data-sort')).toBe('desc');
    await expect.poll(names).toEqual([...ascending].reverse());

    // Detail → configuration: parameters read-only, the API key only as a masked hint.
    await rowOf(page, COMPATIBLE).getByTestId('model-view').click();
    await page.waitForURL(/\/models\/\d+\/details$/);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe(COMPATIBLE_NAME);
    expect(await page.getByTestId('model-detail-key').textContent()).toBe(COMPATIBLE);
    await page.getByTestId('model-tab-configuration').click();
    await page.waitForURL(/\/configuration$/);
    await page.getByTestId('model-config').waitFor();
    expect(
      await page.getByTestId('model-param-base_url').getByTestId('model-param-value').textContent(),
    ).toBe('http://127.0.0.1:11434/v1');
    expect(await page.getByTestId('model-param-model').getByTestId('model-param-value').textContent()).toBe(
      'llama3.1:8b',
    );
    expect(
      await page.getByTestId('model-secret-api_key').getByTestId('model-secret-hint').textContent(),
    ).toBe(`…${API_KEY.slice(-4)}`);
    expect(await page.content()).not.toContain(API_KEY);
    expect(await page.locator('body').innerText()).not.toContain(API_KEY);
    expect(
      await page.locator('input').evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value)),
    ).not.toContain(API_KEY);

    // Usage: said honestly that it is not recorded.
    await page.getByTestId('model-tab-usage').click();
    await page.getByTestId('model-usage-unavailable').waitFor();

    // Delete (with confirmation) → back to the list, the row is gone.
    await page.getByTestId('model-tab-details').click();
    await page.getByTestId('model-delete').click();
    await page.getByTestId('model-delete-confirm').click();
    await page.waitForURL('**/models');
    await rowOf(page, DEMO).waitFor();
    await expect.poll(() => rows(page).count()).toBe(1);
    expect(await rowOf(page, COMPATIBLE).count()).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('applies the schema form rules (input types, nullable numbers, select placeholder) and lists unknown-parameter errors', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    // A catalogue entry whose schema exercises every rule of docs/reference/rules.md. The server knows this id with
    // an empty schema, so installing answers code 52 naming each of these as an unknown parameter.
    await page.route('**/avamodels/available?*', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.data = body.data.map((m: { id: string }) =>
        m.id === DEMO
          ? {
              ...m,
              schema: {
                type: 'object',
                properties: {
                  contact: { type: 'string', title: 'Contact', description: 'Your email address' },
                  secret: { type: 'string', title: 'Secret', description: 'Like a password' },
                  size: { type: 'string', title: 'Size', description: 'Pick one', enum: ['small', 'large'] },
                  count: { type: 'integer', title: 'Count', description: 'How many' },
                  ratio: { type: 'number', title: 'Ratio', description: 'A fraction' },
                },
                required: ['contact'],
                additionalProperties: false,
              },
            }
          : m,
      );
      await route.fulfill({ response, json: body });
    });
    await page.goto('/models');
    await openInstallModal(page);
    await card(page, DEMO).click();
    await page.getByTestId('model-install-continue').click();
    await field(page, 'contact').waitFor();

    expect(await field(page, 'contact').locator('input').getAttribute('type')).toBe('email');
    expect(await field(page, 'contact').locator('label').textContent()).toContain('*'); // required mark
    expect(await field(page, 'secret').locator('input').getAttribute('type')).toBe('password');
    expect(await field(page, 'size').getByRole('combobox').getAttribute('placeholder')).toBe(
      'Please select...',
    );
    await field(page, 'size').getByRole('combobox').click();
    await page.getByRole('option', { name: 'large' }).click();
    await field(page, 'count').locator('input').fill('7');
    await field(page, 'count').locator('input').fill('');
    await field(page, 'ratio').locator('input').fill('0.25');
    await field(page, 'contact').locator('input').fill('ops@example.com');

    const request = page.waitForRequest((r) => r.method() === 'POST' && r.url().includes('/install'));
    await page.getByTestId('model-install-submit').click();
    const sent = (await request).postDataJSON() as { parameters: Record<string, unknown> };
    expect(sent.parameters).toEqual({ contact: 'ops@example.com', size: 'large', count: null, ratio: 0.25 });

    // Code 52 for parameters the real schema does not have: listed under the form, no banner, nothing installed.
    await expect
      .poll(() => page.getByTestId('model-install-form-errors').textContent())
      .toContain('Unknown parameter.');
    expect(await page.getByTestId('model-install-error').count()).toBe(0);
    expect(await page.getByTestId('model-install-no-config').count()).toBe(1);
    await page.getByTestId('model-install-cancel').click();
    await page.getByTestId('model-install-modal').waitFor({ state: 'detached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows load and install failures in a dismissible banner inside the modal', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto('/models');
    await page.getByTestId('models-table').waitFor();

    let failLoad = true;
    await page.route('**/avamodels/available?*', (route) =>
      failLoad
        ? route.fulfill({
            status: 503,
            json: { name: 'ServiceUnavailable', message: 'Catalogue is resting' },
          })
        : route.continue(),
    );
    await page.getByTestId('models-install').click();
    await expect
      .poll(() => page.getByTestId('model-install-error').textContent())
      .toContain('Catalogue is resting');
    await page.getByTestId('model-install-error').getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('model-install-error').waitFor({ state: 'detached' });
    expect(await page.getByTestId('error-banners').count()).toBe(0); // not a page banner
    await page.getByTestId('model-install-cancel').click();
    await page.getByTestId('model-install-modal').waitFor({ state: 'detached' });

    // Reopening loads again (and clears the old error); an install failure without code 52 → banner.
    failLoad = false;
    await page.route('**/install?*', (route) =>
      route.fulfill({ status: 502, json: { name: 'BadGateway', message: 'Upstream said no' } }),
    );
    await openInstallModal(page);
    expect(await page.getByTestId('model-install-error').count()).toBe(0);
    await card(page, DEMO).click();
    await page.getByTestId('model-install-continue').click();
    await page.getByTestId('model-install-submit').click();
    await expect
      .poll(() => page.getByTestId('model-install-error').textContent())
      .toContain('Upstream said no');
    expect(await page.getByTestId('model-install-modal').isVisible()).toBe(true);
    await page.getByTestId('model-install-error').getByRole('button', { name: 'Dismiss' }).click();
    await page.getByTestId('model-install-error').waitFor({ state: 'detached' });
    await context.close();
  });
});
