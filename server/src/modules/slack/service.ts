import {
  SLACK_BOT_SCOPES,
  type SlackIntegration,
  type SlackIntegrationBody,
  message as slackText,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { randomToken, safeEqualHex } from '../../platform/crypto';
import { badGateway, badRequest, conflict, notFound } from '../../platform/errors';
import type { JobQueue } from '../../platform/queue';
import type { ConversationContext } from '../conversations/ports';
import { slackConfigToken } from '../settings/service';
import type { SlackIntegrationRow } from './repo';
import * as repo from './repo';
import {
  botManifest,
  createSlackApp,
  exchangeCode,
  oauthRedirectUrl,
  SlackCallError,
  updateSlackApp,
} from './slack-api';

/** What the Slack module needs from the server: conversations (with their ports) and the job queue. */
export interface SlackContext extends ConversationContext {
  queue: JobQueue;
}

/**
 * The integration's sealed record (`slack_integrations.secrets_enc`): the Slack app's credentials, the
 * bot token once installed, the OAuth state nonce, and the base URL Slack was told to call back.
 */
export interface SlackCredentials {
  clientSecret: string;
  signingSecret: string;
  verificationToken: string;
  /** Random, ≥ 128 bits: the OAuth `state` is `{appId}.{nonce}`, compared in constant time. */
  oauthNonce: string;
  /** The link base (PUBLIC_URL, else the started address) when the manifest was last written: the redirect must match it. */
  callbackBase: string;
  botToken?: string;
}

const NONCE_BYTES = 24;

export function openCredentials(ctx: AppContext, row: SlackIntegrationRow): SlackCredentials | null {
  return row.secretsEnc ? (JSON.parse(ctx.secretBox.open(row.secretsEnc)) as SlackCredentials) : null;
}

const sealCredentials = (ctx: AppContext, credentials: SlackCredentials) =>
  ctx.secretBox.seal(JSON.stringify(credentials));

function authorizeUrl(ctx: AppContext, row: SlackIntegrationRow, credentials: SlackCredentials): string {
  const url = new URL(ctx.config.SLACK_OAUTH_AUTHORIZE_URL);
  url.searchParams.set('client_id', row.slackClientId ?? '');
  url.searchParams.set('scope', SLACK_BOT_SCOPES.join(','));
  url.searchParams.set('redirect_uri', oauthRedirectUrl(credentials.callbackBase));
  url.searchParams.set('state', `${row.vendorAppId}.${credentials.oauthNonce}`);
  return url.toString();
}

function present(
  ctx: AppContext,
  appId: number,
  row: SlackIntegrationRow | null,
  vendorConfigured: boolean,
): SlackIntegration {
  const credentials = row ? openCredentials(ctx, row) : null;
  return {
    vendor_app_id: appId,
    slack_bot_name: row?.slackBotName ?? '',
    slack_bot_always_online: row?.slackBotAlwaysOnline ?? true,
    is_configured: row?.isConfigured ?? false,
    slack_app_id: row?.slackAppId ?? null,
    slack_client_id: row?.slackClientId ?? null,
    slack_team_domain: row?.slackTeamDomain ?? null,
    slack_oauth_authorize_url: row?.isConfigured && credentials ? authorizeUrl(ctx, row, credentials) : null,
    vendor_configured: vendorConfigured,
  };
}

/** The app's integration; an app without one answers the defaults (not configured, always online). */
export async function getIntegration(
  ctx: SlackContext,
  vendorId: number,
  appId: number,
): Promise<SlackIntegration> {
  const [row, token] = await Promise.all([
    repo.findIntegration(ctx.db, vendorId, appId),
    slackConfigToken(ctx, vendorId),
  ]);
  return present(ctx, appId, row, token !== null);
}

async function requireConfigToken(ctx: AppContext, vendorId: number): Promise<string> {
  const token = await slackConfigToken(ctx, vendorId);
  if (!token) {
    throw badRequest(slackText('slackConfigRequired'));
  }
  return token;
}

/**
 * Slack's refusal as a 400 naming Slack's error code; a refused bot name is the name field's error.
 * Slack not answering at all is a 502 saying so.
 */
function slackRefused(action: string, err: unknown): never {
  if (!(err instanceof SlackCallError)) throw err;
  if (err.unreachable) throw badGateway(slackText('slackUnreachable'));
  const message = `Slack refused to ${action} the app: ${err.message}`;
  const nameRefused = err.details.some(
    (d) => d.startsWith('/display_information/name') || d.includes('bot_user'),
  );
  throw badRequest(message, nameRefused ? { slack_bot_name: err.details.join('; ') } : undefined);
}

/** Creates the Slack app (`apps.manifest.create`) and keeps its credentials sealed. */
export async function createIntegration(
  ctx: SlackContext,
  vendorId: number,
  appId: number,
  body: Required<SlackIntegrationBody>,
): Promise<SlackIntegration> {
  const existing = await repo.findIntegration(ctx.db, vendorId, appId);
  if (existing?.isConfigured) throw conflict(slackText('slackExists'));
  const configToken = await requireConfigToken(ctx, vendorId);
  const base = ctx.publicUrl;
  const manifest = botManifest({
    botName: body.slack_bot_name,
    alwaysOnline: body.slack_bot_always_online,
    appId,
    base,
  });
  const created = await createSlackApp(ctx, configToken, manifest).catch((err) =>
    slackRefused('create', err),
  );
  const row = await repo.saveIntegration(ctx.db, vendorId, appId, {
    slackBotName: body.slack_bot_name,
    slackBotAlwaysOnline: body.slack_bot_always_online,
    isConfigured: true,
    slackAppId: created.appId,
    slackClientId: created.clientId,
    slackTeamId: null,
    slackTeamDomain: null,
    slackBotUserId: null,
    secretsEnc: sealCredentials(ctx, {
      clientSecret: created.clientSecret,
      signingSecret: created.signingSecret,
      verificationToken: created.verificationToken,
      oauthNonce: randomToken(NONCE_BYTES),
      callbackBase: base,
    }),
  });
  return present(ctx, appId, row, true);
}

/** Writes the bot's name and presence to the Slack app (`apps.manifest.update`). */
export async function updateIntegration(
  ctx: SlackContext,
  vendorId: number,
  appId: number,
  body: Required<SlackIntegrationBody>,
): Promise<SlackIntegration> {
  const existing = await repo.findIntegration(ctx.db, vendorId, appId);
  const credentials = existing ? openCredentials(ctx, existing) : null;
  if (!existing?.isConfigured || !existing.slackAppId || !credentials) throw notFound('Slack integration');
  const configToken = await requireConfigToken(ctx, vendorId);
  const base = ctx.publicUrl;
  const manifest = botManifest({
    botName: body.slack_bot_name,
    alwaysOnline: body.slack_bot_always_online,
    appId,
    base,
  });
  await updateSlackApp(ctx, configToken, existing.slackAppId, manifest).catch((err) =>
    slackRefused('update', err),
  );
  const row = await repo.updateIntegration(ctx.db, vendorId, appId, {
    slackBotName: body.slack_bot_name,
    slackBotAlwaysOnline: body.slack_bot_always_online,
    secretsEnc: sealCredentials(ctx, { ...credentials, callbackBase: base }),
  });
  if (!row) throw notFound('Slack integration');
  return present(ctx, appId, row, true);
}

export type InstallOutcome =
  | { ok: true; appId: number; botName: string; teamDomain: string; consoleBase: string }
  | { ok: false; message: string; appId?: number; consoleBase?: string };

const STATE_PATTERN = /^(\d{1,10})\.([A-Za-z0-9_-]{16,64})$/;

/** The nonce compared in constant time (both sides hashed to equal length first). */
function nonceMatches(expected: string, given: string): boolean {
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  return expected.length === given.length && safeEqualHex(hex(expected), hex(given));
}

/**
 * The OAuth redirect: checks the `state` against the integration's nonce, exchanges the code for the bot
 * token (`oauth.v2.access`) and stores it sealed with the workspace's id and domain.
 */
export async function completeInstall(
  ctx: AppContext,
  query: { code?: string; state?: string; error?: string },
): Promise<InstallOutcome> {
  const state = STATE_PATTERN.exec(query.state ?? '');
  const row = state ? await repo.findIntegrationByCapability(ctx.db, Number(state[1])) : null;
  const credentials = row?.isConfigured ? openCredentials(ctx, row) : null;
  if (!state || !row || !credentials || !nonceMatches(credentials.oauthNonce, state[2]!)) {
    return { ok: false, message: 'This installation link is not valid. Start again from the console.' };
  }
  const back = { appId: row.vendorAppId, consoleBase: credentials.callbackBase };
  if (query.error) {
    return { ok: false, ...back, message: `Slack did not install the bot: ${query.error}.` };
  }
  if (!query.code) return { ok: false, ...back, message: 'Slack sent no authorization code.' };
  try {
    const installed = await exchangeCode(ctx, {
      clientId: row.slackClientId ?? '',
      clientSecret: credentials.clientSecret,
      code: query.code,
      redirectUri: oauthRedirectUrl(credentials.callbackBase),
    });
    if (installed.slackAppId !== row.slackAppId) {
      return { ok: false, ...back, message: 'Slack installed a different app than this one.' };
    }
    await repo.updateIntegration(ctx.db, row.vendorId, row.vendorAppId, {
      slackTeamId: installed.teamId,
      slackTeamDomain: installed.teamDomain,
      slackBotUserId: installed.botUserId,
      secretsEnc: sealCredentials(ctx, { ...credentials, botToken: installed.botToken }),
    });
    return { ok: true, ...back, botName: row.slackBotName, teamDomain: installed.teamDomain };
  } catch (err) {
    if (!(err instanceof SlackCallError)) throw err;
    return { ok: false, ...back, message: `Slack refused the installation: ${err.message}` };
  }
}
