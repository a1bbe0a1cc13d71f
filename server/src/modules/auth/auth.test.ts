import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestServer, makeUser, makeVendor, type TestServer } from '../../test/harness';
import { setUserActive } from './repo';
import { SIGNIN_LIMITS } from './service';

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(async () => {
  await server?.close();
});

/** Builds the header independently of the project's helpers, straight from docs/reference/api.md. */
function contractHeader(token: string, secret: string, method: string, target: string, ts: number) {
  const signature = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${method}\n${target}\n${ts}`)
    .digest('hex');
  return Buffer.from(JSON.stringify({ token, timestamp: ts, signature }), 'utf8').toString('base64');
}

describe('sessions', () => {
  it('creates a session with 256-bit url-safe token and secret', async () => {
    const res = await server.app.inject({ method: 'POST', url: '/v1/auth/session' });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    for (const v of [body.token, body.secret]) {
      expect(v).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(Buffer.from(v, 'base64url').length).toBeGreaterThanOrEqual(32);
    }
    expect(body.token).not.toBe(body.secret);
  });

  it('accepts a request signed byte for byte as docs/reference/api.md says, query string included', async () => {
    const c = await Client.create(server.app);
    const target = '/v1/auth/session/user?locale=en_US&x=%20y';
    const ts = Math.floor(Date.now() / 1000);
    const res = await server.app.inject({
      method: 'GET',
      url: target,
      headers: { 'x-accesstoken': contractHeader(c.token, c.secret, 'GET', target, ts) },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ authenticated: false, user: null, vendor: null, vendor_client: null });
    expect(res.json().app.currency_default).toBe('CHF');
  });

  const refused: [string, (c: Client) => Record<string, string>][] = [
    ['missing header', () => ({})],
    ['not base64 JSON', () => ({ 'x-accesstoken': 'not-json!!' })],
    [
      'tampered signature',
      (c) => {
        const good = JSON.parse(Buffer.from(c.accessToken('GET', '/v1/vendors'), 'base64').toString());
        good.signature = good.signature.replace(/^./, (ch: string) => (ch === 'a' ? 'b' : 'a'));
        return { 'x-accesstoken': Buffer.from(JSON.stringify(good)).toString('base64') };
      },
    ],
    ['signed for another path', (c) => ({ 'x-accesstoken': c.accessToken('GET', '/v1/vendors/1') })],
    ['signed for another method', (c) => ({ 'x-accesstoken': c.accessToken('POST', '/v1/vendors') })],
    ['query string not signed', (c) => ({ 'x-accesstoken': c.accessToken('GET', '/v1/vendors?page=1') })],
    [
      'stale timestamp (301 s old)',
      (c) => ({ 'x-accesstoken': c.accessToken('GET', '/v1/vendors', Math.floor(Date.now() / 1000) - 301) }),
    ],
    [
      'timestamp from the future (301 s)',
      (c) => ({ 'x-accesstoken': c.accessToken('GET', '/v1/vendors', Math.floor(Date.now() / 1000) + 301) }),
    ],
    [
      'unknown token',
      (c) => ({
        'x-accesstoken': contractHeader(
          'nope',
          c.secret,
          'GET',
          '/v1/vendors',
          Math.floor(Date.now() / 1000),
        ),
      }),
    ],
    [
      'timestamp as a string',
      (c) => {
        const ts = Math.floor(Date.now() / 1000);
        const sig = createHmac('sha256', c.secret).update(`GET\n/v1/vendors\n${ts}`).digest('hex');
        return {
          'x-accesstoken': Buffer.from(
            JSON.stringify({ token: c.token, timestamp: String(ts), signature: sig }),
          ).toString('base64'),
        };
      },
    ],
  ];
  for (const [label, headers] of refused) {
    it(`refuses ${label} with 401 Invalid access token`, async () => {
      const vendor = await makeVendor(server.ctx);
      const user = await makeUser(server.ctx, { vendors: [vendor] });
      const c = await Client.signedIn(server.app, user.email, user.password);
      const res = await server.app.inject({ method: 'GET', url: '/v1/vendors', headers: headers(c) });
      expect(res.statusCode).toBe(401);
      expect(res.json().name).toBe('Unauthorized');
      expect(res.json().message).toContain('Invalid access token');
    });
  }

  it("refuses another session's header replayed with a different session's token", async () => {
    const a = await Client.create(server.app);
    const b = await Client.create(server.app);
    const ts = Math.floor(Date.now() / 1000);
    // b's token with a signature made by a's secret: a captured signature does not transfer.
    const res = await server.app.inject({
      method: 'GET',
      url: '/v1/auth/session/user',
      headers: { 'x-accesstoken': contractHeader(b.token, a.secret, 'GET', '/v1/auth/session/user', ts) },
    });
    expect(res.statusCode).toBe(401);
  });

  it('never lets a remembered header stand for another method or target, or outlive its session', async () => {
    const vendor = await makeVendor(server.ctx);
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    const c = await Client.signedIn(server.app, user.email, user.password);
    const header = c.accessToken('GET', '/v1/vendors');
    const send = (method: 'GET' | 'POST', url: string) =>
      server.app.inject({ method, url, headers: { 'x-accesstoken': header } });
    expect((await send('GET', '/v1/vendors')).statusCode).toBe(200);
    expect((await send('GET', '/v1/vendors')).statusCode).toBe(200); // answered from memory
    expect((await send('GET', `/v1/vendors/${vendor.id}`)).statusCode).toBe(401);
    expect((await send('POST', '/v1/auth/signout')).statusCode).toBe(401);
    expect((await c.post('/v1/auth/signout')).statusCode).toBe(204);
    const after = await send('GET', '/v1/vendors');
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toContain('Invalid access token');
  });

  it('accepts a timestamp exactly 300 s away and refuses one at 301 s (server clock moved)', async () => {
    const c = await Client.create(server.app);
    const now = Math.floor(Date.now() / 1000);
    server.clock.offsetSeconds = 300;
    try {
      const ok = await server.app.inject({
        method: 'GET',
        url: '/v1/auth/session/user',
        headers: { 'x-accesstoken': c.accessToken('GET', '/v1/auth/session/user', now) },
      });
      expect(ok.statusCode).toBe(200);
      server.clock.offsetSeconds = 302;
      const stale = await server.app.inject({
        method: 'GET',
        url: '/v1/auth/session/user',
        headers: { 'x-accesstoken': c.accessToken('GET', '/v1/auth/session/user', now) },
      });
      expect(stale.statusCode).toBe(401);
    } finally {
      server.clock.offsetSeconds = 0;
    }
  });
});

describe('sign-in and sign-out', () => {
  it('signs in an active user, reports them, and signs out deleting the session', async () => {
    const vendor = await makeVendor(server.ctx, 'Acme');
    const user = await makeUser(server.ctx, { vendors: [vendor] });
    const c = await Client.create(server.app);
    const signin = await c.post('/v1/auth/signin', {
      identifier: user.email.toUpperCase(),
      secret: user.password,
    });
    expect(signin.statusCode).toBe(200);
    expect(signin.json().data).toMatchObject({ id: user.id, email: user.email, is_su: false });
    expect(signin.json().data).not.toHaveProperty('password_hash');
    expect(signin.json().data).not.toHaveProperty('passwordHash');

    c.vendorKey = vendor.key;
    const me = await c.get('/v1/auth/session/user');
    expect(me.json()).toMatchObject({
      authenticated: true,
      user: { id: user.id },
      vendor: { id: vendor.id, key: vendor.key },
    });
    expect(me.json().user.last_login).not.toBeNull();

    const out = await c.post('/v1/auth/signout');
    expect(out.statusCode).toBe(204);
    const after = await c.get('/v1/auth/session/user');
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toContain('Invalid access token');
  });

  it('answers the same 401 text for an unknown email and a wrong password', async () => {
    const user = await makeUser(server.ctx);
    const c = await Client.create(server.app);
    const wrong = await c.post('/v1/auth/signin', { identifier: user.email, secret: 'wrong password' });
    const unknown = await c.post('/v1/auth/signin', { identifier: 'nobody@example.com', secret: 'whatever' });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ name: 'Unauthorized', message: 'Invalid email or password' });
    expect(unknown.json()).toEqual(wrong.json());
    expect((await c.get('/v1/auth/session/user')).json().authenticated).toBe(false);
  });

  it('refuses an inactive user with 403 and leaves the session signed out', async () => {
    const user = await makeUser(server.ctx);
    await setUserActive(server.ctx.db, user.id, false);
    const c = await Client.create(server.app);
    const res = await c.post('/v1/auth/signin', { identifier: user.email, secret: user.password });
    expect(res.statusCode).toBe(403);
    expect((await c.get('/v1/auth/session/user')).json().authenticated).toBe(false);
  });

  it('rejects malformed sign-in bodies with field errors', async () => {
    const c = await Client.create(server.app);
    const missing = await c.post('/v1/auth/signin', { identifier: 'a@b.c' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toHaveProperty('secret');
    const wrongType = await c.post('/v1/auth/signin', { identifier: 42, secret: ['x'] });
    expect(wrongType.statusCode).toBe(400);
    expect(Object.keys(wrongType.json().errors).sort()).toEqual(['identifier', 'secret']);
    const badJson = await c.request({
      method: 'POST',
      url: '/v1/auth/signin',
      payload: '{"identifier": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toEqual({ name: 'BadRequest', message: 'The request body is not valid JSON.' });
    const huge = await c.request({
      method: 'POST',
      url: '/v1/auth/signin',
      payload: JSON.stringify({ identifier: 'a@b.c', secret: 'x'.repeat(2 * 1024 * 1024) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json().name).toBe('PayloadTooLarge');
  });

  /** A sign-in from `remoteAddress` (the socket's address: no proxy is trusted by default). */
  const signinFrom = async (identifier: string, secret: string, remoteAddress: string, headers = {}) => {
    const c = await Client.create(server.app);
    const res = await server.app.inject({
      method: 'POST',
      url: '/v1/auth/signin',
      remoteAddress,
      payload: { identifier, secret },
      headers: { 'x-accesstoken': c.accessToken('POST', '/v1/auth/signin'), ...headers },
    });
    return { res, client: c };
  };

  it('slows a guesser at one address: past 5 failures every try waits twice as long as the last', async () => {
    const user = await makeUser(server.ctx);
    const c = await Client.create(server.app);
    for (let i = 0; i < SIGNIN_LIMITS.freeFailures; i++) {
      const res = await c.post('/v1/auth/signin', { identifier: user.email, secret: 'wrong' });
      expect(res.statusCode).toBe(401);
    }
    // While the wait runs, the right password waits too: otherwise the wait would not slow guessing.
    const limited = await c.post('/v1/auth/signin', { identifier: user.email, secret: user.password });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBe(1);
    expect((await c.get('/v1/auth/session/user')).json().authenticated).toBe(false);
    expect(limited.json().message).toMatch(/^Too many failed sign-ins\. Try again in \d+ seconds\.$/);
    // The wait over (as the limiter sees it), the next failure doubles it.
    await server.ctx.rateLimiter.reset(`signin:wait:${user.email.toLowerCase()}:127.0.0.1`);
    expect((await c.post('/v1/auth/signin', { identifier: user.email, secret: 'wrong' })).statusCode).toBe(
      401,
    );
    const doubled = await c.post('/v1/auth/signin', { identifier: user.email, secret: user.password });
    expect(doubled.statusCode).toBe(429);
    expect(Number(doubled.headers['retry-after'])).toBe(2);
  });

  it('takes the address from the socket: rotating X-Forwarded-For does not escape the limit', async () => {
    const user = await makeUser(server.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < SIGNIN_LIMITS.freeFailures + 3; i++) {
      const { res } = await signinFrom(user.email, 'wrong', '10.8.0.1', {
        'x-forwarded-for': `203.0.113.${i}`,
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, SIGNIN_LIMITS.freeFailures)).toEqual(
      Array(SIGNIN_LIMITS.freeFailures).fill(401),
    );
    expect(statuses.slice(SIGNIN_LIMITS.freeFailures)).toEqual([429, 429, 429]);
  });

  it("never refuses the right password to its owner because of someone else's failures", async () => {
    const user = await makeUser(server.ctx);
    // The owner signed in from home before.
    expect((await signinFrom(user.email, user.password, '10.9.0.1')).res.statusCode).toBe(200);
    // An attacker fails from many addresses, past the per-identifier ceiling.
    const perAddress = SIGNIN_LIMITS.freeFailures - 1;
    for (let a = 0; a < Math.ceil(SIGNIN_LIMITS.perIdentifier / perAddress); a++) {
      for (let i = 0; i < perAddress; i++) {
        expect((await signinFrom(user.email, 'wrong', `10.10.${a}.1`)).res.statusCode).toBe(401);
      }
    }
    // Past the ceiling an unknown address is refused even with the right password (no oracle for guessers)…
    expect((await signinFrom(user.email, user.password, '10.9.0.77')).res.statusCode).toBe(429);
    expect((await signinFrom(user.email, 'wrong', '10.10.200.1')).res.statusCode).toBe(429);
    // …but the owner at a known address signs in, and failures from elsewhere never set their wait.
    expect((await signinFrom(user.email, user.password, '10.9.0.1')).res.statusCode).toBe(200);
  });

  it('refuses a spraying address across identifiers', async () => {
    const users = await Promise.all(Array.from({ length: 11 }, () => makeUser(server.ctx)));
    let refused = 0;
    for (const u of users) {
      for (let i = 0; i < SIGNIN_LIMITS.freeFailures; i++) {
        const { res } = await signinFrom(u.email, 'wrong', '10.11.0.1');
        if (res.statusCode === 429) refused++;
      }
    }
    expect(refused).toBe(users.length * SIGNIN_LIMITS.freeFailures - SIGNIN_LIMITS.perAddress);
    // Another address is not affected.
    expect((await signinFrom(users[0]!.email, users[0]!.password, '10.11.0.2')).res.statusCode).toBe(200);
  });
});
