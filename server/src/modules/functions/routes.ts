import {
  functionBuildBody,
  functionCodeBody,
  functionCreateBody,
  functionPath,
  functionRunPath,
  functionRunsQuery,
  functionsListQuery,
  functionUpdateBody,
  idParam,
} from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { tooManyRequests } from '../../platform/errors';
import { parse, parsePath } from '../../platform/validate';
import { requireVendor } from '../vendors/service';
import * as service from './service';

const vendorPath = z.object({ vendorId: idParam });

/** Calls that run Lua (build, and saves that load code for its schemas), per user and minute. */
export const SANDBOX_CALLS_PER_MINUTE = 120;

async function limitSandbox(ctx: AppContext, userId: number): Promise<void> {
  const hit = await ctx.rateLimiter.hit(`functions:sandbox:${userId}`, SANDBOX_CALLS_PER_MINUTE, 60);
  if (!hit.allowed) throw tooManyRequests(hit.retryAfter);
}

/** Calls documented in contracts/src/http/functions.ts. */
export function registerFunctionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const base = '/v1/vendors/:vendorId/functions';

  app.get(base, async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const query = parse(functionsListQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return service.listFunctions(ctx, vendor.id, query);
  });

  app.post(base, async (request, reply) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const body = parse(functionCreateBody, request.body);
    await limitSandbox(ctx, auth.user.id);
    const vendor = await requireVendor(ctx, auth, vendorId);
    const created = await service.createFunction(ctx, vendor.id, auth.user.id, body);
    reply.code(201);
    return created;
  });

  app.get(`${base}/:functionId`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const vendor = await requireVendor(ctx, auth, vendorId);
    return { data: await service.getFunction(ctx, vendor.id, functionId) };
  });

  app.put(`${base}/:functionId`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const body = parse(functionUpdateBody, request.body);
    await limitSandbox(ctx, auth.user.id);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return service.updateFunction(ctx, vendor.id, functionId, body);
  });

  app.put(`${base}/:functionId/code`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const body = parse(functionCodeBody, request.body);
    await limitSandbox(ctx, auth.user.id);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return service.saveCode(ctx, vendor.id, functionId, body.code);
  });

  app.delete(`${base}/:functionId`, async (request, reply) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const vendor = await requireVendor(ctx, auth, vendorId);
    await service.deleteFunction(ctx, vendor.id, functionId);
    return reply.code(204).send();
  });

  app.post(`${base}/:functionId/build`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const body = parse(functionBuildBody, request.body);
    await limitSandbox(ctx, auth.user.id);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return service.buildFunction(ctx, vendor.id, functionId, body);
  });

  app.get(`${base}/:functionId/runs`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const query = parse(functionRunsQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return service.listRuns(ctx, vendor.id, functionId, query);
  });

  app.get(`${base}/:functionId/runs/stats`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId } = parsePath(functionPath, request.params, 'Function');
    const vendor = await requireVendor(ctx, auth, vendorId);
    return { data: await service.runStats(ctx, vendor.id, functionId) };
  });

  app.get(`${base}/:functionId/runs/:runId`, async (request) => {
    const auth = requireUser(request);
    const { vendorId, functionId, runId } = parsePath(functionRunPath, request.params, 'Run');
    const vendor = await requireVendor(ctx, auth, vendorId);
    return { data: await service.getRun(ctx, vendor.id, functionId, runId) };
  });
}
