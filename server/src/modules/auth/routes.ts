import {
  dataEnvelopeSchema,
  sessionCreatedSchema,
  sessionUserSchema,
  signinBody,
  userSchema,
} from '@llmor/contracts';
import type { AppContext } from '../../platform/context';
import { route } from '../../platform/http/route';
import { presentUser } from './present';
import { createSession, sessionUser, signin, signout } from './service';
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
];
