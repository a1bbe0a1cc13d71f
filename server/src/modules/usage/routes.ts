import { idParam, usageQuery } from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireUser } from '../../platform/auth';
import type { AppContext } from '../../platform/context';
import { parse, parsePath } from '../../platform/validate';
import { requireVendor } from '../vendors/service';
import { getUsage } from './service';

const vendorPath = z.object({ vendorId: idParam });

/** Usage of the vendor or one app over today / 7 / 30 days / total. Shapes: contracts/src/http/usage.ts. */
export function registerUsageRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/v1/vendors/:vendorId/usage', async (request) => {
    const auth = requireUser(request);
    const { vendorId } = parsePath(vendorPath, request.params, 'Vendor');
    const vendor = await requireVendor(ctx, auth, vendorId);
    const query = parse(usageQuery, request.query);
    return { data: await getUsage(ctx, vendor, query) };
  });
}
