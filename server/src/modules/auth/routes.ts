import { signinBody } from '@llmor/contracts';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../platform/context';
import { parse } from '../../platform/validate';
import { presentUser } from './present';
import { createSession, sessionUser, signin, signout } from './service';

export function registerAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/v1/auth/session', { config: { auth: 'none' } }, async (_request, reply) => {
    reply.code(201);
    return createSession(ctx);
  });

  app.get('/v1/auth/session/user', async (request) => {
    const vendorKey = request.headers['x-vendor'];
    return sessionUser(ctx, request.auth!, typeof vendorKey === 'string' ? vendorKey : undefined);
  });

  app.post('/v1/auth/signin', async (request) => {
    const body = parse(signinBody, request.body);
    const user = await signin(ctx, request.auth!, body, request.ip);
    return { data: presentUser(user) };
  });

  app.post('/v1/auth/signout', async (request, reply) => {
    await signout(ctx, request.auth!);
    reply.code(204).send();
  });
}
