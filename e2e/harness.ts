/**
 * Starts the real console (server + built web) on a fresh embedded database and drives it with
 * Debian's Chromium through playwright-core. Nothing is downloaded: a missing browser is an error.
 */
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeAccessToken, RELAY_PATH, type RelayAuth, signingMessage } from '@llmor/contracts';
import { loadConfig } from '@llmor/server/platform/config';
import { type RunningServer, type StartOptions, startServer } from '@llmor/server/server';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ADMIN = { email: 'admin@llmor.local', password: 'e2e-admin-password' };

export interface Console {
  server: RunningServer;
  url: string;
  /** Stops the server and starts it again on the same port and data (as after a deploy). */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `extra` adds configuration (e.g. a fake outside service's URL); `engine` the completion engine's fakes (a
 * slowed model). `E2E_WEB_DIST` serves a console built elsewhere (one build per checkout at a time:
 * `vite build` empties its output folder).
 */
export async function startConsole(
  extra: Record<string, string> = {},
  engine?: StartOptions['engine'],
): Promise<Console> {
  const dataDir = mkdtempSync(join(tmpdir(), 'llmor-e2e-'));
  const env = {
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    SEED_ADMIN_EMAIL: ADMIN.email,
    SEED_ADMIN_PASSWORD: ADMIN.password,
    // The journeys' fakes and sample model URLs are on loopback, which the outbound guard refuses by default.
    OUTBOUND_ALLOW: '127.0.0.1',
    ...(process.env.E2E_WEB_DIST ? { WEB_DIST: process.env.E2E_WEB_DIST } : {}),
    ...extra,
  };
  const server = await startServer(loadConfig({ ...env, PORT: '0' }), { engine });
  const console: Console = {
    server,
    url: server.url,
    restart: async () => {
      const port = new URL(console.url).port;
      await console.server.close();
      console.server = await startServer(loadConfig({ ...env, PORT: port }), { engine });
    },
    close: async () => {
      await console.server.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return console;
}

export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`No browser at ${CHROMIUM}. Install Debian's Chromium: apt-get install -y chromium`);
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A fresh browser profile (its own localStorage) with page errors collected for assertions. */
/** A phone-sized viewport (for the small-screen layouts). */
export const PHONE = { width: 390, height: 844 };

export async function newPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number } = { width: 1280, height: 800 },
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return { context, page, errors };
}

/**
 * Waits until the page has rendered what it has already received: two animation frames run after the
 * work queued before them (query results, state updates). Use it before asserting that something did
 * NOT appear, after waiting for the event that would have caused it.
 */
export const rendered = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

/** Signs in through the login form as the given user and waits for the dashboard. */
export async function signIn(page: Page, user: { email: string; password: string } = ADMIN): Promise<void> {
  await page.goto('/login');
  await page.getByTestId('login-email').fill(user.email);
  await page.getByTestId('login-password').fill(user.password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('dashboard-heading').waitFor();
}

/** How many lines the element's text is laid out on. */
export const textLines = (locator: Locator) =>
  locator.evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    return new Set(Array.from(range.getClientRects(), (r) => Math.round(r.top))).size;
  });

/** Whether the element's content is cut off (wider than the box that shows it). */
export const isClipped = (locator: Locator) => locator.evaluate((el) => el.scrollWidth > el.clientWidth);

/** The generic form helper's success toast (spelt as the console spells it). */
export const SAVED = 'Data has been succesfully saved.';

export async function toast(page: Page, text: string): Promise<void> {
  await page.locator('.mantine-Notification-root', { hasText: text }).first().waitFor();
}

/**
 * A signed API client over real HTTP for test setup (docs/reference/api.md "Sessions and request signing"),
 * signed in as the admin and acting in the vendor with this key; `relayAuth()` is its session's relay
 * handshake (as the console's).
 */
export async function signedClient(
  baseUrl: string,
  vendorKey: string,
  user: { email: string; password: string } = ADMIN,
) {
  const session = (await (await fetch(`${baseUrl}/v1/auth/session`, { method: 'POST' })).json()) as {
    token: string;
    secret: string;
  };
  const accessToken = (method: string, path: string) => {
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = createHmac('sha256', session.secret)
      .update(signingMessage(method, path, timestamp))
      .digest('hex');
    return encodeAccessToken(session.token, timestamp, signature);
  };
  /** The signed request's answer as it came, whatever its status. */
  const raw = (method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        'X-AccessToken': accessToken(method, path),
        'X-Vendor': vendorKey,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const call = async <T = { data: never }>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await raw(method, path, body);
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return (text ? JSON.parse(text) : { data: undefined }) as T;
  };
  await call('POST', '/v1/auth/signin', { identifier: user.email, secret: user.password });
  return Object.assign(call, {
    raw,
    relayAuth: (): RelayAuth => ({ access_token: accessToken('GET', RELAY_PATH) }),
  });
}

/**
 * Test setup in the demo vendor: the offline demo chat model installed and a chatbot app answering with it
 * (`parameters` saved with it).
 */
export async function installDemoChatbot(
  api: Awaited<ReturnType<typeof signedClient>>,
  parameters?: Record<string, unknown>,
): Promise<{ vendorId: number; modelId: number; appId: number }> {
  const vendors: { id: number; key: string }[] = (await api('GET', '/v1/vendors')).data;
  const vendorId = vendors.find((v) => v.key === 'demo')!.id;
  const model: { id: number } = (
    await api('POST', `/v1/vendors/${vendorId}/avamodels/builtin-offline-demo/install`, { parameters: {} })
  ).data;
  const installed: { id: number; name: string } = (
    await api('POST', `/v1/vendors/${vendorId}/apps`, { app_key: 'chatbot' })
  ).data;
  await api('PUT', `/v1/vendors/${vendorId}/apps/${installed.id}`, {
    name: installed.name,
    completion_vendor_model_id: model.id,
    ...(parameters ? { parameters } : {}),
  });
  return { vendorId, modelId: model.id, appId: installed.id };
}
