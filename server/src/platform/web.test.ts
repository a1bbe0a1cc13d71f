import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
      expect(res.json().name).toBe('NotFound');
    }
  });
});
