/**
 * Slack integration (docs/reference/api.md "Reaching an app from outside" → Slack; docs/reference/console.md "App settings: Slack
 * integration"): each app can become a Slack bot, created from the console with the vendor's Slack
 * configuration token (a vendor setting).
 *
 * | call | request | answer |
 * | --- | --- | --- |
 * | GET /v1/vendors/{vendorId}/apps/{appId}/integrations/slack | – | `{data: SlackIntegration}` (defaults when none) |
 * | POST /v1/vendors/{vendorId}/apps/{appId}/integrations/slack | `slackIntegrationBody` | 201 `{data: SlackIntegration}` |
 * | PUT /v1/vendors/{vendorId}/apps/{appId}/integrations/slack | `slackIntegrationBody` | `{data: SlackIntegration}` |
 * | GET /v1/slack/oauth/callback?code&state | – (Slack redirects the person here) | an HTML result page |
 * | POST /v1/slack/events/{appId} | Slack's Events API body, signed (`X-Slack-Signature` v0) | `{challenge}` or `{ok: true}` |
 *
 * POST calls Slack's `apps.manifest.create`, PUT `apps.manifest.update`; the app's credentials are sealed
 * at rest and never answered. A POST for an app that already has a Slack app answers 409; a PUT for one
 * that has none answers 404.
 */
import { z } from 'zod';
import { idParam } from './common';

/** Slack's limit for an app's display name (manifest `display_information.name`). */
const SLACK_BOT_NAME_MAX_LENGTH = 35;
export const SLACK_EVENTS_PATH = '/v1/slack/events';
export const SLACK_OAUTH_CALLBACK_PATH = '/v1/slack/oauth/callback';
/** Bot scopes the manifest asks for: mentions, direct messages, and replying. */
export const SLACK_BOT_SCOPES = [
  'app_mentions:read',
  'channels:history',
  'chat:write',
  'im:history',
  'im:read',
] as const;
/** Events the bot subscribes to: mentions in channels and messages in its direct-message channel. */
export const SLACK_BOT_EVENTS = ['app_mention', 'message.im'] as const;

export const slackIntegrationPath = z.object({ vendorId: idParam, appId: idParam });

export const slackIntegrationBody = z.object(
  {
    slack_bot_name: z
      .string({ error: 'Required' })
      .trim()
      .min(1, 'Required')
      .max(SLACK_BOT_NAME_MAX_LENGTH, `At most ${SLACK_BOT_NAME_MAX_LENGTH} characters`),
    slack_bot_always_online: z.boolean({ error: 'Must be true or false' }).default(true),
  },
  { error: 'Must be an object' },
);
export type SlackIntegrationBody = z.input<typeof slackIntegrationBody>;

/** docs/reference/rules.md "Slack integration", plus whether the vendor has a Slack configuration token. */
export const slackIntegrationSchema = z.object({
  vendor_app_id: z.number().int(),
  slack_bot_name: z.string(),
  slack_bot_always_online: z.boolean(),
  /** A Slack app exists (created through `apps.manifest.create`). */
  is_configured: z.boolean(),
  slack_app_id: z.string().nullable(),
  slack_client_id: z.string().nullable(),
  /** The workspace the bot is installed in (set by the OAuth callback), else null. */
  slack_team_domain: z.string().nullable(),
  /** Slack's OAuth page that installs the bot in a workspace; null until the Slack app exists. */
  slack_oauth_authorize_url: z.string().nullable(),
  /** The vendor has a Slack configuration token (vendor settings → Integrations → Slack). */
  vendor_configured: z.boolean(),
});
export type SlackIntegration = z.infer<typeof slackIntegrationSchema>;
