import {
  dataEnvelopeSchema,
  idParam,
  invitationAcceptBody,
  linkInfoSchema,
  linkTokenParam,
  listEnvelopeSchema,
  memberInviteBody,
  memberInvitedSchema,
  memberSchema,
  membersQuery,
  memberUpdateBody,
  pendingInvitationSchema,
  userSchema,
  vendorPath,
} from '@llmor/contracts';
import { z } from 'zod';
import { route } from '../../platform/http/route';
import { presentUser } from '../auth/present';
import {
  acceptInvitationLink,
  acceptOwnInvitation,
  declineOwnInvitation,
  linkInfo,
  listPendingInvitations,
} from './invitations';
import { presentMember } from './present';
import {
  inviteMember,
  listVendorMembers,
  type MembersContext,
  removeMember,
  requireMember,
  resendInvitation,
  updateMember,
} from './service';

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
    handler: ({ vendor, identity, body }) => inviteMember(ctx, vendor, identity.user.id, body),
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
    handler: ({ vendor, identity, params }) => resendInvitation(ctx, vendor, identity.user.id, params.userId),
  }),
  ...invitationRoutes(ctx),
];

const linkLimit = { bucket: 'auth:links', per: 'address', limit: 60, windowSeconds: 900 } as const;

/** Links (invitations and resets) and a person's own answers to invitations. */
const invitationRoutes = (ctx: MembersContext) => [
  route({
    method: 'GET',
    url: '/v1/auth/links/:token',
    summary: 'What an invitation or password-reset link is for, and what using it does',
    tags: ['auth'],
    access: { auth: 'session' },
    rateLimit: linkLimit,
    params: linkTokenParam,
    response: dataEnvelopeSchema(linkInfoSchema),
    errors: ['BadRequest'],
    handler: async ({ params }) => ({ data: await linkInfo(ctx, params.token) }),
  }),
  route({
    method: 'POST',
    url: '/v1/auth/invitations/accept',
    summary:
      'Accept an invitation: signed in as the invited person, or choosing the password of a new account',
    tags: ['auth'],
    access: { auth: 'session' },
    rateLimit: linkLimit,
    body: invitationAcceptBody,
    response: dataEnvelopeSchema(userSchema),
    errors: ['BadRequest'],
    handler: async ({ identity, body }) => ({
      data: presentUser(await acceptInvitationLink(ctx, identity, body)),
    }),
  }),
  route({
    method: 'GET',
    url: '/v1/account/invitations',
    summary: 'Your pending invitations',
    tags: ['account'],
    access: { auth: 'user' },
    response: dataEnvelopeSchema(z.array(pendingInvitationSchema)),
    handler: async ({ identity }) => ({ data: await listPendingInvitations(ctx, identity) }),
  }),
  route({
    method: 'POST',
    url: '/v1/account/invitations/:vendorId/accept',
    summary: 'Accept your invitation to a vendor',
    tags: ['account'],
    access: { auth: 'user' },
    params: vendorPath,
    resource: 'Invitation',
    response: dataEnvelopeSchema(pendingInvitationSchema),
    handler: async ({ identity, params }) => ({
      data: await acceptOwnInvitation(ctx, identity, params.vendorId),
    }),
  }),
  route({
    method: 'DELETE',
    url: '/v1/account/invitations/:vendorId',
    summary: 'Decline your invitation to a vendor',
    tags: ['account'],
    access: { auth: 'user' },
    params: vendorPath,
    resource: 'Invitation',
    handler: ({ identity, params }) => declineOwnInvitation(ctx, identity, params.vendorId),
  }),
];
