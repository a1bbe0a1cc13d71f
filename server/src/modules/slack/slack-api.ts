/**
 * The calls llmor makes to Slack's Web API, through `@slack/web-api` against `SLACK_API_URL`. Nothing
 * else in the server speaks to Slack. Failures come back as `SlackCallError` carrying Slack's error code.
 */
import {
  SLACK_BOT_EVENTS,
  SLACK_BOT_SCOPES,
  SLACK_EVENTS_PATH,
  SLACK_OAUTH_CALLBACK_PATH,
} from '@llmor/contracts';
import type { AppsManifestCreateArguments, Logger, LogLevel, WebClient } from '@slack/web-api';
import type { AppContext } from '../../platform/context';

type Manifest = AppsManifestCreateArguments['manifest'];

/** Slack answers within seconds; a stuck call must not hold a request or a job. */
const CALL_TIMEOUT_MS = 15_000;

export class SlackCallError extends Error {
  constructor(
    /** Slack's error code (`invalid_auth`, `invalid_manifest`, …) or a transport failure's description. */
    readonly code: string,
    /** Slack's detailed problems, e.g. which manifest field it refused. */
    readonly details: string[] = [],
    /** No answer from Slack at all (network, timeout, an HTTP failure): Slack refused nothing. */
    readonly unreachable = false,
  ) {
    super(`Slack answered: ${code}${details.length ? ` (${details.join('; ')})` : ''}`);
  }
}

/** Loaded on first use: the SDK and its HTTP stack cost ~11 MB and ~50 ms of every start otherwise. */
const slackSdk = () => import('@slack/web-api');

/** The SDK's log lines go to the server's log (it never logs request bodies above debug). */
function slackLogger(ctx: AppContext, initial: LogLevel): Logger {
  let level = initial;
  return {
    debug: () => {},
    info: () => {},
    warn: (...msg) => ctx.log.warn({ slack: msg.map(String).join(' ') }, 'Slack Web API'),
    error: (...msg) => ctx.log.error({ slack: msg.map(String).join(' ') }, 'Slack Web API'),
    setLevel: (next) => {
      level = next;
    },
    getLevel: () => level,
    setName: () => {},
  };
}

async function client(ctx: AppContext, token?: string): Promise<WebClient> {
  const { WebClient, LogLevel } = await slackSdk();
  return new WebClient(token, {
    slackApiUrl: ctx.config.SLACK_API_URL,
    logger: slackLogger(ctx, LogLevel.WARN),
    // One attempt: the console shows a failure at once, and a reply job fails instead of repeating itself.
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: CALL_TIMEOUT_MS,
  });
}

/** Slack's detailed problems beside its error code (`invalid_manifest` lists the refused fields). */
type PlatformProblems = { errors?: { message?: string; pointer?: string }[] };

/** Runs one call; Slack's `{ok: false, error}` and transport failures become a `SlackCallError`. */
async function call<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    const { WebAPIPlatformError } = await slackSdk();
    if (err instanceof WebAPIPlatformError) {
      const problems = (err.data as PlatformProblems).errors ?? [];
      throw new SlackCallError(
        err.data.error,
        problems.map((p) => [p.pointer, p.message].filter(Boolean).join(': ')),
      );
    }
    throw new SlackCallError(err instanceof Error ? err.message : String(err), [], true);
  }
}

/** The URLs Slack calls back, under the link base (PUBLIC_URL, else the started address). */
const eventsUrl = (base: string, appId: number) => `${base}${SLACK_EVENTS_PATH}/${appId}`;
export const oauthRedirectUrl = (base: string) => `${base}${SLACK_OAUTH_CALLBACK_PATH}`;

/** The Slack app's manifest: a bot answering mentions and direct messages, events sent to llmor. */
export function botManifest(opts: {
  botName: string;
  alwaysOnline: boolean;
  appId: number;
  base: string;
}): Manifest {
  return {
    display_information: {
      name: opts.botName,
      description: 'A bot answering with an llmor app.',
    },
    features: {
      app_home: {
        home_tab_enabled: false,
        messages_tab_enabled: true,
        messages_tab_read_only_enabled: false,
      },
      bot_user: { display_name: opts.botName, always_online: opts.alwaysOnline },
    },
    oauth_config: {
      redirect_urls: [oauthRedirectUrl(opts.base)],
      scopes: { bot: [...SLACK_BOT_SCOPES] },
    },
    settings: {
      event_subscriptions: {
        request_url: eventsUrl(opts.base, opts.appId),
        bot_events: [...SLACK_BOT_EVENTS],
      },
      org_deploy_enabled: false,
      socket_mode_enabled: false,
      token_rotation_enabled: false,
    },
  };
}

export interface CreatedSlackApp {
  appId: string;
  clientId: string;
  clientSecret: string;
  signingSecret: string;
  verificationToken: string;
}

/** `apps.manifest.create` with the vendor's configuration token. */
export async function createSlackApp(
  ctx: AppContext,
  configToken: string,
  manifest: Manifest,
): Promise<CreatedSlackApp> {
  const res = await call(async () => (await client(ctx, configToken)).apps.manifest.create({ manifest }));
  const c = res.credentials;
  if (!res.app_id || !c?.client_id || !c.client_secret || !c.signing_secret || !c.verification_token)
    throw new SlackCallError('incomplete_answer', ['apps.manifest.create answered without credentials']);
  return {
    appId: res.app_id,
    clientId: c.client_id,
    clientSecret: c.client_secret,
    signingSecret: c.signing_secret,
    verificationToken: c.verification_token,
  };
}

/** `apps.manifest.update`: Slack replaces the app's whole manifest. */
export async function updateSlackApp(
  ctx: AppContext,
  configToken: string,
  slackAppId: string,
  manifest: Manifest,
): Promise<void> {
  await call(async () =>
    (await client(ctx, configToken)).apps.manifest.update({ app_id: slackAppId, manifest }),
  );
}

export interface Installation {
  slackAppId: string;
  botToken: string;
  botUserId: string;
  teamId: string;
  /** The workspace's subdomain (`acme` of acme.slack.com). */
  teamDomain: string;
}

/** `oauth.v2.access` exchanges the code for the bot token; `auth.test` names the workspace's domain. */
export async function exchangeCode(
  ctx: AppContext,
  input: { clientId: string; clientSecret: string; code: string; redirectUri: string },
): Promise<Installation> {
  const access = await call(async () =>
    (await client(ctx)).oauth.v2.access({
      client_id: input.clientId,
      client_secret: input.clientSecret,
      code: input.code,
      redirect_uri: input.redirectUri,
    }),
  );
  if (!access.access_token || !access.bot_user_id || !access.team?.id || !access.app_id)
    throw new SlackCallError('incomplete_answer', ['oauth.v2.access answered without a bot token']);
  const botToken = access.access_token;
  const identity = await call(async () => (await client(ctx, botToken)).auth.test());
  const domain = identity.url ? new URL(identity.url).hostname.split('.')[0] : undefined;
  return {
    slackAppId: access.app_id,
    botToken,
    botUserId: access.bot_user_id,
    teamId: access.team.id,
    teamDomain: domain || access.team.name || access.team.id,
  };
}

/** Posts a message in a thread (`chat.postMessage`, Markdown text); answers its timestamp. */
export async function postInThread(
  ctx: AppContext,
  botToken: string,
  message: { channel: string; threadTs: string; markdown: string },
): Promise<string | undefined> {
  const res = await call(async () =>
    (await client(ctx, botToken)).chat.postMessage({
      channel: message.channel,
      thread_ts: message.threadTs,
      markdown_text: message.markdown,
    }),
  );
  return res.ts;
}
