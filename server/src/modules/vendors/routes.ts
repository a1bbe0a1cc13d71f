import { idParam } from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { parsePath } from '../../platform/validate';
import { listVendorsOf, presentVendor, requireVendor } from './service';

const vendorPath = z.object({ id: idParam });

export function registerVendorRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/vendors', async (request) => {
    const auth = requireUser(request);
    const rows = await listVendorsOf(ctx, auth);
    return { data: rows.map(presentVendor), total_count: rows.length, filter_count: rows.length };
  });

  app.get('/v1/vendors/:id', async (request) => {
    const auth = requireUser(request);
    const { id } = parsePath(vendorPath, request.params, 'Vendor');
    return { data: presentVendor(await requireVendor(ctx, auth, id)) };
  });
}
