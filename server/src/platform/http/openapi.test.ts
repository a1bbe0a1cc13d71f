import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestServer, registeredRoutes, type TestServer } from '../../test/harness';
import { operationIdOf } from './openapi';

const REDOCLY = join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js')), 'cli.js');
const REDOCLY_CONFIG = fileURLToPath(new URL('../../../redocly.yaml', import.meta.url));

interface LintProblem {
  ruleId: string;
  severity: string;
  message: string;
  location: { pointer?: string }[];
}

/** Redocly's CLI on `document` with the project's config, offline: its problems (errors and warnings). */
async function redoclyLint(document: string): Promise<LintProblem[]> {
  const dir = await mkdtemp(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(dir, 'openapi.json');
    await writeFile(file, document);
    const args = [REDOCLY, 'lint', file, '--config', REDOCLY_CONFIG, '--format=json', '--max-problems=10000'];
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    // A lint with errors exits 1; its report is on stdout all the same.
    const stdout = await promisify(execFile)(process.execPath, args, { env, maxBuffer: 64 << 20 }).then(
      (out) => out.stdout,
      (err: { stdout?: string }) => {
        if (!err.stdout) throw err;
        return err.stdout;
      },
    );
    return (JSON.parse(stdout) as { problems: LintProblem[] }).problems;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

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
        const content = Object.values(op!.responses[success!]!.content ?? {});
        expect(content[0]?.schema, `${method} ${path}`).toBeDefined();
      }
      // Signed operations state their 401; every error answer has the error shape (OpenAI's on its endpoint).
      const errors = Object.keys(op!.responses).filter((s) => /^[45]/.test(s));
      if (op!.security?.length) expect(errors, `${method} ${path} lists its 401`).toContain('401');
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
    // The install form's model list: its own errors (ADR 0039) besides the pipeline's.
    const listed = doc.paths['/v1/vendors/{vendorId}/avamodels/{modelId}/provider-models']!.post!;
    expect(Object.keys(listed.responses)).toEqual(
      expect.arrayContaining(['200', '400', '401', '404', '429', '502', '504']),
    );
    expect(listed.requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { parameters: { type: 'object' } },
    });
  });

  it("lints clean with Redocly's recommended rules: servers, security on every operation, operationIds", async () => {
    const res = await server.app.inject({ method: 'GET', url: '/v1/openapi.json' });
    const problems = await redoclyLint(res.body);
    expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual(
      [],
    );
    const doc = res.json() as { paths: Record<string, Record<string, Operation & { operationId: string }>> };
    expect(doc.paths['/v1/vendors/{vendorId}/apps']!.get!.operationId).toBe('getVendorsByVendorIdApps');
    expect(doc.paths['/v1/auth/session']!.post!.security).toEqual([]);
    const chat = doc.paths['/v1/openai/chat/completions']!.post!;
    expect(chat.security).toEqual([{ bearer: [] }]);
    expect(Object.keys(chat.responses['200']!.content!)).toEqual(['application/json', 'text/event-stream']);
    const slackPage = doc.paths['/v1/slack/oauth/callback']!.get!.responses;
    expect(Object.keys(slackPage['200']!.content!)).toEqual(['text/html']);
    expect(Object.keys(slackPage['400']!.content!)).toEqual(['application/json', 'text/html']);
  });
});

describe('operationIdOf', () => {
  it('names an operation by its method and path, parameters as By<Name>, in camel case', () => {
    expect(operationIdOf('GET', '/v1/vendors/:vendorId/apps/:appId')).toBe('getVendorsByVendorIdAppsByAppId');
    expect(operationIdOf('POST', '/v1/vendors/:vendorId/avamodels/:modelId/install')).toBe(
      'postVendorsByVendorIdAvamodelsByModelIdInstall',
    );
    expect(operationIdOf('DELETE', '/v1/datastores/:datastoreId/docs/:docId')).toBe(
      'deleteDatastoresByDatastoreIdDocsByDocId',
    );
    expect(operationIdOf('PUT', '/v1/vendors/:vendorId/billing/to/payment-method')).toBe(
      'putVendorsByVendorIdBillingToPaymentMethod',
    );
    expect(operationIdOf('GET', '/v1/openai/models/:model')).toBe('getOpenaiModelsByModel');
  });
});
