import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { route } from './route';

/**
 * The OpenAPI 3.1 document of every `/v1` route, generated from the routes' contract schemas.
 * Register before any route (the generator collects routes as they are added).
 */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'llmor API',
        version,
        description:
          'Every call but the public ones carries `X-AccessToken`: base64 of JSON `{token, timestamp, signature}`, ' +
          'the signature an HMAC-SHA256 (session secret) of `METHOD\\nPATH_WITH_QUERY\\ntimestamp`. ' +
          'Errors answer `{name, message, code?, errors?}`.',
      },
      components: {
        securitySchemes: {
          accessToken: { type: 'apiKey', in: 'header', name: 'X-AccessToken' },
          vendorToken: { type: 'apiKey', in: 'header', name: 'X-VendorToken' },
          embedToken: { type: 'apiKey', in: 'header', name: 'X-EmbedToken' },
          bearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: (document) => {
      if (!document.url.startsWith('/v1/') || document.url === '/v1/openapi.json') {
        return { schema: { ...document.schema, hide: true }, url: document.url };
      }
      return jsonSchemaTransform(document);
    },
  });
}

export const openApiRoutes = (app: FastifyInstance) => [
  route({
    method: 'GET',
    url: '/v1/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document',
    tags: ['meta'],
    access: { auth: 'none' },
    status: 200,
    handler: () => app.swagger(),
  }),
];
