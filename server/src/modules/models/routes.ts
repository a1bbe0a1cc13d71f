import {
  availableModelsQuery,
  idParam,
  installModelBody,
  modelKeyParam,
  modelSearchQuery,
  modelsListQuery,
} from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { parse, parsePath } from '../../platform/validate';
import { requireVendor } from '../vendors/service';
import {
  getInstalled,
  installModel,
  listAvailable,
  listInstalled,
  pickInstalled,
  removeInstalled,
} from './service';

const vendorPath = z.object({ vendorId: idParam });
const installPath = vendorPath.extend({ modelId: modelKeyParam });
const modelPath = vendorPath.extend({ id: idParam });

/** Models: the catalogue, install, and the vendor's installed models. Shapes: contracts/src/http/models.ts. */
export function registerModelRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/vendors/:vendorId/avamodels/available', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const query = parse(availableModelsQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return listAvailable(vendor, query);
  });

  app.post('/v1/vendors/:vendorId/avamodels/:modelId/install', async (request, reply) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const vendor = await requireVendor(ctx, auth, vendorId);
    const { modelId } = parsePath(installPath, request.params, 'Model');
    const body = parse(installModelBody, request.body ?? {});
    const data = await installModel(ctx, vendor, auth.user.id, modelId, body.parameters);
    reply.code(201);
    return { data };
  });

  app.get('/v1/vendors/:vendorId/models', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const query = parse(modelsListQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return listInstalled(ctx, vendor, query);
  });

  app.get('/v1/vendors/:vendorId/models/search', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const query = parse(modelSearchQuery, request.query);
    const vendor = await requireVendor(ctx, auth, vendorId);
    return pickInstalled(ctx, vendor, query);
  });

  app.get('/v1/vendors/:vendorId/models/:id', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const vendor = await requireVendor(ctx, auth, vendorId);
    const { id } = parsePath(modelPath, request.params, 'Model');
    return { data: await getInstalled(ctx, vendor, id) };
  });

  app.delete('/v1/vendors/:vendorId/models/:id', async (request, reply) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const vendor = await requireVendor(ctx, auth, vendorId);
    const { id } = parsePath(modelPath, request.params, 'Model');
    await removeInstalled(ctx, vendor, id);
    reply.code(204).send();
  });
}
