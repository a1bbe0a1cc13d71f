import { dataEnvelopeSchema, listEnvelopeSchema, vendorSchema } from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { presentVendorFor } from './present';
import { listVendorsOf } from './service';

export const vendorRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/vendors',
    summary: 'Vendors the signed-in user may act in',
    tags: ['vendors'],
    access: { auth: 'user' },
    response: listEnvelopeSchema(vendorSchema),
    handler: async ({ identity }) => {
      const rows = await listVendorsOf(ctx, identity);
      return {
        data: rows.map((row) => presentVendorFor(row, identity)),
        total_count: rows.length,
        filter_count: rows.length,
      };
    },
  }),
  route({
    method: 'GET',
    url: '/v1/vendors/:vendorId',
    summary: 'One vendor',
    tags: ['vendors'],
    access: { auth: 'user', vendor: 'path' },
    response: dataEnvelopeSchema(vendorSchema),
    handler: ({ vendor, identity }) => ({ data: presentVendorFor(vendor, identity) }),
  }),
];
