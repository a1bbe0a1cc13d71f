/**
 * Fake Slack: the Web API methods llmor calls and the OAuth authorize page, on 127.0.0.1:<random port>,
 * speaking Slack's wire format — `POST /api/{method}` with form-encoded (object fields as JSON strings)
 * or JSON bodies, the token in `Authorization: Bearer`, and always HTTP 200 with `{ok: true, …}` or
 * `{ok: false, error}`. One fake workspace (team `T0FAKE`, domain `fake-team`).
 *
 * - `apps.manifest.create` / `apps.manifest.update` (configuration token `configToken`)
 * - `GET /oauth/v2/authorize?client_id&scope&redirect_uri&state` → 302 to `redirect_uri?code&state`
 *   (the person approves at once), `oauth.v2.access` (client id + secret + that code), `auth.test`
 * - `chat.postMessage` in a thread (bot token); posted messages are in `messages`
 *
 * Anything else — another method or path, a missing token where Slack needs one, a body it cannot read, an
 * authorize request naming an unknown client or an unregistered redirect — answers 500 and is recorded in
 * `failures` (`expectNoFailures()`). Refusals Slack itself gives (a wrong token: `invalid_auth`) are
 * answered as Slack does and are not failures. `failNext(method, error)` scripts one Slack error.
 *
 * ```ts
 * const slack = await FakeSlack.start();            // SLACK_API_URL: slack.apiUrl, …AUTHORIZE_URL: slack.authorizeUrl
 * slack.app(slackAppId).credentials.signing_secret; // to sign events like Slack
 * slack.signedEvent(slackAppId, { type: 'app_mention', … });  // {headers, body} for POST /v1/slack/events/{id}
 * await slack.waitForMessage((m) => m.thread_ts === ts);
 * ```
 */
import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

const FAKE_TEAM = { id: 'T0FAKE', name: 'Fake Team', domain: 'fake-team' } as const;

export interface SlackCall {
  method: string;
  /** The bearer token sent, if any. */
  token: string | undefined;
  contentType: string;
  params: Record<string, unknown>;
}

export interface FakeSlackApp {
  appId: string;
  manifest: Record<string, unknown>;
  credentials: {
    client_id: string;
    client_secret: string;
    signing_secret: string;
    verification_token: string;
  };
  botUserId: string;
  botToken: string | null;
}

export interface PostedMessage {
  channel: string;
  thread_ts: string | undefined;
  text: string;
  ts: string;
  token: string;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export class FakeSlack {
  readonly calls: SlackCall[] = [];
  readonly failures: string[] = [];
  readonly messages: PostedMessage[] = [];
  readonly apps = new Map<string, FakeSlackApp>();
  /** The configuration token `apps.manifest.*` accept. */
  configToken = `xoxe.xoxp-1-${hex(16)}`;
  url = '';
  private server!: Server;
  private readonly codes = new Map<string, string>();
  private readonly scripted = new Map<string, string[]>();
  private readonly waiters: (() => void)[] = [];
  private seq = 0;

  static async start(): Promise<FakeSlack> {
    const fake = new FakeSlack();
    fake.server = createServer((req, res) => {
      void fake.handle(req, res);
    });
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.url = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
    return fake;
  }

  /** `SLACK_API_URL` */
  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  /** `SLACK_OAUTH_AUTHORIZE_URL` */
  get authorizeUrl(): string {
    return `${this.url}/oauth/v2/authorize`;
  }

  /** The one app created so far (most tests create one); throws otherwise. */
  onlyApp(): FakeSlackApp {
    if (this.apps.size !== 1) throw new Error(`FakeSlack: ${this.apps.size} apps, expected 1`);
    return [...this.apps.values()][0]!;
  }

  app(appId: string): FakeSlackApp {
    const app = this.apps.get(appId);
    if (!app) throw new Error(`FakeSlack: no app ${appId}`);
    return app;
  }

  callsOf(method: string): SlackCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  /** The next call of `method` answers `{ok: false, error}`. */
  failNext(method: string, error: string): void {
    this.scripted.set(method, [...(this.scripted.get(method) ?? []), error]);
  }

  expectNoFailures(): void {
    if (this.failures.length) throw new Error(`fake Slack failures:\n  ${this.failures.join('\n  ')}`);
  }

  /** Resolves with the first posted message matching, waiting for it up to `timeoutMs`. */
  async waitForMessage(match: (m: PostedMessage) => boolean, timeoutMs = 15_000): Promise<PostedMessage> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.find(match);
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('FakeSlack: no matching message was posted in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /**
   * An Events API request as Slack sends it to the app's request URL: the `event_callback` envelope around
   * `event`, signed with the app's signing secret (v0) at `timestamp` (default now).
   */
  signedEvent(
    appId: string,
    event: Record<string, unknown>,
    opts: { eventId?: string; timestamp?: number; secret?: string } = {},
  ): { headers: Record<string, string>; body: string; eventId: string } {
    const app = this.app(appId);
    const eventId = opts.eventId ?? `Ev${hex(6).toUpperCase()}`;
    const body = JSON.stringify({
      token: app.credentials.verification_token,
      team_id: FAKE_TEAM.id,
      api_app_id: app.appId,
      event: { event_ts: event.ts, ...event },
      type: 'event_callback',
      event_id: eventId,
      event_time: Math.floor(Date.now() / 1000),
    });
    return {
      headers: signedHeaders(opts.secret ?? app.credentials.signing_secret, body, opts.timestamp),
      body,
      eventId,
    };
  }

  /** The request URL the app's manifest registered for events. */
  eventsUrl(appId: string): string {
    const settings = this.app(appId).manifest.settings as { event_subscriptions?: { request_url?: string } };
    const url = settings?.event_subscriptions?.request_url;
    if (!url) throw new Error(`FakeSlack: app ${appId} subscribes to no events`);
    return url;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    if (req.method === 'GET' && url.pathname === '/oauth/v2/authorize') return this.authorize(url, res);
    const method = /^\/api\/([a-zA-Z0-9.]+)$/.exec(url.pathname)?.[1];
    if (req.method !== 'POST' || !method)
      return this.fail(res, `unexpected request ${req.method} ${url.pathname}`);
    const contentType = String(req.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    let params: Record<string, unknown>;
    try {
      params = parseBody(contentType, raw);
    } catch (err) {
      return this.fail(
        res,
        `${method}: unreadable ${contentType || 'untyped'} body (${(err as Error).message})`,
      );
    }
    const auth = String(req.headers.authorization ?? '');
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : undefined;
    this.calls.push({ method, token, contentType, params });
    const scripted = this.scripted.get(method)?.shift();
    if (scripted) return answer(res, { ok: false, error: scripted });
    switch (method) {
      case 'apps.manifest.create':
        return this.manifestCreate(res, token, params);
      case 'apps.manifest.update':
        return this.manifestUpdate(res, token, params);
      case 'oauth.v2.access':
        return this.oauthAccess(res, params);
      case 'auth.test':
        return this.authTest(res, token);
      case 'chat.postMessage':
        return this.postMessage(res, token, params);
      default:
        return this.fail(res, `unexpected Slack method ${method}`);
    }
  }

  private manifest(res: ServerResponse, params: Record<string, unknown>): Record<string, unknown> | null {
    const manifest = params.manifest;
    const display = (manifest as { display_information?: { name?: unknown } } | undefined)
      ?.display_information;
    if (!manifest || typeof manifest !== 'object' || typeof display?.name !== 'string') {
      answer(res, {
        ok: false,
        error: 'invalid_manifest',
        errors: [{ message: 'must have required property name', pointer: '/display_information' }],
      });
      return null;
    }
    return manifest as Record<string, unknown>;
  }

  private manifestCreate(res: ServerResponse, token: string | undefined, params: Record<string, unknown>) {
    if (!token) return this.fail(res, 'apps.manifest.create without a token');
    if (token !== this.configToken) return answer(res, { ok: false, error: 'invalid_auth' });
    const manifest = this.manifest(res, params);
    if (!manifest) return;
    const n = ++this.seq;
    const app: FakeSlackApp = {
      appId: `A0FAKE${n}`,
      manifest,
      credentials: {
        client_id: `${1000 + n}.${2000 + n}`,
        client_secret: hex(16),
        signing_secret: hex(16),
        verification_token: hex(12),
      },
      botUserId: `U0BOT${n}`,
      botToken: null,
    };
    this.apps.set(app.appId, app);
    answer(res, {
      ok: true,
      app_id: app.appId,
      credentials: app.credentials,
      oauth_authorize_url: `${this.authorizeUrl}?client_id=${app.credentials.client_id}`,
    });
  }

  private manifestUpdate(res: ServerResponse, token: string | undefined, params: Record<string, unknown>) {
    if (!token) return this.fail(res, 'apps.manifest.update without a token');
    if (token !== this.configToken) return answer(res, { ok: false, error: 'invalid_auth' });
    const app = this.apps.get(String(params.app_id));
    if (!app) return answer(res, { ok: false, error: 'invalid_app_id' });
    const manifest = this.manifest(res, params);
    if (!manifest) return;
    app.manifest = manifest;
    answer(res, { ok: true, app_id: app.appId, permissions_updated: false });
  }

  private authorize(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const app = [...this.apps.values()].find((a) => a.credentials.client_id === q.get('client_id'));
    const redirects = (app?.manifest.oauth_config as { redirect_urls?: string[] } | undefined)?.redirect_urls;
    const redirect = q.get('redirect_uri') ?? '';
    if (!app) return this.fail(res, `authorize: unknown client_id ${q.get('client_id')}`);
    if (!redirects?.includes(redirect))
      return this.fail(res, `authorize: redirect_uri ${redirect} not registered`);
    if (!q.get('scope') || !q.get('state')) return this.fail(res, 'authorize: scope and state are required');
    const code = `${hex(8)}.${hex(8)}`;
    this.codes.set(code, app.appId);
    const target = new URL(redirect);
    target.searchParams.set('code', code);
    target.searchParams.set('state', q.get('state')!);
    res.writeHead(302, { location: target.toString() });
    res.end();
  }

  private oauthAccess(res: ServerResponse, params: Record<string, unknown>) {
    const appId = this.codes.get(String(params.code));
    const app = appId ? this.apps.get(appId) : undefined;
    if (!app) return answer(res, { ok: false, error: 'invalid_code' });
    if (params.client_id !== app.credentials.client_id)
      return answer(res, { ok: false, error: 'invalid_client_id' });
    if (params.client_secret !== app.credentials.client_secret)
      return answer(res, { ok: false, error: 'bad_client_secret' });
    this.codes.delete(String(params.code));
    app.botToken = `xoxb-${hex(12)}`;
    const scopes = (app.manifest.oauth_config as { scopes?: { bot?: string[] } }).scopes?.bot ?? [];
    answer(res, {
      ok: true,
      app_id: app.appId,
      authed_user: { id: 'U0PERSON' },
      scope: scopes.join(','),
      token_type: 'bot',
      access_token: app.botToken,
      bot_user_id: app.botUserId,
      team: { id: FAKE_TEAM.id, name: FAKE_TEAM.name },
      enterprise: null,
      is_enterprise_install: false,
    });
  }

  private botApp(token: string | undefined): FakeSlackApp | undefined {
    return token ? [...this.apps.values()].find((a) => a.botToken === token) : undefined;
  }

  private authTest(res: ServerResponse, token: string | undefined) {
    if (!token) return this.fail(res, 'auth.test without a token');
    const app = this.botApp(token);
    if (!app) return answer(res, { ok: false, error: 'invalid_auth' });
    answer(res, {
      ok: true,
      url: `https://${FAKE_TEAM.domain}.slack.com/`,
      team: FAKE_TEAM.name,
      user: 'bot',
      team_id: FAKE_TEAM.id,
      user_id: app.botUserId,
      bot_id: `B0${app.appId}`,
      is_enterprise_install: false,
    });
  }

  private postMessage(res: ServerResponse, token: string | undefined, params: Record<string, unknown>) {
    if (!token) return this.fail(res, 'chat.postMessage without a token');
    if (!this.botApp(token)) return answer(res, { ok: false, error: 'invalid_auth' });
    const text = params.markdown_text ?? params.text;
    if (typeof params.channel !== 'string' || !params.channel)
      return answer(res, { ok: false, error: 'channel_not_found' });
    if (typeof text !== 'string' || !text) return answer(res, { ok: false, error: 'no_text' });
    if (typeof params.markdown_text === 'string' && params.markdown_text.length > 12_000)
      return answer(res, { ok: false, error: 'markdown_text_too_long' });
    const ts = `${Math.floor(Date.now() / 1000)}.${String(++this.seq).padStart(6, '0')}`;
    const message: PostedMessage = {
      channel: params.channel,
      thread_ts: typeof params.thread_ts === 'string' ? params.thread_ts : undefined,
      text,
      ts,
      token,
    };
    this.messages.push(message);
    for (const wake of this.waiters.splice(0)) wake();
    answer(res, {
      ok: true,
      channel: message.channel,
      ts,
      message: { type: 'message', text, ts, thread_ts: message.thread_ts },
    });
  }

  private fail(res: ServerResponse, message: string): void {
    this.failures.push(message);
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ ok: false, error: `fake_slack: ${message}` }));
  }
}

/** Slack's request signing (v0) of an outgoing request body. */
export function signedHeaders(
  signingSecret: string,
  body: string,
  timestamp = Math.floor(Date.now() / 1000),
) {
  const signature = createHmac('sha256', signingSecret).update(`v0:${timestamp}:${body}`).digest('hex');
  return {
    'content-type': 'application/json',
    'x-slack-request-timestamp': String(timestamp),
    'x-slack-signature': `v0=${signature}`,
  };
}

/** Fields whose values are objects, sent JSON-encoded inside a form body. */
const JSON_FIELDS = new Set(['manifest', 'blocks', 'attachments', 'metadata']);

/** Form fields (object values arrive as JSON strings, as @slack/web-api and Slack's docs send them) or JSON. */
function parseBody(contentType: string, raw: string): Record<string, unknown> {
  if (contentType === 'application/json') return raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
  if (contentType !== 'application/x-www-form-urlencoded') throw new Error('not form or JSON');
  const params: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    params[key] = JSON_FIELDS.has(key) ? JSON.parse(value) : value;
  }
  return params;
}

function answer(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}
