import {
  dataEnvelopeSchema,
  embedAppPath,
  embedBody,
  embedCodeSchema,
  embedPath,
  embedSchema,
  embedsQuery,
  embedUpdateBody,
  listEnvelopeSchema,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import * as service from './service';

const tags = ['embeds'];
const access = { auth: 'user', vendor: 'path', app: 'path' } as const;
const base = '/v1/vendors/:vendorId/apps/:appId/embed';

/** An app's web embeds (docs/reference/api.md "Reaching an app from outside"; contracts/src/http/embeds.ts). */
export const embedRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: base,
    summary: "The app's web embeds (tokens masked; sortable by name and created_at)",
    tags,
    access,
    params: embedAppPath,
    resource: 'App',
    query: embedsQuery,
    response: listEnvelopeSchema(embedSchema),
    handler: ({ vendor, app, query }) => service.listEmbeds(ctx, vendor.id, app.id, query),
  }),
  route({
    method: 'POST',
    url: base,
    summary: 'Create a web embed (the answer carries its token in full, this once)',
    tags,
    access,
    params: embedAppPath,
    resource: 'App',
    body: embedBody,
    status: 201,
    response: dataEnvelopeSchema(embedSchema),
    handler: async ({ identity, vendor, app, body }) => ({
      data: await service.createEmbed(ctx, vendor.id, app.id, identity.user.id, body),
    }),
  }),
  route({
    method: 'GET',
    url: `${base}/:embedId`,
    summary: 'One web embed (token masked)',
    tags,
    access,
    params: embedPath,
    resource: 'Embed',
    response: dataEnvelopeSchema(embedSchema),
    handler: async ({ vendor, app, params }) => ({
      data: await service.getEmbed(ctx, vendor.id, app.id, params.embedId),
    }),
  }),
  route({
    method: 'PUT',
    url: `${base}/:embedId`,
    summary: "Change an embed's name, allowed origins or look",
    tags,
    access,
    params: embedPath,
    resource: 'Embed',
    body: embedUpdateBody,
    response: dataEnvelopeSchema(embedSchema),
    handler: async ({ vendor, app, params, body }) => ({
      data: await service.updateEmbed(ctx, vendor.id, app.id, params.embedId, body),
    }),
  }),
  route({
    method: 'DELETE',
    url: `${base}/:embedId`,
    summary: 'Delete a web embed (its script answers 404 from then on)',
    tags,
    access,
    params: embedPath,
    resource: 'Embed',
    handler: ({ vendor, app, params }) => service.deleteEmbed(ctx, vendor.id, app.id, params.embedId),
  }),
  route({
    method: 'GET',
    url: `${base}/:embedId/code`,
    summary: "The embed's token in full and its script's URL (for copying the token and the embed code)",
    tags,
    access,
    params: embedPath,
    resource: 'Embed',
    response: dataEnvelopeSchema(embedCodeSchema),
    handler: async ({ vendor, app, params }) => ({
      data: await service.embedCode(ctx, vendor.id, app.id, params.embedId, ctx.publicUrl),
    }),
  }),
];
