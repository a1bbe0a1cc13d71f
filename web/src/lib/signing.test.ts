import { createHmac } from 'node:crypto';
import { signingMessage } from '@llmor/contracts';
import { describe, expect, it } from 'vitest';
import { buildTarget } from './api/query';
import { accessTokenHeader, hmacSha256Hex } from './signing';

describe('request signing', () => {
  it('matches node:crypto HMAC-SHA256 (lowercase hex)', async () => {
    const secret = 'Zm9vYmFy-secret_with-üñíçødé';
    const message = 'GET\n/v1/vendors?locale=en_US\n1700000000';
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(message, 'utf8').digest('hex');
    expect(await hmacSha256Hex(secret, message)).toBe(expected);
  });

  it('matches the RFC 4231 test case 2 vector', async () => {
    expect(await hmacSha256Hex('Jefe', 'what do ya want for nothing?')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });

  it('builds the X-AccessToken header: base64 JSON of token, whole-second timestamp, signature', async () => {
    const session = { token: 'tok123', secret: 's3cr3t' };
    const target = buildTarget('/v1/vendors/3/apps', { page: 0, page_size: 20 }, 'en_US');
    expect(target).toBe('/v1/vendors/3/apps?page=0&page_size=20&locale=en_US');
    const header = await accessTokenHeader(session, 'get', target, 1_700_000_000_999);
    const decoded = JSON.parse(Buffer.from(header, 'base64').toString('utf8'));
    const expected = createHmac('sha256', 's3cr3t').update(`GET\n${target}\n1700000000`).digest('hex');
    expect(decoded).toEqual({ token: 'tok123', timestamp: 1_700_000_000, signature: expected });
    expect(signingMessage('get', target, 1_700_000_000)).toBe(`GET\n${target}\n1700000000`);
  });
});

describe('buildTarget', () => {
  it('adds locale by default and skips empty values', () => {
    expect(buildTarget('/v1/auth/session/user', {}, 'de_CH')).toBe('/v1/auth/session/user?locale=de_CH');
    expect(buildTarget('/v1/x', { a: undefined, b: null, c: 'x y' }, null)).toBe('/v1/x?c=x+y');
  });

  it('comma-joins arrays and keeps an explicit locale', () => {
    expect(buildTarget('/v1/x', { app_type: ['chatbot', 'silicon'], locale: 'fr_FR' }, 'en_US')).toBe(
      '/v1/x?app_type=chatbot%2Csilicon&locale=fr_FR',
    );
  });
});
