import { CONVERSATION_TOKEN_TAIL } from '@llmor/contracts';
import { insertMessages } from '@llmor/server/modules/conversations/repo';
import { chatModelFor } from '@llmor/server/modules/models/providers/index';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Console,
  installDemoChatbot,
  launchBrowser,
  newPage,
  PHONE,
  rendered,
  signedClient,
  signIn,
  startConsole,
  textLines,
} from '../harness';

let app: Console;
let browser: Browser;
let appId: number;
let vendorId: number;

beforeAll(async () => {
  // The offline demo model streams word by word; slow it a little so a browser can watch the reply grow.
  app = await startConsole(
    {},
    { resolveModel: (ctx, row) => chatModelFor(ctx, row, { demoChunkDelayMs: 120 }) },
  );
  browser = await launchBrowser();

  ({ appId, vendorId } = await installDemoChatbot(await signedClient(app.url, 'demo')));
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const messages = (page: Page, role?: string) =>
  page.locator(role ? `[data-testid="message"][data-role="${role}"]` : '[data-testid="message"]');
const lastText = async (page: Page, role: string) =>
  (await messages(page, role).last().getByTestId('message-text').innerText()).trim();
const status = (page: Page) => page.getByTestId('socket-status').getAttribute('data-status');

/**
 * Watches the in-progress reply until it is gone; returns the distinct texts seen while it grew. A
 * MutationObserver in the page sees every change as it is rendered (no sampling between sleeps).
 */
function watchStream(page: Page, timeoutMs = 20_000): Promise<string[]> {
  return page.evaluate(
    (timeout) =>
      new Promise<string[]>((resolve) => {
        const seen: string[] = [];
        let started = false;
        const done = () => {
          observer.disconnect();
          clearTimeout(deadline);
          resolve(seen);
        };
        const look = () => {
          const streaming = document.querySelector('[data-testid="message"][data-streaming]');
          if (streaming) started = true;
          const el = streaming?.querySelector('[data-testid="message-text"]') as
            | HTMLElement
            | null
            | undefined;
          const text = el?.innerText.trim();
          if (text && seen.at(-1) !== text) seen.push(text);
          if (started && !streaming) done();
        };
        const observer = new MutationObserver(look);
        observer.observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
          attributes: true,
        });
        const deadline = setTimeout(done, timeout);
        look();
      }),
    timeoutMs,
  );
}

describe('conversations', () => {
  let token = '';

  it('starts a conversation from the composer, streams the reply and lists it in the history', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('conversations-view').waitFor();
    await page.getByTestId('conversation-empty').waitFor();
    expect(await status(page)).toBe('none');
    expect(await page.getByTestId('socket-status-label').textContent()).toBe('No conversation');

    // Blank text is not sent: the only conversation this test opens is the real message's (below).
    const opened: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/v1/conversations')
        opened.push(request.postData() ?? '');
    });
    await page.getByTestId('composer-input').fill('   ');
    await page.getByTestId('composer-input').press('Enter');
    expect(page.url()).toMatch(new RegExp(`/apps/${appId}/chat$`));

    // Shift+Enter inserts a newline; Enter sends and routes to the new conversation.
    await page.getByTestId('composer-input').fill('Hello from e2e');
    await page.getByTestId('composer-input').press('Shift+Enter');
    await page.getByTestId('composer-input').pressSequentially('second line');
    await page.getByTestId('composer-input').press('Alt+Enter');
    await page.getByTestId('composer-input').press('Control+Enter');
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Hello from e2e\nsecond line\n\n');
    await page.getByTestId('composer-input').press('Backspace');
    await page.getByTestId('composer-input').press('Backspace');
    expect(await page.getByTestId('composer-input').inputValue()).toBe('Hello from e2e\nsecond line');
    await page.getByTestId('composer-input').press('Enter');
    await page.waitForURL(new RegExp(`/apps/${appId}/chat/[A-Za-z0-9_-]{16,}$`));
    token = page.url().split('/').pop()!;
    expect(await page.getByTestId('composer-input').inputValue()).toBe('');
    expect(opened).toHaveLength(1);

    const seen = await watchStream(page);
    const final = await lastText(page, 'assistant');
    expect(final).toContain('You said: Hello from e2e');
    // The reply grew chunk by chunk (completion_stream) before the stored answer replaced it.
    const partial = seen.filter((s) => s.length < final.length && final.startsWith(s));
    expect(partial.length).toBeGreaterThanOrEqual(2);
    expect(seen.at(-1)!.length).toBeGreaterThan(seen[0]!.length);

    // The user's message, rendered with its line break.
    expect(await lastText(page, 'user')).toBe('Hello from e2e\nsecond line');
    expect(await messages(page, 'user').last().getByTestId('message-role').innerText()).toBe('User');
    expect(await messages(page, 'assistant').last().getByTestId('message-role').innerText()).toBe(
      'Assistant',
    );
    await expect.poll(() => status(page)).toBe('connected');
    expect(await page.getByTestId('socket-status-label').textContent()).toBe('Connected');

    // The history lists it ('#' + token tail), highlighted.
    const item = page.locator(`[data-testid="conversation-history-item"][data-token="${token}"]`);
    await item.waitFor();
    expect(await item.innerText()).toContain(`#${token.slice(-CONVERSATION_TOKEN_TAIL)}`);
    expect(await item.getAttribute('data-active')).toBe('true');

    // Debug data from the reply.
    await page.getByTestId('tab-debug').click();
    await expect
      .poll(() => page.locator('[data-testid="debug-entry"][data-key="app_type"]').innerText())
      .toContain('chatbot');

    // New → back to the empty state; the history item opens the conversation again.
    await page.getByTestId('tab-messages').click();
    await page.getByTestId('conversation-new').click();
    await page.waitForURL(new RegExp(`/apps/${appId}/chat$`));
    await page.getByTestId('conversation-empty').waitFor();
    await item.click();
    await page.waitForURL(`**/chat/${token}`);
    await expect.poll(() => lastText(page, 'assistant')).toContain('You said: Hello from e2e');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens a long conversation at its newest messages and loads older ones when scrolled to the top', async () => {
    const api = await signedClient(app.url, 'demo');
    const created: { id: number; token: string; messages: { message: string }[] } = (
      await api('POST', '/v1/conversations', {
        vendor_app_id: appId,
        vendor_channel: 'management',
        parameters: {},
      })
    ).data;
    const STORED = 120;
    await insertMessages(
      app.server.ctx.db,
      vendorId,
      created.id,
      Array.from({ length: STORED }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        creator: i % 2 ? 'system' : 'user',
        message: `Stored message ${i}`,
      })),
    );
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/chat/${created.token}`);
    // The newest page (50 messages; the greeting, if any, long before them).
    await expect.poll(() => lastText(page, 'assistant')).toBe(`Stored message ${STORED - 1}`);
    expect(await messages(page).count()).toBe(50);
    const firstText = () => messages(page).first().getByTestId('message-text').innerText();
    expect((await firstText()).trim()).toBe(`Stored message ${STORED - 50}`);
    const viewport = page.getByTestId('message-list').locator('.mantine-ScrollArea-viewport');
    await expect.poll(() => viewport.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);

    // Scrolled to the top: the page before comes in above, and what was in view stays in view.
    await viewport.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect.poll(() => messages(page).count()).toBe(100);
    expect((await firstText()).trim()).toBe(`Stored message ${STORED - 100}`);
    expect(await viewport.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
    await viewport.evaluate((el) => el.scrollTo({ top: 0 }));
    const opened = created.messages.length;
    await expect.poll(() => messages(page).count()).toBe(STORED + opened);
    expect((await firstText()).trim()).toBe(created.messages[0]?.message ?? 'Stored message 0');
    await expect.poll(() => page.getByTestId('messages-older').count()).toBe(0);

    // A send adds its messages at the end and keeps the older ones.
    await page.getByTestId('composer-input').fill('And now?');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(() => lastText(page, 'assistant'), { timeout: 20_000 }).toContain('You said: And now?');
    await expect.poll(() => messages(page).count()).toBe(STORED + opened + 2);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('logs relay messages, shows function calls while they run, and overrides the state', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    // About 1 s after loading, the page fetches the state (`get`); its answer clears any state error, so
    // the state checks below wait for it first.
    const stateFetched = new Promise<void>((resolve) =>
      page.on('websocket', (ws) =>
        ws.on('framesent', (frame) => {
          if (String(frame.payload).startsWith('42["get"')) resolve();
        }),
      ),
    );
    await page.goto(`/apps/${appId}/chat/${token}`);
    await expect.poll(() => status(page)).toBe('connected');
    // The stored messages are shown and the server has this page's socket in the room: events sent now arrive.
    await page.getByTestId('message').first().waitFor();
    const relay = app.server.ctx.relay;
    await expect.poll(() => relay.roomSize(token), { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await page.getByTestId('tab-relay').click();
    await page.getByTestId('relay-empty').waitFor();

    // Events the relay carries for this conversation (as the completion engine or a script sends them).
    relay.emit(token, 'e2e.custom', { hello: 'world' });
    relay.emit(token, 'completion.started', { input_async: true });
    relay.emit(token, 'function_call.begin', {
      id: 'call_1',
      name: 'get_weather',
      arguments: { city: 'Bern' },
    });
    await expect.poll(() => page.locator('[data-testid="relay-entry"]').count()).toBe(2);
    expect(
      await page
        .locator('[data-testid="relay-entry"]')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.type)),
    ).toEqual(['function_call.begin', 'e2e.custom']);
    expect(await page.getByTestId('conversation-relay-count').textContent()).toBe('2');
    expect(await page.locator('[data-testid="relay-entry"]').last().innerText()).toContain(
      '"hello": "world"',
    );

    await page.getByTestId('tab-messages').click();
    const chip = page.locator('[data-testid="message"][data-streaming] [data-testid="function-call"]');
    await expect.poll(() => chip.getAttribute('data-status')).toBe('executing');
    relay.emit(token, 'function_call.end', {
      id: 'call_1',
      name: 'get_weather',
      result: { temp: 3 },
      status: 1,
    });
    relay.emit(token, 'function_call_iteration', { iteration: 1 });
    const committed = page.locator(
      '[data-testid="message"]:not([data-streaming]) [data-testid="function-call"]',
    );
    await expect.poll(() => committed.getAttribute('data-status')).toBe('completed');
    await committed.getByTestId('function-call-toggle').click();
    await expect
      .poll(() => committed.getByTestId('function-call-arguments').innerText())
      .toContain('"city": "Bern"');
    expect(await committed.getByTestId('function-call-result').innerText()).toContain('"temp": 3');
    // The end of the reply reloads the stored conversation (no such call was stored).
    relay.emit(token, 'completion.finished', { input_async: true });
    relay.emit(token, 'completion.ended', {});
    await expect.poll(() => committed.count()).toBe(0);
    await page.getByTestId('tab-relay').click();
    await expect.poll(() => page.locator('[data-testid="relay-entry"]').count()).toBe(4);
    expect(
      await page
        .locator('[data-testid="relay-entry"]')
        .evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.type)),
    ).toEqual(['function_call_iteration', 'function_call.end', 'function_call.begin', 'e2e.custom']);

    // State: the editor overrides it with valid JSON only.
    await stateFetched;
    await page.getByTestId('tab-state').click();
    await page.getByTestId('state-editor-toggle').check({ force: true });
    const editor = page.getByTestId('state-editor-input');
    await editor.fill('{not json');
    expect(await page.getByTestId('state-editor-validity').getAttribute('data-valid')).toBe('false');
    expect(await page.getByTestId('state-override').isDisabled()).toBe(true);
    await editor.fill('{"step": 1, "who": "e2e"}');
    expect(await page.getByTestId('state-editor-validity').getAttribute('data-valid')).toBe('true');
    await page.getByTestId('state-override').click();
    await expect.poll(() => page.getByTestId('state-json').innerText()).toContain('"who": "e2e"');
    // A state the relay refuses shows the error panel, which can be dismissed.
    await editor.fill('[1, 2]');
    await page.getByTestId('state-override').click();
    await expect.poll(() => page.getByTestId('state-error').innerText()).toContain('State Operation Error');
    await page.getByTestId('state-error').getByRole('button').click();
    await expect.poll(() => page.getByTestId('state-error').count()).toBe(0);
    expect(await page.getByTestId('state-json').innerText()).toContain('"who": "e2e"');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows failures as error messages: unknown conversation, failed send, failed start', async () => {
    const { context, page } = await newPage(browser, app.url);
    await signIn(page);
    const errorTexts = () => messages(page, 'error').getByTestId('message-text').allInnerTexts();

    // An unknown token: back to the conversations route, with the server's message.
    await page.goto(`/apps/${appId}/chat/AAAAAAAAAAAAAAAAAAAAAAAA`);
    await page.waitForURL(new RegExp(`/apps/${appId}/chat$`));
    await expect.poll(errorTexts).toEqual(['Conversation not found']);

    // Sending fails: the message list and the input are restored, the error shown.
    await page.goto(`/apps/${appId}/chat/${token}`);
    await expect.poll(() => status(page)).toBe('connected');
    const before = await messages(page).count();
    const failNext = async (path: RegExp, body: string) => {
      await page.route(path, (route) =>
        route.request().method() === 'POST'
          ? route.fulfill({ status: 500, contentType: 'application/json', body })
          : route.continue(),
      );
    };
    await failNext(
      /\/v1\/conversations\/[A-Za-z0-9_-]+(\?.*)?$/,
      JSON.stringify({ name: 'Oops', message: 'Boom from e2e' }),
    );
    await page.getByTestId('composer-input').fill('will fail');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(errorTexts).toEqual(['Boom from e2e']);
    expect(await messages(page).count()).toBe(before + 1);
    expect(await page.getByTestId('composer-input').inputValue()).toBe('will fail');
    await page.unrouteAll();
    await failNext(/\/v1\/conversations\/[A-Za-z0-9_-]+(\?.*)?$/, '');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(errorTexts).toEqual(['Boom from e2e', 'Failed to send message. Please try again.']);
    await page.unrouteAll();
    // The network itself fails: the same words, never the browser's "Failed to fetch".
    await page.route(/\/v1\/conversations\/[A-Za-z0-9_-]+(\?.*)?$/, (route) =>
      route.request().method() === 'POST' ? route.abort('internetdisconnected') : route.continue(),
    );
    await page.getByTestId('composer-input').press('Enter');
    await expect
      .poll(errorTexts)
      .toEqual([
        'Boom from e2e',
        'Failed to send message. Please try again.',
        'Failed to send message. Please try again.',
      ]);
    await page.unrouteAll();

    // Starting a conversation fails.
    await page.getByTestId('conversation-new').click();
    await page.getByTestId('conversation-empty').waitFor();
    await failNext(/\/v1\/conversations(\?.*)?$/, '');
    await page.getByTestId('composer-input').fill('no luck');
    await page.getByTestId('composer-input').press('Enter');
    await expect.poll(errorTexts).toEqual(['Failed to start the conversation. Please try again.']);
    // Reported once: the message in the conversation, no banner on top.
    expect(await page.getByTestId('error-banner').count()).toBe(0);
    expect(page.url()).toMatch(new RegExp(`/apps/${appId}/chat$`));
    expect(await page.getByTestId('composer-input').inputValue()).toBe('no luck');
    await context.close();
  });

  it('keeps two tabs on the same conversation in step', async () => {
    const a = await newPage(browser, app.url);
    const b = await newPage(browser, app.url);
    await signIn(a.page);
    await signIn(b.page);
    await a.page.goto(`/apps/${appId}/chat/${token}`);
    await b.page.goto(`/apps/${appId}/chat/${token}`);
    await expect.poll(() => status(a.page)).toBe('connected');
    await expect.poll(() => status(b.page)).toBe('connected');
    await expect.poll(() => messages(b.page).count()).toBe(await messages(a.page).count());

    // B has fetched the state (about 1 s after loading); A changes it and B follows.
    await b.page.getByTestId('tab-state').click();
    await expect.poll(() => b.page.getByTestId('state-json').innerText()).toContain('"who": "e2e"');
    await a.page.getByTestId('tab-state').click();
    await a.page.getByTestId('state-editor-toggle').check({ force: true });
    await a.page.getByTestId('state-editor-input').fill('{"who": "tab A"}');
    await a.page.getByTestId('state-override').click();
    await expect.poll(() => b.page.getByTestId('state-json').innerText()).toContain('"who": "tab A"');
    await b.page.getByTestId('tab-messages').click();
    await a.page.getByTestId('tab-messages').click();

    // A sends; B shows the user's message, watches the reply stream in, then shows the stored reply.
    const before = await messages(a.page).count();
    const watching = watchStream(b.page);
    await a.page.getByTestId('composer-input').fill('Second message');
    await a.page.getByTestId('composer-input').press('Enter');
    await expect.poll(() => lastText(b.page, 'user')).toBe('Second message');
    const seenByB = await watching;
    expect(seenByB.length).toBeGreaterThanOrEqual(2);
    await expect.poll(() => lastText(b.page, 'assistant')).toContain('You said: Second message');
    await expect.poll(() => lastText(a.page, 'assistant')).toContain('You said: Second message');
    await expect.poll(() => messages(a.page).count()).toBe(before + 2);
    await expect.poll(() => messages(b.page).count()).toBe(before + 2);

    // And the other way round.
    await b.page.getByTestId('composer-input').fill('Reply from B');
    await b.page.getByTestId('composer-input').press('Enter');
    await expect
      .poll(() => lastText(a.page, 'assistant'), { timeout: 20_000 })
      .toContain('You said: Reply from B');
    await expect.poll(() => messages(a.page).count()).toBe(before + 4);
    await expect.poll(() => messages(b.page).count()).toBe(before + 4);
    expect(a.errors).toEqual([]);
    expect(b.errors).toEqual([]);
    await a.context.close();
    await b.context.close();
  });

  it('keeps the conversation open when a background refresh of the app fails', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/chat/${token}`);
    await expect.poll(() => status(page)).toBe('connected');
    await page.getByTestId('composer-input').fill('a draft');
    const appRequest = new RegExp(`/v1/vendors/\\d+/apps/${appId}\\?`);
    // A refused request has failed for the page once Playwright reports it: the query's error follows.
    let failed = 0;
    page.on('requestfailed', (request) => {
      if (appRequest.test(request.url())) failed += 1;
    });
    await page.route(appRequest, (route) => route.abort('connectionrefused'));
    // Back online after a blip, stale queries refresh; the app's refresh (and its retry) fail.
    await page.evaluate(() => {
      window.dispatchEvent(new Event('offline'));
      window.dispatchEvent(new Event('online'));
    });
    // The first try and its two retries (1 s, then 2 s apart) all fail; then the query is in error.
    await expect.poll(() => failed, { timeout: 15_000 }).toBeGreaterThanOrEqual(3);
    await rendered(page);
    expect(await page.getByTestId('app-error').count()).toBe(0);
    expect(await status(page)).toBe('connected');
    expect(await page.getByTestId('composer-input').inputValue()).toBe('a draft');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('turns the relay status red when the relay refuses the connection', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    // The conversation names a relay nobody listens at (port 1 refuses at once).
    await page.route(new RegExp(`/v1/conversations/${token}(\\?|$)`), async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      body.conversation.relay_url = 'http://127.0.0.1:1/stream';
      await route.fulfill({ response, json: body });
    });
    await page.goto(`/apps/${appId}/chat/${token}`);
    await expect.poll(() => status(page)).toBe('disconnected');
    expect(await page.getByTestId('socket-status-label').textContent()).toBe('Disconnected');
    // A banner says so while it reconnects, and nothing can be sent meanwhile (a draft can be typed).
    expect(await page.getByTestId('socket-reconnecting').textContent()).toContain('Reconnecting');
    await page.getByTestId('composer-input').fill('a draft');
    expect(await page.getByTestId('composer-send').isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits the history beside the chat on a desktop, and puts the chat first on a phone', async () => {
    const desktop = await newPage(browser, app.url);
    await signIn(desktop.page);
    await desktop.page.goto(`/apps/${appId}/chat/${token}`);
    const view = desktop.page.getByTestId('conversations-view');
    await expect.poll(() => view.getAttribute('data-layout')).toBe('wide');
    expect(await textLines(desktop.page.getByTestId('conversation-history-title'))).toBe(1);
    await desktop.context.close();

    const { context, page, errors } = await newPage(browser, app.url, PHONE);
    await signIn(page);
    await page.goto(`/apps/${appId}/chat/${token}`);
    await expect
      .poll(() => page.getByTestId('conversations-view').getAttribute('data-layout'))
      .toBe('compact');
    await expect.poll(() => messages(page, 'user').count()).toBeGreaterThan(0);
    // The composer is on the first screen, not below the history.
    const composer = (await page.getByTestId('composer-input').boundingBox())!;
    expect(composer.y + composer.height).toBeLessThanOrEqual(PHONE.height);
    expect(await page.getByTestId('conversation-history').count()).toBe(0);

    // The history opens as a drawer; choosing New closes it and starts afresh.
    await page.getByTestId('conversation-history-open').click();
    const drawer = page.getByRole('dialog', { name: 'Conversation History' });
    await drawer.waitFor();
    await drawer.locator(`[data-testid="conversation-history-item"][data-token="${token}"]`).waitFor();
    await drawer.getByTestId('conversation-new').click();
    await page.waitForURL(new RegExp(`/apps/${appId}/chat$`));
    await drawer.waitFor({ state: 'hidden' });
    await page.getByTestId('conversation-empty').waitFor();

    // And an item reopens the conversation.
    await page.getByTestId('conversation-history-open').click();
    await drawer.locator(`[data-testid="conversation-history-item"][data-token="${token}"]`).click();
    await page.waitForURL(`**/chat/${token}`);
    await drawer.waitFor({ state: 'hidden' });
    await expect.poll(() => messages(page, 'user').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('reconnects after a server restart, joins the conversation again and follows it', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/chat/${token}`);
    await expect.poll(() => status(page)).toBe('connected');

    await app.restart();
    // Back within the 1–5 s backoff (randomised), joined to the same conversation.
    await expect.poll(() => status(page), { timeout: 30_000 }).toBe('connected');

    // A message sent from elsewhere now reaches this tab over the relay.
    const before = await messages(page).count();
    const api = await signedClient(app.url, 'demo');
    await api('POST', `/v1/conversations/${token}`, { content: 'After the restart' });
    await expect.poll(() => lastText(page, 'user')).toBe('After the restart');
    await expect.poll(() => lastText(page, 'assistant')).toContain('You said: After the restart');
    await expect.poll(() => messages(page).count()).toBe(before + 2);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000); // a restart on a busy runner plus the socket's randomised backoff
});
