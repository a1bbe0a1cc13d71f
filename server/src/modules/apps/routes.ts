import {
  appGetQuery,
  appInstallBody,
  appParametersResponseSchema,
  appResponseSchema,
  appsListQuery,
  appsListSchema,
  appUpdateBody,
  availableAppsResponseSchema,
  type FieldErrors,
  idParam,
  vendorPath,
} from '@llmor/contracts';
import type { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { fieldErrors } from '../../platform/validate';
import * as service from './service';

const appPath = vendorPath.extend({ appId: idParam });
const tags = ['apps'];

/**
 * The update body's errors with the field keys for functions (docs/reference/rules.md): problems with the list or
 * an id go under `functions.functions_data`, a bad config under `function_config.<id>`.
 */
function appUpdateErrors(issues: readonly z.core.$ZodIssue[], body: unknown): FieldErrors {
  const errors: FieldErrors = {};
  const others: z.core.$ZodIssue[] = [];
  const functionsData: string[] = [];
  const functionConfig: Record<string, string> = {};
  for (const issue of issues) {
    if (issue.path[0] !== 'functions') {
      others.push(issue);
    } else if (issue.path.length >= 3 && issue.path[2] === 'config') {
      const index = Number(issue.path[1]);
      const item = (body as { functions: { id?: unknown }[] }).functions[index];
      const id = typeof item?.id === 'number' ? String(item.id) : `#${index}`;
      functionConfig[id] = issue.message;
    } else {
      functionsData.push(
        issue.path.length > 1 ? `Item ${Number(issue.path[1]) + 1}: ${issue.message}` : issue.message,
      );
    }
  }
  Object.assign(errors, fieldErrors(others));
  if (functionsData.length > 0)
    errors.functions = { functions_data: functionsData.length === 1 ? functionsData[0]! : functionsData };
  if (Object.keys(functionConfig).length > 0) errors.function_config = functionConfig;
  return errors;
}

/** Calls documented in contracts/src/http/apps.ts. */
export const appRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps',
    summary: 'Installed apps (search, type filter, sort, paging)',
    tags,
    access: { auth: 'user', vendor: 'path' },
    params: vendorPath,
    query: appsListQuery,
    response: appsListSchema,
    handler: ({ vendor, query }) => service.listApps(ctx, vendor.id, query),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps/available',
    summary: 'The catalogue of installable apps',
    tags,
    access: { auth: 'user', vendor: 'path' },
    params: vendorPath,
    response: availableAppsResponseSchema,
    handler: () => ({ data: service.availableApps() }),
  }),
  route({
    method: 'POST',
    url: '/v1/vendors/:vendorId/apps',
    summary: 'Install an app',
    tags,
    access: { auth: 'user', vendor: 'path' },
    params: vendorPath,
    body: appInstallBody,
    status: 201,
    response: appResponseSchema,
    handler: async ({ vendor, identity, body }) => ({
      data: await service.installApp(ctx, vendor.id, identity.user.id, body),
    }),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps/:appId',
    summary: 'One installed app',
    tags,
    access: { auth: 'user', vendor: 'path', app: 'path' },
    params: appPath,
    resource: 'App',
    query: appGetQuery,
    response: appResponseSchema,
    handler: async ({ app, query }) => ({
      data: await service.getApp(ctx, app, query.resolve),
    }),
  }),
  route({
    method: 'PUT',
    url: '/v1/vendors/:vendorId/apps/:appId',
    summary: 'Update an app: name, description, model, parameters, functions',
    tags,
    access: { auth: 'user', vendor: 'path', app: 'path' },
    params: appPath,
    resource: 'App',
    body: appUpdateBody,
    bodyErrors: appUpdateErrors,
    response: appResponseSchema,
    handler: async ({ vendor, app, body }) => ({
      data: await service.updateApp(ctx, vendor.id, app, body),
    }),
  }),
  route({
    method: 'DELETE',
    url: '/v1/vendors/:vendorId/apps/:appId',
    summary: 'Delete an app with its conversations',
    tags,
    access: { auth: 'user', vendor: 'path', app: 'path' },
    params: appPath,
    resource: 'App',
    handler: ({ vendor, app }) => service.deleteApp(ctx, vendor.id, app.id),
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/apps/:appId/parameters',
    summary: "The app's parameter definitions (the Configuration form)",
    tags,
    access: { auth: 'user', vendor: 'path', app: 'path' },
    params: appPath,
    resource: 'App',
    response: appParametersResponseSchema,
    handler: async ({ app }) => ({
      data: service.parameterDefinitions(app),
    }),
  }),
];
