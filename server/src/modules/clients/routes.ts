import {
  apiClientCreatedSchema,
  apiClientSchema,
  clientBody,
  clientPath,
  clientsPath,
  clientsQuery,
  dataEnvelopeSchema,
  listEnvelopeSchema,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import * as service from './service';

const tags = ['clients'];
const access = { auth: 'user', vendor: 'path', app: 'path' } as const;

/** An app's API clients (docs/reference/api.md "Reaching an app from outside"; contracts/src/http/clients.ts). */
export const clientRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps/:appId/clients',
    summary: "The app's API clients (order: last_used, requets_count, created_at; default created_at desc)",
    tags,
    access,
    params: clientsPath,
    resource: 'App',
    query: clientsQuery,
    response: listEnvelopeSchema(apiClientSchema),
    handler: ({ vendor, app, query }) => service.listClients(ctx, vendor.id, app.id, query),
  }),
  route({
    method: 'POST',
    url: '/v1/vendors/:vendorId/apps/:appId/clients',
    summary: 'Create an API client; the answer carries its full token, shown this once',
    tags,
    access,
    params: clientsPath,
    resource: 'App',
    body: clientBody,
    status: 201,
    response: dataEnvelopeSchema(apiClientCreatedSchema),
    handler: async ({ identity, vendor, app, body }) => ({
      data: await service.createClient(ctx, vendor.id, app.id, identity.user.id, body),
    }),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps/:appId/clients/:clientId',
    summary: 'One API client (its token as the last 8 characters)',
    tags,
    access,
    params: clientPath,
    resource: 'Client',
    response: dataEnvelopeSchema(apiClientSchema),
    handler: async ({ vendor, app, params }) => ({
      data: await service.getClient(ctx, vendor.id, app.id, params.clientId),
    }),
  }),
  route({
    method: 'PUT',
    url: '/v1/vendors/:vendorId/apps/:appId/clients/:clientId',
    summary: 'Rename, (de)activate or rate-limit an API client',
    tags,
    access,
    params: clientPath,
    resource: 'Client',
    body: clientBody,
    response: dataEnvelopeSchema(apiClientSchema),
    handler: async ({ vendor, app, params, body }) => ({
      data: await service.updateClient(ctx, vendor.id, app.id, params.clientId, body),
    }),
  }),
];
