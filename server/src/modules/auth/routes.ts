import {
  dataEnvelopeSchema,
  invitationAcceptBody,
  linkInfoSchema,
  linkTokenParam,
  messageResponseSchema,
  PASSWORD_FORGOT_ANSWER,
  passwordForgotBody,
  passwordResetBody,
  sessionCreatedSchema,
  sessionUserSchema,
  signinBody,
  userSchema,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { requestOrigin, route } from '../../platform/http/route';
import { linkInfo, useLink } from './links';
import { presentUser } from './present';
import { createSession, forgotPassword, sessionUser, signin, signout } from './service';
import type { SessionVerifier } from './sessions';

export const authRoutes = (ctx: AppContext, sessions: SessionVerifier) => [
  route({
    method: 'POST',
    url: '/v1/auth/session',
    summary: 'Open a session (the token and secret that sign every other call)',
    tags: ['auth'],
    access: { auth: 'none' },
    status: 201,
    response: sessionCreatedSchema,
    handler: () => createSession(ctx),
  }),
  route({
    method: 'GET',
    url: '/v1/auth/session/user',
    summary: 'The session: app settings, the signed-in user and the selected vendor',
    tags: ['auth'],
    access: { auth: 'session' },
    response: sessionUserSchema,
    handler: ({ identity, request }) => {
      const vendorKey = request.headers['x-vendor'];
      return sessionUser(ctx, identity, typeof vendorKey === 'string' ? vendorKey : undefined);
    },
  }),
  route({
    method: 'POST',
    url: '/v1/auth/signin',
    summary: 'Sign the session in with email and password',
    tags: ['auth'],
    access: { auth: 'session' },
    body: signinBody,
    response: dataEnvelopeSchema(userSchema),
    errors: ['Forbidden', 'TooManyRequests'],
    handler: async ({ identity, body, request }) => ({
      data: presentUser(await signin(ctx, sessions, identity, body, request.ip)),
    }),
  }),
  route({
    method: 'POST',
    url: '/v1/auth/signout',
    summary: 'Sign out and delete the session',
    tags: ['auth'],
    access: { auth: 'session' },
    handler: ({ identity }) => signout(ctx, sessions, identity),
  }),
  route({
    method: 'GET',
    url: '/v1/auth/links/:token',
    summary: 'What an invitation or password-reset link is for',
    tags: ['auth'],
    access: { auth: 'session' },
    rateLimit: { bucket: 'auth:links', per: 'address', limit: 60, windowSeconds: 900 },
    params: linkTokenParam,
    response: dataEnvelopeSchema(linkInfoSchema),
    errors: ['BadRequest'],
    handler: async ({ params }) => ({ data: await linkInfo(ctx, params.token) }),
  }),
  route({
    method: 'POST',
    url: '/v1/auth/invitations/accept',
    summary: 'Accept an invitation: set the password and sign the session in',
    tags: ['auth'],
    access: { auth: 'session' },
    rateLimit: { bucket: 'auth:links', per: 'address', limit: 60, windowSeconds: 900 },
    body: invitationAcceptBody,
    response: dataEnvelopeSchema(userSchema),
    errors: ['BadRequest'],
    handler: async ({ identity, body }) => ({
      data: presentUser(await useLink(ctx, sessions, identity, 'invite', body)),
    }),
  }),
  route({
    method: 'POST',
    url: '/v1/auth/password/forgot',
    summary: 'Mail a password-reset link (the same answer whether or not the address exists)',
    tags: ['auth'],
    access: { auth: 'session' },
    rateLimit: { bucket: 'auth:forgot', per: 'address', limit: 10, windowSeconds: 900 },
    body: passwordForgotBody,
    status: 202,
    response: messageResponseSchema,
    handler: ({ body, request }) => {
      // In the background: the answer's timing must not tell whether the address has an account.
      forgotPassword(ctx, body.email, requestOrigin(request)).catch((err: unknown) =>
        ctx.log.error({ err }, 'password reset failed'),
      );
      return { message: PASSWORD_FORGOT_ANSWER };
    },
  }),
  route({
    method: 'POST',
    url: '/v1/auth/password/reset',
    summary: 'Choose a new password with a reset link and sign the session in',
    tags: ['auth'],
    access: { auth: 'session' },
    rateLimit: { bucket: 'auth:links', per: 'address', limit: 60, windowSeconds: 900 },
    body: passwordResetBody,
    response: dataEnvelopeSchema(userSchema),
    errors: ['BadRequest'],
    handler: async ({ identity, body }) => ({
      data: presentUser(await useLink(ctx, sessions, identity, 'reset', body)),
    }),
  }),
];
