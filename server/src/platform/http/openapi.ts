import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { route } from './route';

/**
 * An operation's `operationId`, derived from its method and path alone so it is unique (Fastify takes one
 * route per method and path) and stable while the route is: the method, then each path segment in camel
 * case, a parameter as `By<Name>`. `GET /v1/vendors/:vendorId/apps` → `getVendorsByVendorIdApps`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/v1\//, '')
    .split('/')
    .flatMap((segment) =>
      segment.startsWith(':') ? ['by', ...wordsOf(segment.slice(1))] : wordsOf(segment),
    );
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

/** The words of a path segment: split at anything not a letter or digit, and before inner capitals. */
const wordsOf = (segment: string) =>
  segment
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());

type JsonSchema = Record<string, unknown>;

/**
 * The responses with a route's other media types: each listed status answers text in that type too; a
 * status whose JSON schema is a bare string was only ever that text (a page), so the type replaces JSON.
 */
function withMediaTypes(
  response: Record<string, JsonSchema>,
  mediaTypes: Record<string, number[]>,
): Record<string, JsonSchema> {
  const out = { ...response };
  for (const [type, statuses] of Object.entries(mediaTypes)) {
    for (const status of statuses) {
      const json = response[status];
      const isText =
        json?.type === 'string' && Object.keys(json).every((k) => k === 'type' || k === 'description');
      const earlier =
        (out[status]?.content as Record<string, unknown> | undefined) ??
        (json && !isText ? { 'application/json': { schema: json } } : {});
      out[status] = {
        description: json?.description ?? 'Default Response',
        content: { ...earlier, [type]: { schema: { type: 'string' } } },
      };
    }
  }
  return out;
}

/**
 * The OpenAPI 3.1 document of every `/v1` route, generated from the routes' contract schemas. Each
 * operation gets its `operationId` and an explicit `security` (empty for public ones), so tools can tell a
 * public call from a forgotten requirement. Register before any route (the generator collects routes as they are added).
 */
export async function registerOpenApi(
  app: FastifyInstance,
  version: string,
  publicUrl: string,
): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'llmor API',
        version,
        description:
          'Console calls carry `X-AccessToken` (the session signature); API clients `X-VendorToken` with ' +
          '`X-Vendor`, or `Authorization: Bearer` on the OpenAI-compatible endpoint; web embeds `X-EmbedToken`. ' +
          "Errors answer `{name, message, code?, errors?}` (OpenAI's `{error: {…}}` under `/v1/openai`).",
      },
      servers: [{ url: publicUrl, description: 'This server' }],
      components: {
        securitySchemes: {
          accessToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-AccessToken',
            description:
              'The console session signature: base64 of JSON `{token, timestamp, signature}`, the signature ' +
              'an HMAC-SHA256 (session secret) of `METHOD\\nPATH_WITH_QUERY\\ntimestamp`.',
          },
          vendorToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-VendorToken',
            description: "An API client's token, sent with `X-Vendor: <vendor key>`.",
          },
          embedToken: {
            type: 'apiKey',
            in: 'header',
            name: 'X-EmbedToken',
            description: "A web embed's token (the page's `Origin` must be one the embed allows).",
          },
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description: "An API client's token on the OpenAI-compatible endpoint (`/v1/openai`).",
          },
        },
      },
    },
    transform: (document) => {
      const { url, route: options } = document;
      if (!url.startsWith('/v1/') || url === '/v1/openapi.json') {
        return { schema: { ...document.schema, hide: true }, url };
      }
      const transformed = jsonSchemaTransform(document);
      const method = Array.isArray(options.method) ? options.method[0]! : options.method;
      const spec = options.config?.route;
      const response = transformed.schema.response as Record<string, JsonSchema> | undefined;
      return {
        ...transformed,
        schema: {
          ...transformed.schema,
          operationId: operationIdOf(method, url),
          security: transformed.schema.security ?? [],
          ...(response && spec?.mediaTypes ? { response: withMediaTypes(response, spec.mediaTypes) } : {}),
        },
      };
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
