import {
  dataEnvelopeSchema,
  idParam,
  listEnvelopeSchema,
  memberInviteBody,
  memberInvitedSchema,
  memberSchema,
  membersQuery,
  memberUpdateBody,
} from '@llmor/contracts';
import { z } from 'zod';
import { requestOrigin, route } from '../../platform/http/route';
import {
  inviteMember,
  listVendorMembers,
  type MembersContext,
  presentMember,
  removeMember,
  requireMember,
  resendInvitation,
  updateMember,
} from './service';

const vendorPath = z.object({ vendorId: idParam });
const memberPath = vendorPath.extend({ userId: idParam });
const base = '/v1/vendors/:vendorId/users';
const tags = ['members'];
const access = { auth: 'user', vendor: 'path', role: 'owner' } as const;

/** A vendor's people (owners only; members get 404). Shapes: contracts/src/http/organisations.ts. */
export const memberRoutes = (ctx: MembersContext) => [
  route({
    method: 'GET',
    url: base,
    summary: "The vendor's members (search, sort, paging)",
    tags,
    access,
    params: vendorPath,
    query: membersQuery,
    response: listEnvelopeSchema(memberSchema),
    handler: ({ vendor, query }) => listVendorMembers(ctx, vendor.id, query),
  }),
  route({
    method: 'POST',
    url: base,
    summary: 'Invite a person (mailed, or the link answered once when no mail server is set up)',
    tags,
    access,
    rateLimit: { bucket: 'members:invite', per: 'caller', limit: 30, windowSeconds: 3600 },
    params: vendorPath,
    body: memberInviteBody,
    status: 201,
    response: memberInvitedSchema,
    errors: ['Conflict'],
    handler: ({ vendor, identity, body, request }) =>
      inviteMember(ctx, vendor, identity.user.id, body, requestOrigin(request)),
  }),
  route({
    method: 'GET',
    url: `${base}/:userId`,
    summary: 'One member',
    tags,
    access,
    params: memberPath,
    resource: 'User',
    response: dataEnvelopeSchema(memberSchema),
    handler: async ({ vendor, params }) => ({
      data: presentMember(await requireMember(ctx, vendor.id, params.userId)),
    }),
  }),
  route({
    method: 'PUT',
    url: `${base}/:userId`,
    summary: "Change a member's names, role or whether they may act in the vendor",
    tags,
    access,
    params: memberPath,
    resource: 'User',
    body: memberUpdateBody,
    response: dataEnvelopeSchema(memberSchema),
    errors: ['Conflict'],
    handler: async ({ vendor, params, body }) => ({
      data: await updateMember(ctx, vendor.id, params.userId, body),
    }),
  }),
  route({
    method: 'DELETE',
    url: `${base}/:userId`,
    summary: 'Remove a member from the vendor',
    tags,
    access,
    params: memberPath,
    resource: 'User',
    errors: ['Conflict'],
    handler: ({ vendor, params }) => removeMember(ctx, vendor.id, params.userId),
  }),
  route({
    method: 'POST',
    url: `${base}/:userId/invitation`,
    summary: 'Send a new invitation link (the earlier one stops working)',
    tags,
    access,
    rateLimit: { bucket: 'members:invite', per: 'caller', limit: 30, windowSeconds: 3600 },
    params: memberPath,
    resource: 'User',
    response: memberInvitedSchema,
    errors: ['Conflict'],
    handler: ({ vendor, identity, params, request }) =>
      resendInvitation(ctx, vendor, identity.user.id, params.userId, requestOrigin(request)),
  }),
];
