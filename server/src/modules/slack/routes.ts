import {
  dataEnvelopeSchema,
  idParam,
  SLACK_EVENTS_PATH,
  SLACK_OAUTH_CALLBACK_PATH,
  slackIntegrationBody,
  slackIntegrationPath,
  slackIntegrationSchema,
} from '@llmor/contracts';
import { z } from 'zod';
import { route } from '../../platform/http/route';
import { receiveEvent } from './events';
import { installPage } from './install-page';
import type { SlackContext } from './service';
import * as service from './service';

const tags = ['slack'];
/**
 * Integrations are the owners' (docs/adr/0023-identity-across-tenants.md): a Slack bot speaks for the vendor
 * in a workspace and holds its credentials; members get 404 like on any owner route.
 */
const byPath = { auth: 'user', vendor: 'path', role: 'owner', app: 'path' } as const;
const url = '/v1/vendors/:vendorId/apps/:appId/integrations/slack';

/** A query value Slack's redirect may carry; anything odd counts as absent (the page says what is missing). */
const redirectValue = z.string().max(2000).optional().catch(undefined);

/** An app's Slack bot (contracts/src/http/slack.ts): settings, Slack's OAuth redirect, Slack's events. */
export const slackRoutes = (ctx: SlackContext) => [
  route({
    method: 'GET',
    url,
    summary: "The app's Slack integration (defaults when it has none)",
    tags,
    access: byPath,
    params: slackIntegrationPath,
    resource: 'App',
    response: dataEnvelopeSchema(slackIntegrationSchema),
    handler: async ({ vendor, app }) => ({
      data: await service.getIntegration(ctx, vendor.id, app.id),
    }),
  }),
  route({
    method: 'POST',
    url,
    summary:
      "Create the app's Slack app (Slack's apps.manifest.create with the vendor's configuration token)",
    tags,
    access: byPath,
    params: slackIntegrationPath,
    resource: 'App',
    body: slackIntegrationBody,
    status: 201,
    response: dataEnvelopeSchema(slackIntegrationSchema),
    errors: ['BadRequest', 'Conflict', 'BadGateway'],
    handler: async ({ vendor, app, body }) => ({
      data: await service.createIntegration(ctx, vendor.id, app.id, body),
    }),
  }),
  route({
    method: 'PUT',
    url,
    summary: "Update the app's Slack app: bot name and presence (Slack's apps.manifest.update)",
    tags,
    access: byPath,
    params: slackIntegrationPath,
    resource: 'App',
    body: slackIntegrationBody,
    response: dataEnvelopeSchema(slackIntegrationSchema),
    errors: ['BadRequest', 'BadGateway'],
    handler: async ({ vendor, app, body }) => ({
      data: await service.updateIntegration(ctx, vendor.id, app.id, body),
    }),
  }),
  route({
    method: 'GET',
    url: SLACK_OAUTH_CALLBACK_PATH,
    summary: "Slack's OAuth redirect: installs the bot (oauth.v2.access) and answers an HTML result page",
    tags,
    access: { auth: 'none' },
    rateLimit: { bucket: 'slack:oauth', per: 'address', limit: 30, windowSeconds: 60 },
    query: z.object({ code: redirectValue, state: redirectValue, error: redirectValue }),
    status: 200,
    response: z
      .string()
      .describe('The result page (text/html), also with status 400 when the install failed'),
    mediaTypes: { 'text/html': [200, 400] },
    handler: async ({ query, reply }) => {
      const outcome = await service.completeInstall(ctx, query);
      return reply
        .code(outcome.ok ? 200 : 400)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(installPage(outcome));
    },
  }),
  route({
    method: 'POST',
    url: `${SLACK_EVENTS_PATH}/:appId`,
    summary: "Slack's Events API for one app: signed (X-Slack-Signature v0), mentions and direct messages",
    tags,
    access: { auth: 'none' },
    rawBody: true,
    params: z.object({ appId: idParam }),
    resource: 'App',
    response: z.union([z.object({ challenge: z.string() }), z.object({ ok: z.literal(true) })]),
    errors: ['BadRequest', 'Unauthorized'],
    handler: ({ params, request }) =>
      receiveEvent(ctx, params.appId, {
        rawBody: request.rawBody,
        body: request.body,
        timestamp: request.headers['x-slack-request-timestamp'],
        signature: request.headers['x-slack-signature'],
      }),
  }),
];
