import { PDFDocument, StandardFonts } from 'pdf-lib';
import type { Browser } from 'playwright-core';
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

const QA = [
  {
    Q: 'How do I reset my password?',
    A: 'Choose Forgot password on the sign-in page and follow the mailed link.',
  },
  { Q: 'Where is the head office?', A: 'The head office is in Bern, next to the railway station.' },
  { Q: 'Which payment methods are accepted?', A: 'Credit cards and bank transfer.' },
];
const CSV = 'product,price\nLamp,49\nDesk,320\n';

beforeAll(async () => {
  app = await startConsole();
  browser = await launchBrowser();
  const api = await signedClient(app.url, 'demo');
  let vendorId: number;
  ({ vendorId, appId } = await installDemoChatbot(api, { use_datastores: true, top_k: 2 }));
  await api('POST', `/v1/vendors/${vendorId}/avamodels/builtin-lexical-embedding/install`, {
    parameters: {},
  });
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('app settings: datastores', () => {
  it('creates a datastore, imports a QA and a CSV file, watches them sync, edits a document and answers from it', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/datastores`);

    // No datastore yet: the 'Create new' tab with the form; a bad name is refused with the rule.
    await page.getByTestId('datastore-create-form').waitFor();
    expect(await page.getByTestId('settings-title').innerText()).toBe('Datastores');
    await page.getByTestId('datastore-name').fill('My FAQ');
    await page.getByTestId('datastore-create').click();
    await page.getByText('Use lower-case letters, digits and underscores only.').first().waitFor();
    await page.getByTestId('datastore-name').fill('faq');
    await page.getByTestId('datastore-create').click();
    await toast(page, 'Datastore created');
    await page.getByTestId('datastore-panel-faq').waitFor();
    expect(await page.getByTestId('datastore-tab-faq').getAttribute('aria-selected')).toBe('true');
    await page.getByTestId('documents-empty').waitFor();

    // Import: a QA file (default mode), then a CSV file; the done file is skipped on the second run.
    await page.getByTestId('datastore-menu').click();
    await page.getByTestId('datastore-import').click();
    const dialog = page.getByRole('dialog', { name: 'Import documents' });
    await dialog.waitFor();
    const input = dialog.locator('input[type="file"]');
    await input.setInputFiles({
      name: 'faq.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify(QA)),
    });
    const qaRow = page.getByTestId('import-file-faq.json');
    expect(await qaRow.getAttribute('data-status')).toBe('pending');
    await page.getByTestId('import-start').click();
    await expect.poll(() => qaRow.getAttribute('data-status')).toBe('done');
    expect(await qaRow.getByTestId('import-file-status').innerText()).toMatch(/done: 3 new/i);
    // The count, then the datastore's embedding as it goes (one line each).
    expect((await page.getByTestId('import-summary').innerText()).split('\n')[0]).toBe(
      '3 new documents imported; they are embedded in the background.',
    );
    await page.getByTestId('import-embedding').waitFor();

    await page.getByTestId('import-mode-csv').click();
    await input.setInputFiles({ name: 'prices.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) });
    await page.getByTestId('import-start').click();
    const csvRow = page.getByTestId('import-file-prices.csv');
    await expect.poll(() => csvRow.getAttribute('data-status')).toBe('done');
    expect(await csvRow.getByTestId('import-file-status').innerText()).toMatch(/done: 2 new/i);
    expect(await qaRow.getByTestId('import-file-status').innerText()).toMatch(/done: 3 new/i);

    // A malformed file is an error with the server's message, and stores nothing.
    await page.getByTestId('import-mode-qa').click();
    await input.setInputFiles({
      name: 'broken.json',
      mimeType: 'application/json',
      buffer: Buffer.from('[{"Q":"only"}]'),
    });
    await page.getByTestId('import-start').click();
    const broken = page.getByTestId('import-file-broken.json');
    await expect.poll(() => broken.getAttribute('data-status')).toBe('error');
    expect(await broken.getByTestId('import-file-error').innerText()).toContain('Item 1');
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Five documents, embedded in the background: every dot turns green.
    await expect.poll(() => page.getByTestId('status-documents').innerText()).toBe('5');
    await expect.poll(() => page.getByTestId('status-pending').innerText(), { timeout: 20_000 }).toBe('0');
    await expect.poll(() => page.locator('[data-sync="done"]').count(), { timeout: 10_000 }).toBe(5);
    expect(await page.getByTestId('status-text').innerText()).toBe(
      'All documents are embedded and searchable.',
    );
    const firstRow = page.locator('[data-testid^="document-row-"]').first();
    expect((await firstRow.getByTestId('document-preview').innerText()).length).toBeLessThanOrEqual(71);

    // Open a document, edit its JSON, save: it is stored and embedded again.
    await firstRow.getByTestId('document-open').click();
    const modal = page.getByRole('dialog', { name: /^Document \d+$/ });
    await modal.waitFor();
    expect(await page.getByTestId('document-hash').inputValue()).toMatch(/^[0-9a-f]{64}$/);
    const replaceText = async (text: string) => {
      await modal.locator('.cm-content').click();
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.insertText(text);
    };
    // Invalid JSON: the editor says so and Save is refused.
    await replaceText('not json');
    await page.getByTestId('document-json-error').waitFor();
    expect(await page.getByTestId('document-save').isDisabled()).toBe(true);
    await replaceText('{"Q": "Where is the head office?", "A": "Since 2026 the head office is in Thun."}');
    await page.getByTestId('document-json-error').waitFor({ state: 'detached' });
    await expect.poll(() => page.getByTestId('document-save').isDisabled()).toBe(false);
    await page.getByTestId('document-save').click();
    await toast(page, SAVED);
    await modal.waitFor({ state: 'detached' });
    // The preview keeps the document's key order: the question first.
    await expect
      .poll(() => firstRow.getByTestId('document-preview').innerText())
      .toMatch(/^\{"Q":"Where is the head office\?","A":"Since 2026/);
    await expect.poll(() => page.getByTestId('status-pending').innerText(), { timeout: 20_000 }).toBe('0');

    // Ask the chatbot: the passage that answers is retrieved into the model's context (debug data).
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('composer-input').fill('Where is your head office?');
    await page.getByTestId('composer-input').press('Enter');
    await page.waitForURL(/\/chat\/[A-Za-z0-9_-]+$/);
    await page.getByTestId('tab-debug').click();
    const passages = page.locator('[data-testid="debug-entry"][data-key="datastore_passages"]');
    await expect.poll(() => passages.innerText(), { timeout: 15_000 }).toContain('Thun');

    // Truncate, in the danger zone, after a confirmation.
    await page.goto(`/apps/${appId}/settings/datastores`);
    await page.getByTestId('datastore-menu').click();
    await page.getByTestId('datastore-truncate').click();
    await page.getByTestId('truncate-confirm').click();
    await toast(page, 'DataStore "faq" truncated: 5 documents removed.');
    await page.getByTestId('documents-empty').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

/** A two-page PDF with a text layer, written by a PDF library. */
async function handbookPdf(): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const line of ['Welcome to the company handbook.', 'The cafeteria opens at half past eleven.']) {
    doc.addPage([595, 842]).drawText(line, { x: 50, y: 780, size: 12, font });
  }
  return Buffer.from(await doc.save());
}

describe('app settings: datastores with documents', () => {
  it('imports a PDF beside a QA file (each with its own mode), a large file uploading with progress then parsing, lists passages with their source, and an answer shows them', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/datastores`);
    await page.getByTestId('datastore-tab-create').click();
    await page.getByTestId('datastore-name').fill('handbook');
    await page.getByTestId('datastore-create').click();
    await toast(page, 'Datastore created');
    await page.getByTestId('datastore-panel-handbook').waitFor();

    await page.getByTestId('datastore-panel-handbook').getByTestId('datastore-menu').click();
    await page.getByTestId('datastore-import').click();
    const dialog = page.getByRole('dialog', { name: 'Import documents' });
    await dialog.waitFor();
    const input = dialog.locator('input[type="file"]');
    // On the QA tab a .json file takes QA; a PDF is read as PDF whatever the tab.
    await input.setInputFiles({
      name: 'faq.json',
      mimeType: 'application/json',
      buffer: Buffer.from(JSON.stringify([{ Q: 'Who cooks?', A: 'Our chef Anna.' }])),
    });
    // Switching the tab does not change the mode of a file already added.
    await page.getByTestId('import-mode-json').click();
    await input.setInputFiles({
      name: 'handbook.pdf',
      mimeType: 'application/pdf',
      buffer: await handbookPdf(),
    });
    const qaRow = page.getByTestId('import-file-faq.json');
    const pdfRow = page.getByTestId('import-file-handbook.pdf');
    expect(await qaRow.getByTestId('import-file-mode').inputValue()).toBe('qa');
    expect(await pdfRow.getByTestId('import-file-mode').inputValue()).toBe('pdf');
    await page.getByTestId('import-start').click();
    await expect.poll(() => pdfRow.getAttribute('data-status')).toBe('done');
    expect(await pdfRow.getByTestId('import-file-status').innerText()).toMatch(/done: 2 new/i);
    expect(await qaRow.getByTestId('import-file-status').innerText()).toMatch(/done: 1 new/i);
    await dialog.getByRole('button', { name: 'Close' }).click();

    // The list keeps the QA document's key order and shows each passage's source.
    const panel = page.getByTestId('datastore-panel-handbook');
    await expect.poll(() => panel.locator('[data-testid^="document-row-"]').count()).toBe(3);
    const rows = panel.locator('[data-testid^="document-row-"]');
    expect(await rows.nth(0).getByTestId('document-preview').innerText()).toMatch(/^\{"Q":"Who cooks\?"/);
    expect(await rows.nth(0).getByTestId('document-source').innerText()).toBe('faq.json');
    expect(await rows.nth(2).getByTestId('document-source').innerText()).toBe('handbook.pdf · p. 2');

    // A large file shows its upload's progress (the network slowed so the upload takes a while).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: 256 * 1024,
    });
    await page.getByTestId('datastore-panel-handbook').getByTestId('datastore-menu').click();
    await page.getByTestId('datastore-import').click();
    await dialog.waitFor();
    const big = 'The same paragraph, again and again, about nothing in particular at all.\n\n'.repeat(20_000);
    await input.setInputFiles({ name: 'big.md', mimeType: 'text/markdown', buffer: Buffer.from(big) });
    const bigRow = page.getByTestId('import-file-big.md');
    expect(await bigRow.getByTestId('import-file-mode').inputValue()).toBe('markdown');
    // Every step the row goes through, however short, with the text it showed meanwhile.
    await bigRow.evaluate((row) => {
      const seen: string[] = [];
      (window as unknown as { importSteps: string[] }).importSteps = seen;
      new MutationObserver(() => {
        const step = `${row.getAttribute('data-status')}: ${row.querySelector('[data-testid="import-file-status"]')?.textContent}`;
        if (seen.at(-1) !== step) seen.push(step);
      }).observe(row, { attributes: true, subtree: true, childList: true, characterData: true });
    });
    await page.getByTestId('import-start').click();
    const sent = bigRow.locator('[data-testid="import-file-progress"] [role="progressbar"]');
    await expect
      .poll(async () => Number((await sent.count()) ? await sent.getAttribute('aria-valuenow') : 0))
      .toBeGreaterThan(0);
    await expect.poll(() => bigRow.getAttribute('data-status'), { timeout: 60_000 }).toBe('done');
    // Uploading, then parsing once the bytes were sent, then the result.
    const steps = await page.evaluate(() => (window as unknown as { importSteps: string[] }).importSteps);
    const [parsing, ...result] = steps.filter((step) => !step.startsWith('uploading'));
    expect(parsing).toBe('parsing: parsing…');
    expect(result).toHaveLength(1);
    expect(result[0]).toMatch(/^done: done: \d+ new$/);
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await dialog.getByRole('button', { name: 'Close' }).click();

    // Ask: the answer shows its sources, collapsed, then file and page.
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('composer-input').fill('When does the cafeteria open?');
    await page.getByTestId('composer-input').press('Enter');
    await page.waitForURL(/\/chat\/[A-Za-z0-9_-]+$/);
    const answer = page.locator('[data-testid="message"][data-role="assistant"]').last();
    const toggle = answer.getByTestId('message-sources-toggle');
    await toggle.waitFor({ timeout: 15_000 });
    expect(await toggle.innerText()).toMatch(/^Sources \(\d\)$/);
    await toggle.click();
    // The passage that answers is among them, with its file and page.
    const cafeteria = answer
      .getByTestId('message-source')
      .filter({ hasText: 'cafeteria opens at half past eleven' });
    await cafeteria.waitFor();
    expect(await cafeteria.getByTestId('document-source').innerText()).toBe('handbook.pdf · p. 2');
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});

describe('admin: queue monitor', () => {
  it('triggers a ping that a worker answers, and shows the history by type', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    // Admin → the Queue tab beside Vendors.
    await page.goto('/admin/vendors');
    await page.getByTestId('admin-nav-queue').click();
    await page.waitForURL('**/admin/queue');
    await page.getByTestId('queue-ping').click();
    await toast(page, 'Ping job triggered successfully');
    await page.getByTestId('queue-type').getByText('Ping jobs').click();
    await page.getByTestId('queue-load').click();
    const ping = page.locator('[data-testid^="queue-job-"]').first();
    await ping.waitFor();
    // The worker answers the ping within seconds: refresh until the list shows it done.
    await expect
      .poll(
        async () => {
          await page.getByTestId('queue-refresh').click();
          return ping.getAttribute('data-status');
        },
        { timeout: 15_000 },
      )
      .toBe('success');
    expect(await ping.innerText()).toContain('pong');

    await page.getByTestId('queue-type').getByText('Custom action').click();
    await page.getByTestId('queue-action').fill('no-such-action');
    await page.getByTestId('queue-load').click();
    await page.getByText('no queue history found').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
