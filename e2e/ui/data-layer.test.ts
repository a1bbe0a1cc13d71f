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
} from '../harness';

// The console's data layer (docs/adr/0028-console-data-layer.md): a load that fails never looks like data,
// and offline a save fails at once and is never sent later.

let app: Console;
let browser: Browser;
let api: Awaited<ReturnType<typeof signedClient>>;
let vendorId: number;
let appId: number;

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

/** Fails every GET whose path matches while `failing.on`; the rest pass. */
async function failLoads(page: Page, path: RegExp) {
  const failing = { on: true };
  await page.route(
    (url) => path.test(url.pathname),
    (route) =>
      failing.on && route.request().method() === 'GET'
        ? route.abort('internetdisconnected')
        : route.continue(),
  );
  return failing;
}

interface Screen {
  name: string;
  path: () => string;
  api: () => RegExp;
  error: string;
  /** The test id of what the screen shows once its data loaded. */
  loaded: string;
  /** What a failed load must never look like. */
  never?: string;
}

const screens: Screen[] = [
  {
    name: 'Models',
    path: () => '/models',
    api: () => /^\/v1\/vendors\/\d+\/models$/,
    error: 'models-load-error',
    loaded: 'model-name',
    never: 'models-empty',
  },
  {
    name: 'Conversation History',
    path: () => `/apps/${appId}/chat`,
    api: () => /^\/v1\/conversations$/,
    error: 'conversation-history-load-error',
    loaded: 'conversation-history-empty',
    never: 'conversation-history-empty',
  },
  {
    name: 'Usage',
    path: () => `/apps/${appId}/settings/usage`,
    api: () => /^\/v1\/vendors\/\d+\/usage$/,
    error: 'usage-load-error',
    loaded: 'usage-blocks',
    never: 'usage-blocks',
  },
  {
    name: 'Configuration',
    path: () => `/apps/${appId}/settings/parameters`,
    api: () => new RegExp(`^/v1/vendors/\\d+/apps/${appId}/parameters$`),
    error: 'parameters-load-error',
    loaded: 'settings-title',
  },
  {
    name: 'Members',
    path: () => '/settings/users',
    api: () => /^\/v1\/vendors\/\d+\/users$/,
    error: 'members-load-error',
    loaded: 'members-table',
    never: 'members-empty',
  },
  {
    name: 'Datastores',
    path: () => `/apps/${appId}/settings/datastores`,
    api: () => new RegExp(`^/v1/vendors/\\d+/apps/${appId}/datastores$`),
    error: 'datastores-load-error',
    loaded: 'datastore-tab-create',
  },
  {
    name: 'Clients',
    path: () => `/apps/${appId}/settings/clients`,
    api: () => new RegExp(`^/v1/vendors/\\d+/apps/${appId}/clients$`),
    error: 'clients-load-error',
    loaded: 'clients-table',
    never: 'clients-empty',
  },
  {
    name: 'Embeds',
    path: () => `/apps/${appId}/settings/embeds`,
    api: () => new RegExp(`^/v1/vendors/\\d+/apps/${appId}/embed$`),
    error: 'embeds-load-error',
    loaded: 'embeds-empty',
    never: 'embeds-empty',
  },
  {
    name: 'Settings',
    path: () => '/settings/vendor',
    api: () => /^\/v1\/vendors\/\d+\/settings$/,
    error: 'settings-load-error',
    loaded: 'vendor-settings-form',
  },
  {
    name: 'Admin',
    path: () => '/admin/vendors',
    api: () => /^\/v1\/admin\/vendors$/,
    error: 'admin-vendors-load-error',
    loaded: 'admin-vendor-row-demo',
    never: 'admin-vendors-empty',
  },
  {
    name: 'App page',
    path: () => `/apps/${appId}/settings/details`,
    api: () => new RegExp(`^/v1/vendors/\\d+/apps/${appId}$`),
    error: 'app-error',
    loaded: 'details-form',
  },
];

describe('failed loads', () => {
  it('show an error with Try again on each screen, never data, and recover', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    for (const screen of screens) {
      const failing = await failLoads(page, screen.api());
      await page.goto(screen.path());
      const error = page.getByTestId(screen.error);
      await error.waitFor({ timeout: 15_000 });
      // The console's words, not the browser's.
      expect(await error.textContent(), screen.name).toContain('Could not connect to server');
      expect(await error.textContent(), screen.name).not.toContain('Failed to fetch');
      if (screen.never) expect(await page.getByTestId(screen.never).count(), screen.name).toBe(0);
      // Reported once, in place: no banner on top of it.
      expect(await page.getByTestId('error-banner').count(), screen.name).toBe(0);

      failing.on = false;
      await page.getByTestId(`${screen.error}-retry`).click();
      await page.getByTestId(screen.loaded).first().waitFor();
      await expect.poll(() => error.count(), { message: screen.name }).toBe(0);
      await page.unrouteAll();
    }
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('the conversation history', () => {
  it('is fetched once when a conversation starts', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/chat`);
    await page.getByTestId('conversation-history').waitFor();
    await page.waitForLoadState('networkidle');
    const listLoads: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (request.method() === 'GET' && url.pathname === '/v1/conversations') listLoads.push(url.search);
    });
    await page.getByTestId('composer-input').fill('Hello');
    await page.getByTestId('composer-input').press('Enter');
    await page.waitForURL(/\/chat\/[\w-]+/);
    await page.getByTestId('conversation-history-item').first().waitFor();
    await page.waitForLoadState('networkidle');
    expect(listLoads).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('offline', () => {
  it('fails a save within seconds with a clear message, and never commits it after going back online', async () => {
    const { context, page, errors } = await newPage(browser, app.url);
    await signIn(page);
    await page.goto(`/apps/${appId}/settings/details`);
    const name = page.getByTestId('details-name');
    await name.waitFor();
    const before: string = (
      await api<{ data: { name: string } }>('GET', `/v1/vendors/${vendorId}/apps/${appId}`)
    ).data.name;
    await name.fill('Renamed while offline');
    // What the first interaction fetches (the toasts' container) is there before the network goes.
    await page.waitForLoadState('networkidle');

    await context.setOffline(true);
    const started = Date.now();
    await page.getByTestId('details-save').click();
    await page
      .locator('.mantine-Notification-root', { hasText: 'Could not connect to server' })
      .first()
      .waitFor({ timeout: 5_000 });
    expect(Date.now() - started).toBeLessThan(5_000);

    // The user leaves the edit behind (the unsaved-changes guard asks first, ADR 0029), then the network returns.
    await page.getByTestId('app-tab-conversations').click();
    await page.getByTestId('unsaved-prompt').getByTestId('unsaved-leave').click();
    await page.waitForURL(/\/chat/);
    await context.setOffline(false);
    // A load after the network returned: anything queued would have gone out before it.
    await page.goto('/apps');
    await page.getByTestId('apps-grid').waitFor();
    const after = (await api<{ data: { name: string } }>('GET', `/v1/vendors/${vendorId}/apps/${appId}`))
      .data;
    expect(after.name).toBe(before);
    expect(errors).toEqual([]);
    await context.close();
  });
});
