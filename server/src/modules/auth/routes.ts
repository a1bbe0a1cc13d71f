import {
  accountSessionSchema,
  accountUpdateBody,
  dataEnvelopeSchema,
  messageResponseSchema,
  PASSWORD_FORGOT_ANSWER,
  passwordChangeBody,
  passwordForgotBody,
  passwordResetBody,
  sessionCreatedSchema,
  sessionsEndedSchema,
  sessionUserSchema,
  signinBody,
  userSchema,
} from '@llmor/contracts';
import { z } from 'zod';
import type { AppContext } from '../../platform/context';
import { inRequestLocale } from '../../platform/http/locale';
import { route } from '../../platform/http/route';
import { presentUser } from './present';
import {
  changePassword,
  createSession,
  forgotPassword,
  listAccountSessions,
  resetPassword,
  sessionUser,
  signin,
  signOutOtherSessions,
  signout,
  updateAccount,
} from './service';
import type { SessionVerifier } from './sessions';

export const authRoutes = (ctx: AppContext, sessions: SessionVerifier) => [
  route({
    method: 'POST',
    url: '/v1/auth/session',
    summary: 'Open a session (the token and secret that sign every other call)',
    tags: ['auth'],
    access: { auth: 'none' },
    // Every session is a row: an address opens a bounded number an hour (a console opens one per sign-in).
    rateLimit: {
      bucket: 'auth:session',
      per: 'address',
      limit: (config) => config.SESSIONS_PER_ADDRESS_PER_HOUR,
      windowSeconds: 3600,
    },
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
      forgotPassword(ctx, body.email).catch((err: unknown) =>
        ctx.log.error({ err }, 'password reset failed'),
      );
      return { message: inRequestLocale(request, PASSWORD_FORGOT_ANSWER) };
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
      data: presentUser(await resetPassword(ctx, sessions, identity, body)),
    }),
  }),
  ...accountRoutes(ctx, sessions),
];

/** The signed-in person's own account: names, password and sessions are theirs alone. */
const accountRoutes = (ctx: AppContext, sessions: SessionVerifier) => [
  route({
    method: 'GET',
    url: '/v1/account',
    summary: 'The signed-in person',
    tags: ['account'],
    access: { auth: 'user' },
    response: dataEnvelopeSchema(userSchema),
    handler: ({ identity }) => ({ data: presentUser(identity.user) }),
  }),
  route({
    method: 'PUT',
    url: '/v1/account',
    summary: 'Change your names (shown in every vendor you belong to)',
    tags: ['account'],
    access: { auth: 'user' },
    body: accountUpdateBody,
    response: dataEnvelopeSchema(userSchema),
    handler: async ({ identity, body }) => ({
      data: presentUser(await updateAccount(ctx, sessions, identity, body)),
    }),
  }),
  route({
    method: 'POST',
    url: '/v1/account/password',
    summary: 'Change your password (every other session is signed out)',
    tags: ['account'],
    access: { auth: 'user' },
    rateLimit: { bucket: 'account:password', per: 'caller', limit: 10, windowSeconds: 900 },
    body: passwordChangeBody,
    response: sessionsEndedSchema,
    handler: async ({ identity, body }) => ({ ended: await changePassword(ctx, sessions, identity, body) }),
  }),
  route({
    method: 'GET',
    url: '/v1/account/sessions',
    summary: 'Your signed-in sessions, most recently used first',
    tags: ['account'],
    access: { auth: 'user' },
    response: dataEnvelopeSchema(z.array(accountSessionSchema)),
    handler: async ({ identity }) => ({ data: await listAccountSessions(ctx, identity) }),
  }),
  route({
    method: 'POST',
    url: '/v1/account/sessions/signout-others',
    summary: 'Sign out everywhere but here',
    tags: ['account'],
    access: { auth: 'user' },
    response: sessionsEndedSchema,
    handler: async ({ identity }) => ({
      ended: await signOutOtherSessions(ctx, sessions, identity.user.id, identity.session.id),
    }),
  }),
];
