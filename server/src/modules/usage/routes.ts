import { usageQuery, usageResponseSchema, vendorPath } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { getUsage } from './service';

/** Usage of the vendor or one app over today / 7 / 30 days / total. Shapes: contracts/src/http/usage.ts. */
export const usageRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId/usage',
    summary: 'Requests, tokens and cost of the vendor or one app, per period',
    tags: ['usage'],
    access: { auth: 'user', vendor: 'path' },
    params: vendorPath,
    query: usageQuery,
    response: usageResponseSchema,
    handler: async ({ vendor, query }) => ({ data: await getUsage(ctx, vendor, query) }),
  }),
];
