/**
 * Web embeds end to end: an embed made in the console, its widget on a page of another origin (a second
 * local HTTP server with a strict CSP of its own), a chat with the offline demo model streamed over the
 * relay, the conversation kept across a reload, and a page on an origin the embed does not allow refused.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chatModelFor } from '@llmor/server/modules/models/providers/index';
import { schema } from '@llmor/server/platform/db/index';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Console,
  installDemoChatbot,
  launchBrowser,
  newPage,
  signedClient,
  signIn,
  startConsole,
  toast,
} from '../harness';

let app: Console;
let browser: Browser;
let appId: number;
let vendorId: number;
/** Host pages: `allowed` is listed in the embed's origins, `refused` is not. */
const hosts: { allowed?: HostPage; refused?: HostPage } = {};
let scriptUrl = '';

/** A shop's CSS that would wreck a widget living in the page's own DOM. */
const HOSTILE_CSS = `
div { display: none !important; }
button { background: red !important; width: 2px !important; }
* { font-family: serif !important; color: red !important; position: static !important; }
`;

interface HostPage {
  url: string;
  server: Server;
}

/** A shop's page that includes the widget, served with a CSP that allows only the llmor server. */
async function startHostPage(): Promise<HostPage> {
  const server = createServer((request, response) => {
    if (request.url === '/shop.css') {
      response.writeHead(200, { 'content-type': 'text/css' }).end(HOSTILE_CSS);
      return;
    }
    if (request.url !== '/') {
      response.writeHead(404).end();
      return;
    }
    const llmor = new URL(app.url);
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `default-src 'self'; script-src ${llmor.origin}; connect-src ${llmor.origin} ws://${llmor.host}; style-src 'self'`,
    });
    response.end(
      `<!doctype html><html lang="en"><head><title>Shop</title><link rel="stylesheet" href="/shop.css"></head><body><h1>Our shop</h1><p>Welcome.</p><script src="${scriptUrl}" async></script></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const embedConversations = async () =>
  app.server.ctx.db.select().from(schema.conversations).where(eq(schema.conversations.channel, 'embed'));

beforeAll(async () => {
  // The offline demo model streams word by word; slow it so the widget's growing reply can be watched.
  app = await startConsole(
    {},
    { resolveModel: (ctx, row) => chatModelFor(ctx, row, { demoChunkDelayMs: 100 }) },
  );
  browser = await launchBrowser();
  ({ appId, vendorId } = await installDemoChatbot(await signedClient(app.url, 'demo')));
  hosts.allowed = await startHostPage();
  hosts.refused = await startHostPage();
});
afterAll(async () => {
  for (const host of Object.values(hosts)) host.server.close();
  await browser?.close();
  await app?.close();
});

/** The widget's launcher, panel and parts (Playwright's locators reach into its open shadow root). */
/**
 * The texts the widget's last reply shows, each change as it is rendered (a MutationObserver in the widget's
 * shadow root, no sampling), until it holds `expected` and is no longer busy.
 */
function watchReply(page: Page, expected: string, timeoutMs = 20_000): Promise<string[]> {
  return page.evaluate(
    ([text, timeout]) =>
      new Promise<string[]>((resolve) => {
        const root = document.querySelector('[data-llmor-embed]')?.shadowRoot;
        const seen: string[] = [];
        const done = () => {
          observer.disconnect();
          clearTimeout(deadline);
          resolve(seen);
        };
        const look = () => {
          const replies = root?.querySelectorAll<HTMLElement>('.msg.assistant') ?? [];
          const reply = replies[replies.length - 1];
          const shown = reply?.innerText.trim();
          if (shown && seen.at(-1) !== shown) seen.push(shown);
          if (shown?.includes(text) && reply?.getAttribute('aria-busy') === null) done();
        };
        const observer = new MutationObserver(look);
        if (root)
          observer.observe(root, { subtree: true, childList: true, characterData: true, attributes: true });
        const deadline = setTimeout(done, timeout);
        look();
      }),
    [expected, timeoutMs] as const,
  );
}

const widget = (page: Page) => ({
  launcher: page.locator('[data-llmor-embed] .launcher'),
  panel: page.getByRole('dialog', { name: 'Shop help' }),
  input: page.getByRole('textbox', { name: 'Message' }),
  log: page.getByRole('log'),
  bubbles: (role: string) => page.locator(`[data-llmor-embed] .msg.${role}`),
  alert: page.locator('[data-llmor-embed] .alert'),
});

describe('web embeds', () => {
  it('creates an embed in the console: token once, copy buttons, embed code, masked in the list', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.url });
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/embeds`);
    expect(await page.getByTestId('settings-title').innerText()).toBe('Web embeds');
    await page.getByTestId('embeds-empty').waitFor();

    await page.getByTestId('embeds-create').click();
    await page.waitForURL(/\/settings\/embeds\/\+$/);
    // Name is required; an origin with a path is refused with the rule.
    await page.getByTestId('embed-save').click();
    await page.getByText('Required').first().waitFor();
    await page.getByTestId('embed-name').fill('Shop widget');
    await page.getByTestId('embed-origins').fill(`${hosts.allowed!.url}/shop`);
    await page.getByTestId('embed-origins').press('Enter');
    await page.getByTestId('embed-save').click();
    await page.getByText('Use an origin such as https://example.com').first().waitFor();
    await page.getByTestId('embed-origins').press('Backspace');
    await page.getByTestId('embed-origins').fill(hosts.allowed!.url);
    await page.getByTestId('embed-origins').press('Enter');
    await page.getByTestId('embed-title').fill('Shop help');
    await page.getByTestId('embed-color').fill('#2b8a3e');
    await page.getByTestId('embed-welcome').fill('Hello **visitor**! Ask us anything.');
    await page.getByText('Bottom left').click();
    // The preview follows the look, markdown rendered as the widget renders it.
    expect(await page.getByTestId('embed-preview-title').innerText()).toBe('Shop help');
    expect(await page.getByTestId('embed-preview-welcome').locator('strong').innerText()).toBe('visitor');
    await page.getByTestId('embed-save').click();

    await toast(page, 'Embed has been created');
    await page.waitForURL(/\/settings\/embeds\/\d+$/);
    const embedId = Number(page.url().split('/').pop());
    const token = (await page.getByTestId('embed-full-token').innerText()).trim();
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await page.getByTestId('settings-title').innerText()).toBe('Shop widget');
    const masked = `${token.slice(0, 4)}…${token.slice(-4)}`;
    expect(await page.getByTestId('embed-token-field').inputValue()).toBe(masked);

    await page.getByTestId('embed-created-token').getByTestId('embed-copy-token').click();
    await toast(page, 'Token copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    await page.getByTestId('embed-detail-show-code').click();
    const snippet = page.getByTestId('embed-code-snippet');
    scriptUrl = `${app.url}/embed/js/${token}`;
    expect(await snippet.innerText()).toBe(`<script src="${scriptUrl}" async></script>`);
    await page.getByTestId('embed-code-copy').click();
    await toast(page, 'Embed code copied to clipboard');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await snippet.innerText());
    await page.keyboard.press('Escape');

    // The token is shown in full only this once: a reload shows it masked.
    await page.reload();
    await page.getByTestId('embed-token-field').waitFor();
    expect(await page.getByTestId('embed-created-token').count()).toBe(0);
    expect(await page.getByTestId('embed-origins').inputValue()).toBe('');
    expect(await page.getByText(hosts.allowed!.url).count()).toBe(1);

    // The list: masked token, Embed Code and copy per row, Settings link.
    await page.goto(`/apps/${appId}/settings/embeds`);
    const row = page.getByTestId(`embed-row-${embedId}`);
    expect(await row.getByTestId('embed-token').innerText()).toBe(masked);
    expect(await page.content()).not.toContain(token);
    await row.getByTestId('embed-copy-token').click();
    await toast(page, 'Token copied to clipboard');
    await row.getByTestId('embed-show-code').click();
    expect(await page.getByTestId('embed-code-snippet').innerText()).toContain(`/embed/js/${token}`);
    await page.keyboard.press('Escape');
    await row.getByTestId('embed-settings').click();
    await page.waitForURL(new RegExp(`/settings/embeds/${embedId}$`));
    expect(errors).toEqual([]);
    await context.close();
  });

  it('chats through the widget on an allowed page, streamed, and keeps the conversation across a reload', async () => {
    expect(scriptUrl).not.toBe('');
    const { context, page, errors } = await newPage(browser, hosts.allowed!.url);
    const csp: string[] = [];
    page.on('console', (m) => m.text().includes('Content Security Policy') && csp.push(m.text()));
    await page.goto('/');
    const w = widget(page);
    await w.launcher.waitFor();
    expect(await w.launcher.getAttribute('aria-label')).toBe('Open chat');
    expect(await w.launcher.getAttribute('aria-expanded')).toBe('false');
    // In its corner (bottom-left) with its colour, whatever the page's CSS.
    const box = (await w.launcher.boundingBox())!;
    expect(box.x).toBeLessThan(100);
    expect(box.width).toBe(56);
    expect(await w.launcher.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(43, 138, 62)');
    // The page's styles stay the page's: its heading is still red and serif.
    expect(await page.locator('h1').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 0, 0)');

    await w.launcher.click();
    await w.panel.waitFor();
    expect(await w.launcher.getAttribute('aria-expanded')).toBe('true');
    // Focus moves into the composer; the welcome text is rendered as markdown (no raw HTML).
    expect(await w.input.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(true);
    expect(await w.log.locator('strong', { hasText: 'visitor' }).count()).toBe(1);
    await expect.poll(async () => (await embedConversations()).length).toBe(1);

    await w.input.fill('Hello widget');
    const watching = watchReply(page, 'You said: Hello widget');
    await w.input.press('Enter');
    expect(await w.bubbles('user').last().innerText()).toBe('Hello widget');
    // The reply grows chunk by chunk before the stored one takes its place.
    const seen = new Set(await watching);
    const reply = w.bubbles('assistant').last();
    expect((await reply.innerText()).trim()).toContain('You said: Hello widget');
    expect(seen.size).toBeGreaterThan(2);
    const [conversation] = await embedConversations();
    expect(conversation!.embedId).not.toBeNull();

    // A reload keeps the conversation (and the open panel).
    await page.reload();
    await w.panel.waitFor();
    await w.bubbles('user').first().waitFor();
    expect(await w.bubbles('user').allInnerTexts()).toEqual(['Hello widget']);
    await w.input.fill('Second message');
    await w.input.press('Enter');
    await expect
      .poll(async () =>
        (await w.bubbles('assistant').last().innerText()).includes('You said: Second message'),
      )
      .toBe(true);
    expect((await embedConversations()).length).toBe(1);

    // Escape closes the panel and gives focus back to the launcher.
    await w.input.press('Escape');
    await expect.poll(() => w.panel.isHidden()).toBe(true);
    expect(await w.launcher.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement)).toBe(
      true,
    );
    expect(await w.launcher.getAttribute('aria-label')).toBe('Open chat');

    expect(errors).toEqual([]);
    expect(csp).toEqual([]);
    await context.close();
  });

  it('links an answer to the pages its passages came from', async () => {
    // The app answers from a datastore holding a web page that names its address.
    const api = await signedClient(app.url, 'demo');
    const appPath = `/v1/vendors/${vendorId}/apps/${appId}`;
    const current: { data: { name: string; parameters: Record<string, unknown> } } = await api(
      'GET',
      appPath,
    );
    await api('PUT', appPath, {
      name: current.data.name,
      parameters: { ...current.data.parameters, use_datastores: true, top_k: 1 },
    });
    const ds: { data: { id: number } } = await api('POST', `${appPath}/datastores`, { name: 'site' });
    await api('POST', `/v1/datastores/${ds.data.id}/docs/import`, {
      mode: 'html',
      data: '<html><head><link rel="canonical" href="https://shop.example/delivery"></head><body><h1>Delivery</h1><p>Parcels arrive within two working days.</p></body></html>',
    });

    const { context, page, errors } = await newPage(browser, hosts.allowed!.url);
    await page.goto('/');
    const w = widget(page);
    await w.launcher.click();
    await w.panel.waitFor();
    await w.input.fill('When do parcels arrive?');
    await w.input.press('Enter');
    const link = w.bubbles('assistant').last().locator('.sources a');
    await link.waitFor({ timeout: 20_000 });
    expect(await link.getAttribute('href')).toBe('https://shop.example/delivery');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await w.bubbles('assistant').last().locator('.sources').innerText()).toContain('Sources:');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('refuses a page whose origin the embed does not allow: an error, and no conversation', async () => {
    const before = (await embedConversations()).length;
    const { context, page } = await newPage(browser, hosts.refused!.url);
    await page.goto('/');
    const w = widget(page);
    await w.launcher.click();
    await w.panel.waitFor();
    await expect.poll(() => w.alert.innerText()).toBe('This chat is not available right now.');
    expect(await w.alert.getAttribute('role')).toBe('alert');
    expect((await embedConversations()).length).toBe(before);
    await context.close();
  });
});
