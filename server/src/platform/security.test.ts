import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerSecurityHeaders } from './security';

/** The headers helmet sets with our options, as the whole app answered them before they were recorded once. */
const EXPECTED = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
    "font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';" +
    "frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

describe('security headers', () => {
  it('are on every answer: JSON, errors, unknown routes, and answers a route writes itself (streams)', async () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    app.get('/json', async () => ({ ok: true }));
    app.get('/error', async () => {
      throw new Error('boom');
    });
    app.get('/stream', (_request, reply) => {
      reply.hijack();
      reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
      reply.raw.end('data: [DONE]\n\n');
    });
    for (const url of ['/json', '/error', '/nope', '/stream']) {
      const res = await app.inject({ method: 'GET', url });
      for (const [name, value] of Object.entries(EXPECTED))
        expect(res.headers[name], `${url} ${name}`).toBe(value);
    }
    await app.close();
  });

  it('leave a header a route sets itself to the route (the embed script loads cross-origin)', async () => {
    const app = Fastify();
    registerSecurityHeaders(app);
    app.get('/script', async (_request, reply) =>
      reply.header('cross-origin-resource-policy', 'cross-origin').send('x'),
    );
    const res = await app.inject({ method: 'GET', url: '/script' });
    expect(res.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    await app.close();
  });
});
