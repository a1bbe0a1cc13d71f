/**
 * What the console's first screens download (docs/adr/0017-first-screen-budget.md): the scripts
 * a browser actually loads for the sign-in page and, signed in, for the dashboard, each gzip-compressed at
 * level 9 as the build precompresses them. Byte counts, not timings: the test fails when a change puts
 * more on a first screen.
 */
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Console, launchBrowser, newPage, signIn, startConsole } from '../harness';

const KB = 1024;
/** The budget of docs/adr/0017-first-screen-budget.md: the entry script and the modules index.html preloads. */
const INITIAL_BUDGET = 150 * KB;
/**
 * Each first screen in full (entry, preloads and the lazy chunks it renders). The goal, 150 KB, is not met
 * (React DOM, the data router, i18next, TanStack Query and Mantine's provider alone are ~130 KB, ADR 0017):
 * this ceiling keeps today's ~170 KB from growing.
 */
const SCREEN_CEILING = 180 * KB;

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

const gzipped = (bytes: Uint8Array) => gzipSync(bytes, { level: 9 }).length;

/**
 * Records the same-origin scripts the page loads: their paths, and the gzip size of those loaded until
 * `total()` (read at once, before a later navigation discards the bodies).
 */
function recordScripts(page: Page) {
  const paths = new Set<string>();
  const sizes: Promise<number>[] = [];
  let measuring = true;
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.origin !== new URL(app.url).origin || !url.pathname.endsWith('.js')) return;
    paths.add(url.pathname);
    if (measuring) sizes.push(response.body().then(gzipped));
  });
  return {
    loaded: (chunk: string) => [...paths].some((path) => path.startsWith(`/assets/${chunk}-`)),
    total: async () => {
      measuring = false;
      return (await Promise.all(sizes)).reduce((sum, n) => sum + n, 0);
    },
  };
}

/** Loads `path`, waits for `testId` and for the network to settle (lazy chunks the screen renders). */
async function load(page: Page, path: string, testId: string): Promise<void> {
  await page.goto(path);
  await page.getByTestId(testId).waitFor();
  await page.waitForLoadState('networkidle');
}

describe('the console first screens', () => {
  it('loads at most 150 KB of scripts before rendering (entry and preloads)', async () => {
    const html = await (await fetch(`${app.url}/login`)).text();
    const initial = [
      ...html.matchAll(/<(?:script[^>]*src|link[^>]*rel="modulepreload"[^>]*href)="(\/[^"]+\.js)"/g),
    ].map((m) => m[1]!);
    expect(initial.length).toBeGreaterThan(1);
    let size = 0;
    for (const path of initial) {
      size += gzipped(new Uint8Array(await (await fetch(`${app.url}${path}`)).arrayBuffer()));
    }
    expect(size).toBeLessThanOrEqual(INITIAL_BUDGET);
  });

  it('keeps the sign-in page and the dashboard within their ceiling; schemas and menus load when used', async () => {
    let context: BrowserContext;
    let page: Page;

    ({ context, page } = await newPage(browser, app.url));
    const signInScripts = recordScripts(page);
    await load(page, '/', 'login-form');
    expect(await signInScripts.total()).toBeLessThanOrEqual(SCREEN_CEILING);
    // The sign-in form's schemas (and zod) come with its first submit.
    expect(signInScripts.loaded('schemas')).toBe(false);
    await signIn(page);
    expect(signInScripts.loaded('schemas')).toBe(true);
    const session = await context.storageState();
    await context.close();

    context = await browser.newContext({
      baseURL: app.url,
      viewport: { width: 1280, height: 800 },
      storageState: session,
    });
    page = await context.newPage();
    const dashboardScripts = recordScripts(page);
    await load(page, '/', 'dashboard-heading');
    expect(await dashboardScripts.total()).toBeLessThanOrEqual(SCREEN_CEILING);
    // The user menu's code comes when it is wanted.
    expect(dashboardScripts.loaded('UserMenuDropdown')).toBe(false);
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu').waitFor();
    expect(dashboardScripts.loaded('UserMenuDropdown')).toBe(true);
    await context.close();
  });
});
