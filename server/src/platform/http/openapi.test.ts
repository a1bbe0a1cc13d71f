import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, registeredRoutes, type TestServer } from '../../test/harness';

type Operation = {
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: Record<string, unknown> }> }>;
};

describe('GET /v1/openapi.json', () => {
  let server: TestServer;
  const routes: { method: string; url: string }[] = [];
  beforeAll(async () => {
    server = await createTestServer();
    // Every /v1 route the app has, from Fastify's own tree (HEAD twins aside).
    for (const { path, methods } of registeredRoutes(server.app.printRoutes({ commonPrefix: false }))) {
      if (path.startsWith('/v1/')) for (const method of methods) routes.push({ method, url: path });
    }
  });
  afterAll(() => server.close());

  it('is a public OpenAPI 3.1 document describing every /v1 operation with its schemas and errors', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as { openapi: string; paths: Record<string, Record<string, Operation>> };
    expect(doc.openapi).toBe('3.1.0');
    expect(routes.length).toBeGreaterThan(25);

    for (const { method, url } of routes) {
      if (url === '/v1/openapi.json') continue;
      const path = url.replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[method.toLowerCase()];
      expect(op, `${method} ${path} is documented`).toBeDefined();
      expect(op!.summary, `${method} ${path} has a summary`).toBeTruthy();
      const success = Object.keys(op!.responses).find((s) => s.startsWith('2'));
      expect(success, `${method} ${path} has a success response`).toBeDefined();
      if (success !== '204') {
        expect(
          op!.responses[success!]!.content?.['application/json']?.schema,
          `${method} ${path}`,
        ).toBeDefined();
      }
      // Signed operations state their 401; every error answer has the error shape (OpenAI's on its endpoint).
      const errors = Object.keys(op!.responses).filter((s) => /^[45]/.test(s));
      if (op!.security) expect(errors, `${method} ${path} lists its 401`).toContain('401');
      const errorKeys = path.startsWith('/v1/openai/') ? ['error'] : ['name', 'message'];
      for (const status of errors) {
        const schema = op!.responses[status]!.content?.['application/json']?.schema as
          | { properties?: Record<string, unknown> }
          | undefined;
        expect(Object.keys(schema?.properties ?? {}), `${method} ${path} ${status}`).toEqual(
          expect.arrayContaining(errorKeys),
        );
      }
      for (const name of url.match(/:(\w+)/g) ?? []) {
        expect(
          op!.parameters?.some((p) => p.in === 'path' && p.name === name.slice(1)),
          `${path} ${name}`,
        ).toBe(true);
      }
    }

    const install = doc.paths['/v1/vendors/{vendorId}/apps']!.post!;
    expect(Object.keys(install.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '404']));
    expect(install.requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { app_key: { type: 'string' } },
    });
    const send = doc.paths['/v1/conversations/{token}']!.post!;
    expect(Object.keys(send.responses)).toEqual(expect.arrayContaining(['200', '409', '429', '504']));
  });
});
