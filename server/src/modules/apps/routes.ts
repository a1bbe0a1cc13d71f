import {
  appGetQuery,
  appInstallBody,
  appsListQuery,
  appUpdateBody,
  type FieldErrors,
  idParam,
} from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { validationError } from '../../platform/errors';
import { fieldErrors, parse, parsePath } from '../../platform/validate';
import { requireVendor } from '../vendors/service';
import * as service from './service';

const vendorPath = z.object({ vendorId: idParam });
const appPath = z.object({ vendorId: idParam, appId: idParam });

/**
 * The update body with the spec's error keys for functions (spec 02 §5): problems with the list or an
 * id go under `functions.functions_data`, a bad config under `function_config.<id>`.
 */
function parseUpdateBody(body: unknown) {
  const result = appUpdateBody.safeParse(body);
  if (result.success) return result.data;
  const errors: FieldErrors = {};
  const others: z.core.$ZodIssue[] = [];
  const functionsData: string[] = [];
  const functionConfig: Record<string, string> = {};
  for (const issue of result.error.issues) {
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
  throw validationError(errors);
}

export function registerAppRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/vendors/:vendorId/apps', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const query = parse(appsListQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return service.listApps(ctx, vendor.id, query);
  });

  app.get('/v1/vendors/:vendorId/apps/available', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    await requireVendor(ctx, auth, vendorId);
    return { data: service.availableApps() };
  });

  app.post('/v1/vendors/:vendorId/apps', async (request, reply) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const body = parse(appInstallBody, request.body);
    const vendor = await requireVendor(ctx, auth, vendorId);
    const installed = await service.installApp(ctx, vendor.id, auth.user.id, body);
    reply.code(201);
    return { data: installed };
  });

  app.get('/v1/vendors/:vendorId/apps/:appId', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const { appId } = parsePath(appPath, request.params, 'App');
    const query = parse(appGetQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return { data: await service.getApp(ctx, vendor.id, appId, query.resolve) };
  });

  app.put('/v1/vendors/:vendorId/apps/:appId', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const { appId } = parsePath(appPath, request.params, 'App');
    const body = parseUpdateBody(request.body);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return { data: await service.updateApp(ctx, vendor.id, appId, body) };
  });

  app.delete('/v1/vendors/:vendorId/apps/:appId', async (request, reply) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const { appId } = parsePath(appPath, request.params, 'App');
    const vendor = await requireVendor(ctx, auth, vendorId);
    await service.deleteApp(ctx, vendor.id, appId);
    return reply.code(204).send();
  });

  app.get('/v1/vendors/:vendorId/apps/:appId/parameters', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const { appId } = parsePath(appPath, request.params, 'App');
    const vendor = await requireVendor(ctx, auth, vendorId);
    return { data: await service.parameterDefinitions(ctx, vendor.id, appId) };
  });
}
