import {
  dataEnvelopeSchema,
  functionBuildBody,
  functionBuildResponseSchema,
  functionCodeBody,
  functionCreateBody,
  functionDetailSchema,
  functionPath,
  functionRunDetailSchema,
  functionRunPath,
  functionRunStatsSchema,
  functionRunsListSchema,
  functionRunsQuery,
  functionSavedSchema,
  functionsListQuery,
  functionsListSchema,
  functionUpdateBody,
  vendorPath,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { type RateLimit, route } from '../../platform/http/route';
import { requestTrace } from '../../platform/tracing';
import * as service from './service';

const base = '/v1/vendors/:vendorId/functions';
const tags = ['functions'];
const access = { auth: 'user', vendor: 'path' } as const;

/** Calls that run Lua (build, and saves that load code for its schemas), per user and minute. */
export const SANDBOX_CALLS_PER_MINUTE = 120;
const sandboxLimit: RateLimit = {
  bucket: 'functions:sandbox',
  per: 'caller',
  limit: SANDBOX_CALLS_PER_MINUTE,
  windowSeconds: 60,
};

/** Calls documented in contracts/src/http/functions.ts. */
export const functionRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: base,
    summary: 'Functions of the vendor (search, sort, paging)',
    tags,
    access,
    params: vendorPath,
    query: functionsListQuery,
    response: functionsListSchema,
    handler: ({ vendor, query }) => service.listFunctions(ctx, vendor.id, query),
  }),
  route({
    method: 'POST',
    url: base,
    summary: 'Create a function',
    tags,
    access,
    rateLimit: sandboxLimit,
    params: vendorPath,
    body: functionCreateBody,
    status: 201,
    response: functionSavedSchema,
    errors: ['Conflict'],
    handler: ({ vendor, identity, body }) => service.createFunction(ctx, vendor.id, identity.user.id, body),
  }),
  route({
    method: 'GET',
    url: `${base}/:functionId`,
    summary: 'One function with its code and schemas',
    tags,
    access,
    params: functionPath,
    resource: 'Function',
    response: dataEnvelopeSchema(functionDetailSchema),
    handler: async ({ vendor, params }) => ({
      data: await service.getFunction(ctx, vendor.id, params.functionId),
    }),
  }),
  route({
    method: 'PUT',
    url: `${base}/:functionId`,
    summary: "Update a function's details",
    tags,
    access,
    rateLimit: sandboxLimit,
    params: functionPath,
    resource: 'Function',
    body: functionUpdateBody,
    response: functionSavedSchema,
    errors: ['Conflict'],
    handler: ({ vendor, params, body }) => service.updateFunction(ctx, vendor.id, params.functionId, body),
  }),
  route({
    method: 'PUT',
    url: `${base}/:functionId/code`,
    summary: "Save a function's code (its schemas are read from it)",
    tags,
    access,
    rateLimit: sandboxLimit,
    params: functionPath,
    resource: 'Function',
    body: functionCodeBody,
    response: functionSavedSchema,
    handler: ({ vendor, params, body }) => service.saveCode(ctx, vendor.id, params.functionId, body.code),
  }),
  route({
    method: 'DELETE',
    url: `${base}/:functionId`,
    summary: 'Delete a function',
    tags,
    access,
    params: functionPath,
    resource: 'Function',
    handler: ({ vendor, params }) => service.deleteFunction(ctx, vendor.id, params.functionId),
  }),
  route({
    method: 'POST',
    url: `${base}/:functionId/build`,
    summary: 'Run code in the sandbox with arguments and config (stored as a run)',
    tags,
    access,
    rateLimit: sandboxLimit,
    params: functionPath,
    resource: 'Function',
    body: functionBuildBody,
    response: functionBuildResponseSchema,
    handler: ({ vendor, params, body, request }) =>
      service.buildFunction(ctx, vendor.id, params.functionId, body, requestTrace(request)),
  }),
  route({
    method: 'GET',
    url: `${base}/:functionId/runs`,
    summary: "A function's runs (paging, status filter)",
    tags,
    access,
    params: functionPath,
    resource: 'Function',
    query: functionRunsQuery,
    response: functionRunsListSchema,
    handler: ({ vendor, params, query }) => service.listRuns(ctx, vendor.id, params.functionId, query),
  }),
  route({
    method: 'GET',
    url: `${base}/:functionId/runs/stats`,
    summary: "A function's run statistics",
    tags,
    access,
    params: functionPath,
    resource: 'Function',
    response: dataEnvelopeSchema(functionRunStatsSchema),
    handler: async ({ vendor, params }) => ({
      data: await service.runStats(ctx, vendor.id, params.functionId),
    }),
  }),
  route({
    method: 'GET',
    url: `${base}/:functionId/runs/:runId`,
    summary: 'One run with its console',
    tags,
    access,
    params: functionRunPath,
    resource: 'Run',
    response: dataEnvelopeSchema(functionRunDetailSchema),
    handler: async ({ vendor, params }) => ({
      data: await service.getRun(ctx, vendor.id, params.functionId, params.runId),
    }),
  }),
];
