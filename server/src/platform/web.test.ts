import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { loadConfig } from './config';
import { SecretBox } from './crypto';
import { type Database, openDatabase } from './db';
import { MemoryRateLimiter } from './rate-limit';

let database: Database;
let app: Awaited<ReturnType<typeof buildApp>>['app'];
const dist = mkdtempSync(join(tmpdir(), 'llmor-web-'));

beforeAll(async () => {
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>llmor console</title>');
  writeFileSync(join(dist, 'assets', 'main-abc.js'), 'console.log(1)');
  // The build writes compressed twins of each hashed asset.
  writeFileSync(join(dist, 'assets', 'main-abc.js.br'), brotliCompressSync('console.log(1)'));
  writeFileSync(join(dist, 'assets', 'main-abc.js.gz'), gzipSync('console.log(1)'));
  const config = loadConfig({ DATA_DIR: 'memory://', LOG_LEVEL: 'silent', WEB_DIST: dist });
  database = await openDatabase({ dataDir: config.DATA_DIR });
  ({ app } = await buildApp({
    config,
    database,
    rateLimiter: new MemoryRateLimiter(),
    secretBox: new SecretBox(Buffer.alloc(32)),
  }));
});
afterAll(async () => {
  await app.close();
  await database.close();
});

describe('web console serving', () => {
  it('serves index.html at / and for client routes, assets as files', async () => {
    for (const url of ['/', '/apps/3/chat/abc', '/login?next=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toContain('llmor console');
    }
    const asset = await app.inject({ method: 'GET', url: '/assets/main-abc.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log(1)');
  });

  it('serves files built after start (a rebuild needs no restart)', async () => {
    writeFileSync(join(dist, 'assets', 'later-def.js'), 'console.log(2)');
    const res = await app.inject({ method: 'GET', url: '/assets/later-def.js' });
    expect(res.body).toBe('console.log(2)');
  });

  it('never answers the console for API, relay or health paths', async () => {
    for (const url of ['/v1/nope', '/stream/x', '/embed/js/zzz', '/healthz/x']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).not.toMatch(/html/);
      // The widget route answers a script's 404 as text; everything else the API's error body.
      if (!url.startsWith('/embed/')) expect(res.json().name).toBe('NotFound');
    }
  });

  it('sends security headers on console, asset and API answers: CSP without inline scripts, no framing', async () => {
    for (const url of ['/', '/apps', '/assets/main-abc.js', '/healthz', '/v1/vendors']) {
      const res = await app.inject({ method: 'GET', url });
      const csp = String(res.headers['content-security-policy']);
      expect(csp, url).toContain("script-src 'self'");
      expect(csp, url).not.toMatch(/script-src[^;]*unsafe-inline/);
      expect(csp, url).toContain("frame-ancestors 'none'");
      expect(csp, url).toContain("object-src 'none'");
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
      expect(res.headers['referrer-policy'], url).toBe('strict-origin-when-cross-origin');
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
    }
  });

  it('caches hashed assets for a year and revalidates the console page', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/main-abc.js' });
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const url of ['/', '/apps/3/settings/details']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('sends the precompressed twin the client accepts (brotli first), else the plain file', async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/assets/main-abc.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');
    const gz = await app.inject({
      method: 'GET',
      url: '/assets/main-abc.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');
    const plain = await app.inject({
      method: 'GET',
      url: '/assets/main-abc.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('answers HEAD for console routes and API GET routes, without a body', async () => {
    for (const url of ['/apps', '/', '/healthz']) {
      const res = await app.inject({ method: 'HEAD', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('');
    }
    expect((await app.inject({ method: 'HEAD', url: '/apps' })).headers['content-type']).toContain(
      'text/html',
    );
  });
});
