import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Console,
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
let api: Awaited<ReturnType<typeof signedClient>>;
let vendorId: number;
let appId: number;

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  api = await signedClient(app.url, 'demo');
  const vendors = (await api<{ data: { id: number; key: string }[] }>('GET', '/v1/vendors')).data;
  vendorId = vendors.find((v) => v.key === 'demo')!.id;
  appId = (
    await api<{ data: { id: number } }>('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' })
  ).data.id;
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

/** Replaces the whole text of a CodeMirror editor (insertText: no auto-closing brackets or indentation). */
async function replaceCode(page: Page, code: string) {
  await page.getByTestId('function-code').locator('.cm-content').click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(code);
}

const statusColor = (page: Page) => page.getByTestId('function-status').getAttribute('data-color');

/** Lines of the function under test; `LINE` is where the breakpoint / error goes. */
const HEAD = [
  'schema = {',
  '  arguments = {',
  '    type = "object",',
  '    properties = { city = { type = "string" }, days = { type = "integer" } },',
  '  },',
  '  config = { type = "object", properties = { units = { type = "string", enum = { "C", "F" } } } },',
  '}',
  'function run(args, config)',
  '  print("looking up " .. tostring(args.city))',
];
const TAIL = [
  '  log.warn("days: " .. tostring(args.days))',
  '  return { city = args.city, days = args.days, temp = 21 }',
  'end',
];
const LINE = HEAD.length + 1;
const codeWith = (...middle: string[]) => [...HEAD, ...middle, ...TAIL].join('\n');

describe('functions', () => {
  it('creates a function, runs it from the editor (form, JSON, breakpoint, error), lists and views its runs', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);

    // The list: seeded library functions, sorted by name ascending by default.
    await page.getByTestId('nav-functions').click();
    await page.waitForURL('**/functions');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Functions');
    await page.locator('[data-testid^="function-row-"]').first().waitFor();
    expect(await page.getByTestId('functions-sort-name').getAttribute('data-sort')).toBe('asc');
    const names = await page.getByTestId('function-name').allTextContents();
    expect(names.length).toBeGreaterThan(0);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en', { sensitivity: 'base' })));
    expect(await page.getByTestId('function-runtime').first().textContent()).toBe('Silicon (lua)');
    expect(await page.getByTestId('function-last-run').first().textContent()).toBe('Never');
    expect(await page.getByTestId('function-success-rate').first().textContent()).toBe('N/A');

    // A non-numeric id is not found.
    await page.goto('/functions/abc');
    await page.getByTestId('not-found').waitFor();

    // Create: only the Details tab; required fields; the server's key error under the field.
    await page.goto('/functions');
    await page.getByTestId('functions-create').click();
    await page.waitForURL('**/functions/+/details');
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('New Function');
    expect(await page.getByTestId('function-tab-editor').count()).toBe(0);
    expect(await page.getByTestId('function-tab-runs').count()).toBe(0);
    expect(await page.getByTestId('function-menu').count()).toBe(0);
    await page.getByTestId('function-save').click();
    await expect.poll(() => page.getByTestId('function-name-error').textContent()).toBe('Required');
    // The key's input is monospace, its label is not.
    const fonts = await page.evaluate(() => {
      const input = document.querySelector('[data-testid="function-key-input"]') as HTMLInputElement;
      const label = document.querySelector(`label[for="${input.id}"]`) as HTMLElement;
      return { input: getComputedStyle(input).fontFamily, label: getComputedStyle(label).fontFamily };
    });
    expect(fonts.input).toMatch(/mono/i);
    expect(fonts.label).not.toMatch(/mono/i);
    await page.getByTestId('function-name-input').fill('Weather');
    await page.getByTestId('function-key-input').fill('weather lookup');
    await page.getByTestId('function-description-input').fill('Looks up the weather.');
    await page.getByTestId('function-save').click();
    await expect
      .poll(() => page.getByTestId('function-key-error').textContent())
      .toBe('Use letters, digits and underscores only.');
    expect(page.url()).toMatch(/\/functions\/\+\/details$/);

    await page.getByTestId('function-key-input').fill('weather_lookup');
    await page.getByTestId('function-save').click();
    await toast(page, SAVED);
    await page.waitForURL(/\/functions\/\d+\/details$/);
    const id = Number(/\/functions\/(\d+)\//.exec(page.url())![1]);
    await expect.poll(() => page.getByTestId('page-title').textContent()).toBe('Weather');
    expect(await page.getByTestId('function-subtitle').textContent()).toBe('Function Key: weather_lookup');
    expect(await page.getByTestId('breadcrumbs').textContent()).toContain('Functions');
    expect(await page.getByTestId('function-key-input').inputValue()).toBe('weather_lookup');

    // Editor: type code with a schema, save with Ctrl/Cmd+S → the Arguments tab renders its form.
    await page.getByTestId('function-tab-editor').click();
    await page.waitForURL(`**/functions/${id}/editor`);
    await page.getByTestId('function-code').locator('.cm-content').waitFor();
    expect(await statusColor(page)).toBe('none');
    await replaceCode(page, codeWith());
    expect(await page.getByTestId('function-save-code').getAttribute('data-dirty')).toBe('true');
    await page.keyboard.press('ControlOrMeta+s');
    await expect.poll(() => page.getByTestId('function-save-code').getAttribute('data-dirty')).toBe('false');
    const stored = await api<{ data: { code: string; argument_schema: { properties: object } } }>(
      'GET',
      `/v1/vendors/${vendorId}/functions/${id}`,
    );
    expect(stored.data.code).toBe(codeWith());
    expect(Object.keys(stored.data.argument_schema.properties)).toEqual(['city', 'days']);

    // Run with the arguments form.
    await page.getByTestId('editor-tab-arguments').click();
    await page.getByTestId('schema-field-city').locator('input').fill('Zurich');
    await page.getByTestId('schema-field-days').locator('input').fill('3');
    await page.getByTestId('function-run').click();
    await expect.poll(() => statusColor(page)).toBe('green');
    await expect.poll(() => page.getByTestId('editor-result').textContent()).toContain('"city": "Zurich"');
    expect(await page.getByTestId('editor-result').textContent()).toContain('"days": 3');
    expect(await page.getByTestId('function-took').textContent()).toMatch(/^\d+ ms$/);
    expect(await page.getByTestId('function-memory').textContent()).toMatch(/^[\d.]+ (Bytes|KB|MB)$/);
    await page.getByTestId('editor-tab-console').click();
    const entries = page.getByTestId('editor-console').getByTestId('console-entry');
    await expect.poll(() => entries.count()).toBe(2);
    expect(await entries.nth(0).getByTestId('console-message').textContent()).toBe('looking up Zurich');
    expect(await entries.nth(0).getAttribute('data-marker')).toBe('info');
    expect(await entries.nth(1).getByTestId('console-message').textContent()).toBe('days: 3');
    expect(await entries.nth(1).getAttribute('data-marker')).toBe('error'); // warn (2): neither ok nor info
    expect(await entries.nth(0).getByTestId('console-delta').textContent()).toBe('+0 ms');
    // With the Console count shown, the four result tabs still sit on one row.
    const tabTops = await page
      .locator('[data-testid^="editor-tab-"]')
      .evaluateAll((tabs) => tabs.map((t) => Math.round(t.getBoundingClientRect().top)));
    expect(tabTops).toHaveLength(4);
    expect(new Set(tabTops).size).toBe(1);

    // Edit as JSON: the rules of the argument editor, then run with Ctrl/Cmd+Enter from the code editor.
    await page.getByTestId('editor-tab-arguments').click();
    await page.getByTestId('editor-arguments-json-toggle').click({ force: true });
    const json = page.getByTestId('editor-arguments-json');
    expect(JSON.parse(await json.inputValue())).toEqual({ city: 'Zurich', days: 3 });
    await json.fill('{"city": ');
    await expect
      .poll(() => page.getByTestId('editor-arguments-error').textContent())
      .toBe('Invalid JSON format');
    await json.fill('[1, 2]');
    await expect
      .poll(() => page.getByTestId('editor-arguments-error').textContent())
      .toBe('Must be a valid JSON object');
    await json.fill('{"city": "Bern", "days": 5}');
    await expect.poll(() => page.getByTestId('editor-arguments-error').count()).toBe(0);
    await page.getByTestId('function-code').locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+Enter');
    await expect.poll(() => page.getByTestId('editor-result').textContent()).toContain('"city": "Bern"');
    expect(await statusColor(page)).toBe('green');
    // The shortcut ran the code and did not type a line break into it.
    expect(await page.getByTestId('function-save-code').getAttribute('data-dirty')).toBe('false');

    // A breakpoint: blue status, the line and the rendered value.
    await replaceCode(page, codeWith('  breakpoint(args.city)'));
    await page.getByTestId('function-run').click();
    await expect.poll(() => statusColor(page)).toBe('blue');
    expect(await page.getByTestId('editor-breakpoint').getAttribute('data-line')).toBe(String(LINE));
    expect(await page.getByTestId('editor-breakpoint').textContent()).toContain(`Breakpoint on line ${LINE}`);
    expect(await page.getByTestId('editor-breakpoint-value').textContent()).toContain('Bern');

    // An error: red status and the error line.
    await replaceCode(page, codeWith('  error("boom")'));
    await page.getByTestId('function-run').click();
    await expect.poll(() => statusColor(page)).toBe('red');
    expect(await page.getByTestId('editor-error').getAttribute('data-line')).toBe(String(LINE));
    expect(await page.getByTestId('editor-error').textContent()).toContain(`Error on line ${LINE}`);
    expect(await page.getByTestId('editor-error-message').textContent()).toContain('boom');

    // Runs: the code above is not saved, so leaving the editor asks first; discarding it goes on.
    await page.getByTestId('function-tab-runs').click();
    await page.getByTestId('unsaved-leave').click();
    // 4 runs, 2 successful; the filter; View opens the details.
    await page.waitForURL(`**/functions/${id}/runs`);
    await expect.poll(() => page.getByTestId('runs-tile-total-value').textContent()).toBe('4');
    expect(await page.getByTestId('runs-tile-success-rate-value').textContent()).toBe('50%');
    expect(await page.getByTestId('runs-tile-runtime-value').textContent()).toBe('Silicon (lua)');
    expect(await page.getByTestId('runs-tile-last-run-value').textContent()).toBe('just now');
    const runRows = page.locator('[data-testid^="run-row-"]');
    await expect.poll(() => runRows.count()).toBe(4);
    expect(await runRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')))).toEqual([
      '-1',
      '-6',
      '1',
      '1',
    ]);
    await page.getByTestId('runs-filter').getByText('Success', { exact: true }).click();
    await expect.poll(() => runRows.count()).toBe(2);
    expect(await runRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status')))).toEqual([
      '1',
      '1',
    ]);
    await page.getByTestId('runs-filter').getByText('Failure', { exact: true }).click();
    await expect
      .poll(() => runRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-status'))))
      .toEqual(['-1', '-6']);
    await page.getByTestId('runs-filter').getByText('Everything', { exact: true }).click();
    await expect.poll(() => runRows.count()).toBe(4);

    // The oldest run (the form run with Zurich).
    await runRows.last().getByTestId('run-view').click();
    await page.getByTestId('run-modal-content').waitFor();
    expect(await page.getByTestId('run-modal-arguments').textContent()).toContain('"city": "Zurich"');
    expect(await page.getByTestId('run-modal-result').textContent()).toContain('"temp": 21');
    expect(await page.getByTestId('run-modal-status').textContent()).toContain('Success');
    expect(await page.getByTestId('run-modal-error-field').textContent()).toBe('None');
    expect(await page.getByTestId('run-modal-console').getByTestId('console-entry').count()).toBe(2);
    expect(await page.getByTestId('run-modal-duration').textContent()).toMatch(/^\d+ ms$/);
    await page.getByTestId('run-modal-close').click();
    await page.getByTestId('run-modal-content').waitFor({ state: 'hidden' });
    // The newest: the error.
    await runRows.first().getByTestId('run-view').click();
    await expect
      .poll(() => page.getByTestId('run-modal-error-field').textContent())
      .toContain(`line ${LINE}: `);
    expect(await page.getByTestId('run-modal-error-field').textContent()).toContain('boom');
    await page.keyboard.press('Escape');

    // The list shows the counters: 4 runs, 50 %, run just now.
    await page.goto('/functions');
    const row = page.locator(`[data-testid="function-row-${id}"]`);
    await expect.poll(() => row.getByTestId('function-run-count').textContent()).toBe('4');
    expect(await row.getByTestId('function-success-rate').textContent()).toBe('50%');
    expect(await row.getByTestId('function-last-run').textContent()).toBe('just now');
    expect(await row.getByTestId('function-type').textContent()).toBe('Function');
    await page.getByTestId('functions-search').fill('weather');
    await expect.poll(() => page.locator('[data-testid^="function-row-"]').count()).toBe(1);
    await page.getByTestId('functions-sort-run_count').click();
    await page.getByTestId('functions-search').fill('zzz-nothing');
    await expect
      .poll(() => page.getByTestId('functions-empty').textContent())
      .toBe('No functions match your search.');

    expect(errors).toEqual([]);
    await context.close();
  });

  it('installs a function in an app with its config and deletes a function', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    const fnId = (
      await api<{ data: { id: number; function_key: string }[] }>(
        'GET',
        `/v1/vendors/${vendorId}/functions?search=weather_lookup`,
      )
    ).data[0]!.id;

    await page.goto(`/apps/${appId}/settings/functions`);
    await expect
      .poll(() => page.getByTestId('app-functions-none').textContent())
      .toBe('No functions installed');
    const card = page.getByTestId(`library-function-${fnId}`);
    await page.getByTestId('library-search').fill('weather');
    await expect
      .poll(() => page.locator('[data-testid^="library-function-"][data-function-key]').count())
      .toBe(1);
    expect(await card.getByTestId('library-badge-runtime').textContent()).toBe('Silicon');
    expect(await card.getByTestId('library-badge-runs').textContent()).toBe('4 runs');
    await page.getByTestId(`library-install-${fnId}`).click();
    await expect.poll(() => page.getByTestId(`library-install-${fnId}`).textContent()).toBe('Installed');
    await page.getByTestId(`app-function-${fnId}`).waitFor();
    await page.getByTestId(`app-function-config-toggle-${fnId}`).click();
    await page.getByTestId(`app-function-config-${fnId}-json-toggle`).click({ force: true });
    const json = page.getByTestId(`app-function-config-${fnId}-json`);
    await json.fill('{"units": ');
    await expect
      .poll(() => page.getByTestId(`app-function-config-${fnId}-error`).textContent())
      .toBe('Invalid JSON format');
    await json.fill('{"units": "F"}');
    // Leaving with the installed function unsaved asks first; Stay keeps the change.
    await page.getByTestId('settings-nav-usage').click();
    await page.getByTestId('unsaved-stay').click();
    expect(page.url()).toContain(`/apps/${appId}/settings/functions`);
    await page.getByTestId(`app-function-${fnId}`).waitFor();
    await page.getByTestId('app-functions-save').click();
    await toast(page, SAVED);
    await page.getByTestId('library-search').fill('zzz-nothing');
    await expect.poll(() => page.getByTestId('library-empty').textContent()).toBe('No functions found');
    // The create button goes to a new app-specific function.
    await page.getByTestId('library-create-specific').click();
    await page.waitForURL(`**/functions/+/details?app_id=${appId}`);
    await page.getByTestId('function-app-specific').waitFor();
    const installed = (
      await api<{ data: { functions: { id: number; config: object }[] } }>(
        'GET',
        `/v1/vendors/${vendorId}/apps/${appId}?resolve=functions`,
      )
    ).data.functions;
    expect(installed).toEqual([expect.objectContaining({ id: fnId, config: { units: 'F' } })]);

    // An app-specific function created with ?app_id= carries the app. (The router's index redirect
    // /functions/+ → details does not keep the query yet, so this goes to the details route directly.)
    await page.goto(`/functions/+/details?app_id=${appId}`);
    await page.getByTestId('function-app-specific').waitFor();
    await page.getByTestId('function-name-input').fill('App helper');
    await page.getByTestId('function-key-input').fill('app_helper');
    await page.getByTestId('function-save').click();
    await page.waitForURL(/\/functions\/\d+\/details$/);
    const helperId = Number(/\/functions\/(\d+)\//.exec(page.url())![1]);
    const helper = await api<{ data: { specific_app_id: number | null } }>(
      'GET',
      `/v1/vendors/${vendorId}/functions/${helperId}`,
    );
    expect(helper.data.specific_app_id).toBe(appId);

    // Delete: confirmation text, toast, back to the list.
    await page.getByTestId('function-menu').click();
    await page.getByTestId('function-menu-delete').click();
    expect(await page.getByTestId('delete-function-text').textContent()).toBe(
      'Are you sure you want to delete this function? This action cannot be undone.',
    );
    await page.getByTestId('delete-function-confirm').click();
    await toast(page, 'Function deleted successfully');
    await page.waitForURL(/\/functions$/);
    await page.locator('[data-testid^="function-row-"]').first().waitFor();
    expect(await page.locator(`[data-testid="function-row-${helperId}"]`).count()).toBe(0);
    await page.goto(`/functions/${helperId}/details`);
    await page.getByTestId('function-not-found').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });
});
