import {
  adminVendorCreateBody,
  adminVendorCreatedSchema,
  adminVendorSchema,
  adminVendorsQuery,
  adminVendorUpdateBody,
  dataEnvelopeSchema,
  listEnvelopeSchema,
  vendorPath,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { createVendor, editVendor, getVendor, listVendors } from './service';

const tags = ['admin'];
const access = { auth: 'superuser' } as const;

/**
 * Vendors as the superuser manages them (anyone else: 404). Shapes: contracts/src/http/organisations.ts.
 * A vendor's subscriptions are billing's (modules/billing/routes.ts).
 */
export const adminRoutes = (ctx: AppContext) => [
  route({
    method: 'GET',
    url: '/v1/admin/vendors',
    summary: 'Every vendor with member and app counts (search, sort, paging)',
    tags,
    access,
    query: adminVendorsQuery,
    response: listEnvelopeSchema(adminVendorSchema),
    handler: ({ query }) => listVendors(ctx, query),
  }),
  route({
    method: 'POST',
    url: '/v1/admin/vendors',
    summary: 'Create a vendor and invite its owner',
    tags,
    access,
    body: adminVendorCreateBody,
    status: 201,
    response: adminVendorCreatedSchema,
    errors: ['Conflict'],
    handler: ({ identity, body }) => createVendor(ctx, identity.user.id, body),
  }),
  route({
    method: 'GET',
    url: '/v1/admin/vendors/:vendorId',
    summary: 'One vendor',
    tags,
    access,
    params: vendorPath,
    resource: 'Vendor',
    response: dataEnvelopeSchema(adminVendorSchema),
    handler: async ({ params }) => ({ data: await getVendor(ctx, params.vendorId) }),
  }),
  route({
    method: 'PUT',
    url: '/v1/admin/vendors/:vendorId',
    summary: "Change a vendor's name, currency or whether it is active",
    tags,
    access,
    params: vendorPath,
    resource: 'Vendor',
    body: adminVendorUpdateBody,
    response: dataEnvelopeSchema(adminVendorSchema),
    handler: async ({ params, body }) => ({ data: await editVendor(ctx, params.vendorId, body) }),
  }),
];
