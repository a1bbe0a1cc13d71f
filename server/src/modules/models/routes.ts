import {
  availableModelSchema,
  availableModelsQuery,
  dataEnvelopeSchema,
  idParam,
  installedModelDetailSchema,
  installedModelSchema,
  installModelBody,
  listEnvelopeSchema,
  modelKeyParam,
  modelSearchQuery,
  modelsListQuery,
  providerModelsBody,
  providerModelsSchema,
  vendorModelPicksSchema,
  vendorPath,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { listProviderModels } from './provider-models';
import {
  getInstalled,
  installModel,
  listAvailable,
  listInstalled,
  pickInstalled,
  removeInstalled,
} from './service';

const installPath = vendorPath.extend({ modelId: modelKeyParam });
const modelPath = vendorPath.extend({ id: idParam });
const tags = ['models'];
const access = { auth: 'user', vendor: 'path' } as const;

/** Models: the catalogue, install, and the vendor's installed models. Shapes: contracts/src/http/models.ts. */
export const modelRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/avamodels/available',
    summary: 'The catalogue of installable models',
    tags,
    access,
    params: vendorPath,
    query: availableModelsQuery,
    response: listEnvelopeSchema(availableModelSchema),
    handler: ({ vendor, query }) => listAvailable(vendor, query),
  }),
  route({
    method: 'POST',
    url: '/v1/vendors/:vendorId/avamodels/:modelId/install',
    summary: 'Install a model with parameters checked against its schema (code 52 re-renders the form)',
    tags,
    access,
    params: installPath,
    resource: 'Model',
    body: installModelBody,
    status: 201,
    response: dataEnvelopeSchema(installedModelDetailSchema),
    handler: async ({ vendor, identity, params, body }) => ({
      data: await installModel(ctx, vendor, {
        modelKey: params.modelId,
        parameters: body.parameters,
        userId: identity.user.id,
      }),
    }),
  }),
  route({
    method: 'POST',
    url: '/v1/vendors/:vendorId/avamodels/:modelId/provider-models',
    summary: 'The models the provider’s server lists, from the install parameters typed so far (ADR 0039)',
    tags,
    access,
    // Each call makes an outbound request.
    rateLimit: { bucket: 'models:provider-models', per: 'caller', limit: 60, windowSeconds: 60 },
    params: installPath,
    resource: 'Model',
    body: providerModelsBody,
    response: providerModelsSchema,
    errors: ['BadRequest', 'BadGateway', 'GatewayTimeout'],
    handler: ({ params, body }) => listProviderModels(ctx, params.modelId, body.parameters),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/models',
    summary: 'Installed models (search, type filter, sort, paging)',
    tags,
    access,
    params: vendorPath,
    query: modelsListQuery,
    response: listEnvelopeSchema(installedModelSchema),
    handler: ({ vendor, query }) => listInstalled(ctx, vendor, query),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/models/search',
    summary: 'Installed models for a picker (at most 20, by name)',
    tags,
    access,
    params: vendorPath,
    query: modelSearchQuery,
    response: vendorModelPicksSchema,
    handler: ({ vendor, query }) => pickInstalled(ctx, vendor, query),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/models/:id',
    summary: 'One installed model',
    tags,
    access,
    params: modelPath,
    resource: 'Model',
    response: dataEnvelopeSchema(installedModelDetailSchema),
    handler: async ({ vendor, params }) => ({ data: await getInstalled(ctx, vendor, params.id) }),
  }),
  route({
    method: 'DELETE',
    url: '/v1/vendors/:vendorId/models/:id',
    summary: 'Remove an installed model',
    tags,
    access,
    params: modelPath,
    resource: 'Model',
    handler: ({ vendor, params }) => removeInstalled(ctx, vendor, params.id),
  }),
];
