import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { loadConfig } from '../config';
import { MemoryRateLimiter } from '../rate-limit';
import type { AppRow, Identity, MemberRole, UserRow, VendorRow, VerifyResult } from './identity';
import { Pipeline } from './pipeline';
import { route } from './route';

// The pipeline alone, over fake ports: each `X-AccessToken` value names a caller.
const vendorRow = (id: number, active = true) =>
  ({ id, key: `v${id}`, name: `Vendor ${id}`, currency: 'CHF', active, createdAt: new Date(0) }) as VendorRow;
const VENDORS = [vendorRow(1), vendorRow(2), vendorRow(3, false)];
const APPS = [
  { id: 5, vendorId: 1, name: 'Helper' },
  { id: 6, vendorId: 2, name: 'Other' },
] as AppRow[];

function identity(
  userId: number | null,
  opts: { su?: boolean; roles?: [number, MemberRole][] } = {},
): Identity {
  const user = userId === null ? null : ({ id: userId, isSu: opts.su ?? false, active: true } as UserRow);
  return {
    token: `t${userId}`,
    session: { id: userId ?? 0 } as Identity['session'],
    user,
    memberships: new Map(opts.roles ?? []),
  };
}
const CALLERS: Record<string, Identity> = {
  anonymous: identity(null),
  member: identity(10, {
    roles: [
      [1, 'member'],
      [3, 'owner'],
    ],
  }),
  owner: identity(11, { roles: [[1, 'owner']] }),
  su: identity(12, { su: true }),
};

const answer = (header: string | undefined): VerifyResult => {
  if (!header) return { ok: false, reason: 'missing' };
  const found = CALLERS[header];
  return found ? { ok: true, identity: found } : { ok: false, reason: 'signature' };
};

const calls: string[] = [];
/** The X-Vendor keys read, in order; the key `boom` fails its read. */
const vendorReads: string[] = [];

/** The memory limiter, whose answers can be held back (a slow Redis round trip). */
class HeldRateLimiter extends MemoryRateLimiter {
  private held: Promise<void> | null = null;
  hold(): () => void {
    let release!: () => void;
    this.held = new Promise((resolve) => {
      release = resolve;
    });
    return () => {
      this.held = null;
      release();
    };
  }
  override async hit(key: string, limit: number, windowSeconds: number) {
    const answer = super.hit(key, limit, windowSeconds);
    if (this.held) await this.held;
    return answer;
  }
}
const rateLimiter = new HeldRateLimiter();

async function build(): Promise<FastifyInstance> {
  const app = Fastify();
  const pipeline = new Pipeline({
    config: loadConfig({ DATA_DIR: 'memory://' }),
    rateLimiter,
    ports: {
      sessions: { verifyCached: answer, verify: async (h) => answer(h), identityOf: async () => null },
      vendors: {
        byId: async (id) => VENDORS.find((v) => v.id === id) ?? null,
        byKey: async (key) => {
          vendorReads.push(key);
          if (key === 'boom') throw new Error('the read failed');
          return VENDORS.find((v) => v.key === key) ?? null;
        },
      },
      owned: {
        app: async (vendorId, appId) => APPS.find((a) => a.vendorId === vendorId && a.id === appId) ?? null,
      },
    },
  });
  pipeline.install(app);
  const vendorPath = z.object({ vendorId: z.coerce.number(), thingId: z.coerce.number().int().positive() });
  pipeline.register(app, [
    route({
      method: 'GET',
      url: '/v1/public',
      summary: 'limited per address',
      tags: ['test'],
      access: { auth: 'session' },
      rateLimit: { bucket: 'public', per: 'address', limit: 2, windowSeconds: 60 },
      response: z.object({ ok: z.boolean() }),
      handler: () => ({ ok: true, secret: 'dropped by the response schema' }) as { ok: boolean },
    }),
    route({
      method: 'GET',
      url: '/v1/session',
      summary: 'any signed session',
      tags: ['test'],
      access: { auth: 'session' },
      response: z.object({ user: z.number().nullable() }),
      handler: ({ identity }) => ({ user: identity.user?.id ?? null }),
    }),
    route({
      method: 'GET',
      url: '/v1/admin',
      summary: 'superuser only',
      tags: ['test'],
      access: { auth: 'superuser' },
      response: z.object({ ok: z.boolean() }),
      handler: () => ({ ok: true }),
    }),
    route({
      method: 'POST',
      url: '/v1/vendors/:vendorId/things/:thingId',
      summary: 'vendor-scoped, validated',
      tags: ['test'],
      access: { auth: 'user', vendor: 'path' },
      params: vendorPath,
      resource: 'Document',
      query: z.object({ n: z.coerce.number().int().max(5).optional() }),
      body: z.object({ name: z.string().min(1, 'Name is required') }),
      status: 201,
      response: z.object({ vendor: z.number(), role: z.string(), thing: z.number(), name: z.string() }),
      handler: ({ vendor, role, params, body }) => {
        calls.push(`thing:${params.thingId}`);
        return { vendor: vendor.id, role, thing: params.thingId, name: body.name };
      },
    }),
    route({
      method: 'PUT',
      url: '/v1/vendors/:vendorId/apps/:appId',
      summary: 'names an app of the vendor',
      tags: ['test'],
      access: { auth: 'user', vendor: 'path', app: 'path' },
      params: z.object({ vendorId: z.coerce.number(), appId: z.coerce.number() }),
      body: z.object({ name: z.string().min(1) }),
      response: z.object({ app: z.string() }),
      handler: ({ app, body }) => {
        calls.push(`app:${app.id}:${body.name}`);
        return { app: app.name };
      },
    }),
    route({
      method: 'DELETE',
      url: '/v1/vendors/:vendorId/settings',
      summary: 'owner only',
      tags: ['test'],
      access: { auth: 'user', vendor: 'path', role: 'owner' },
      handler: () => {
        calls.push('settings');
      },
    }),
    route({
      method: 'GET',
      url: '/v1/current',
      summary: 'vendor from X-Vendor, limited per caller',
      tags: ['test'],
      access: { auth: 'user', vendor: 'header' },
      rateLimit: { bucket: 'current', per: 'caller', limit: 2, windowSeconds: 60 },
      response: z.object({ key: z.string() }),
      handler: ({ vendor }) => ({ key: vendor.key }),
    }),
    route({
      method: 'POST',
      url: '/v1/current/notes',
      summary: 'vendor from X-Vendor, a body, limited per caller',
      tags: ['test'],
      access: { auth: 'user', vendor: 'header' },
      rateLimit: { bucket: 'notes', per: 'caller', limit: 1, windowSeconds: 60 },
      body: z.object({ text: z.string() }),
      response: z.object({ key: z.string(), text: z.string() }),
      handler: ({ vendor, body }) => {
        calls.push(`note:${body.text}`);
        return { key: vendor.key, text: body.text };
      },
    }),
    route({
      method: 'POST',
      url: '/v1/hooks',
      summary: 'keeps the raw body',
      tags: ['test'],
      access: { auth: 'none' },
      rawBody: true,
      body: z.object({ a: z.number() }),
      response: z.object({ raw: z.string() }),
      handler: ({ request }) => ({ raw: request.rawBody ?? '' }),
    }),
  ]);
  await app.ready();
  return app;
}

describe('the request pipeline', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await build();
  });
  afterAll(() => app.close());

  const call = (method: 'GET' | 'POST' | 'DELETE' | 'HEAD', url: string, who?: string, body?: unknown) =>
    app.inject({
      method,
      url,
      headers: {
        ...(who ? { 'x-accesstoken': who } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });

  it('rate-limits per address before authenticating, and presents through the response schema', async () => {
    const first = await call('GET', '/v1/public', 'anonymous');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true });
    expect((await call('GET', '/v1/public')).statusCode).toBe(401);
    // The third call from this address is refused before its (missing) signature is looked at.
    const third = await call('GET', '/v1/public');
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
    expect(third.json().name).toBe('TooManyRequests');
  });

  it('authenticates: missing or bad signature 401, a session that is not signed in only where allowed', async () => {
    expect((await call('GET', '/v1/session')).statusCode).toBe(401);
    expect((await call('GET', '/v1/session', 'forged')).json().message).toContain('Invalid access token');
    expect((await call('GET', '/v1/session', 'anonymous')).json()).toEqual({ user: null });
    const signedOut = await call('POST', '/v1/vendors/1/things/1', 'anonymous', { name: 'x' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('hides superuser routes from everyone else with 404', async () => {
    expect((await call('GET', '/v1/admin', 'owner')).statusCode).toBe(404);
    expect((await call('GET', '/v1/admin', 'su')).json()).toEqual({ ok: true });
  });

  it('resolves the vendor and role before validating, so a stranger learns nothing from a bad body', async () => {
    calls.length = 0;
    const stranger = await call('POST', '/v1/vendors/2/things/1', 'member', { name: '' });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json()).toEqual({ name: 'NotFound', message: 'Vendor not found' });
    expect((await call('POST', '/v1/vendors/abc/things/1', 'member', { name: 'x' })).statusCode).toBe(404);
    expect((await call('POST', '/v1/vendors/99/things/1', 'su', { name: 'x' })).statusCode).toBe(404);
    // An inactive vendor cannot be acted in, even by its owner.
    expect((await call('POST', '/v1/vendors/3/things/1', 'member', { name: 'x' })).statusCode).toBe(404);
    expect(calls).toEqual([]);
  });

  it('validates params (404 naming the resource), query and body (400 with field errors)', async () => {
    calls.length = 0;
    const badId = await call('POST', '/v1/vendors/1/things/abc', 'member', { name: 'x' });
    expect(badId.json()).toEqual({ name: 'NotFound', message: 'Document not found' });
    const badBody = await call('POST', '/v1/vendors/1/things/1', 'member', { name: '' });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json()).toMatchObject({ name: 'ValidationError', errors: { name: 'Name is required' } });
    const badQuery = await call('POST', '/v1/vendors/1/things/1?n=9', 'member', { name: 'x' });
    expect(Object.keys(badQuery.json().errors)).toEqual(['n']);
    const malformed = await call('POST', '/v1/vendors/1/things/1', 'member', '{"name":');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().message).toBe('The request body is not valid JSON.');
    expect(calls).toEqual([]);
  });

  it('runs the handler with typed, authorized input and the declared status', async () => {
    const ok = await call('POST', '/v1/vendors/1/things/7', 'member', { name: 'Lamp' });
    expect(ok.statusCode).toBe(201);
    expect(ok.json()).toEqual({ vendor: 1, role: 'member', thing: 7, name: 'Lamp' });
    // A superuser acts as owner in any vendor.
    expect((await call('POST', '/v1/vendors/2/things/7', 'su', { name: 'Lamp' })).json().role).toBe('owner');
  });

  it("resolves the path's app in the vendor before validating: another vendor's app is 404 like a missing one", async () => {
    calls.length = 0;
    const put = (url: string, body: unknown) =>
      app.inject({ method: 'PUT', url, headers: { 'x-accesstoken': 'su' }, payload: body as object });
    for (const url of ['/v1/vendors/1/apps/6', '/v1/vendors/1/apps/99', '/v1/vendors/1/apps/abc']) {
      const refused = await put(url, { name: '' });
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toEqual({ name: 'NotFound', message: 'App not found' });
    }
    expect((await put('/v1/vendors/1/apps/5', { name: '' })).statusCode).toBe(400);
    expect((await put('/v1/vendors/2/apps/6', { name: 'x' })).json()).toEqual({ app: 'Other' });
    expect(calls).toEqual(['app:6:x']);
  });

  it('refuses members on owner routes with 404 and lets owners through', async () => {
    calls.length = 0;
    expect((await call('DELETE', '/v1/vendors/1/settings', 'member')).statusCode).toBe(404);
    expect((await call('DELETE', '/v1/vendors/1/settings', 'owner')).statusCode).toBe(204);
    expect(calls).toEqual(['settings']);
  });

  it('takes the vendor from X-Vendor and limits per caller after authenticating', async () => {
    const withKey = (who: string, key?: string) =>
      app.inject({
        method: 'GET',
        url: '/v1/current',
        headers: { 'x-accesstoken': who, ...(key ? { 'x-vendor': key } : {}) },
      });
    expect((await withKey('member')).statusCode).toBe(400);
    expect((await withKey('member', 'v2')).statusCode).toBe(404);
    expect((await withKey('owner', 'v1')).json()).toEqual({ key: 'v1' });
    expect((await withKey('owner', 'v1')).statusCode).toBe(200);
    const limited = await withKey('owner', 'v1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Each caller has its own budget; an unauthenticated call is refused before it counts.
    expect((await withKey('su', 'v2')).json()).toEqual({ key: 'v2' });
    expect((await withKey('nobody', 'v1')).statusCode).toBe(401);
  });

  it("reads the vendor while the caller's rate limit is asked, and still answers a refusal before anything else", async () => {
    calls.length = 0;
    vendorReads.length = 0;
    const note = (key: string, payload: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/current/notes',
        headers: { 'x-accesstoken': 'owner', 'x-vendor': key, 'content-type': 'application/json' },
        payload,
      });
    // The limiter's answer is held: the vendor is already being read (docs/adr/0051).
    const release = rateLimiter.hold();
    const first = note('v1', '{"text":"hello"}');
    await vi.waitFor(() => expect(vendorReads).toEqual(['v1']));
    expect(calls).toEqual([]);
    release();
    expect((await first).json()).toEqual({ key: 'v1', text: 'hello' });
    // Past the limit the refusal comes first, whatever the vendor or the body: an unknown vendor, a
    // malformed body, a vendor whose read fails (no unhandled rejection is left behind).
    for (const [key, payload] of [
      ['v9', '{"text":"x"}'],
      ['v1', '{"text":'],
      ['boom', '{"text":"x"}'],
    ] as const) {
      const refused = await note(key, payload);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().name).toBe('TooManyRequests');
    }
    expect(calls).toEqual(['note:hello']);
    // Under its limit, a failed read is a server error, not a vendor someone may use.
    const other = (key: string) =>
      app.inject({
        method: 'POST',
        url: '/v1/current/notes',
        headers: { 'x-accesstoken': 'su', 'x-vendor': key, 'content-type': 'application/json' },
        payload: '{"text":"x"}',
      });
    expect((await other('boom')).statusCode).toBe(500);
    expect(calls).toEqual(['note:hello']);
  });

  it('keeps the raw body for routes that verify signatures, and answers HEAD for GET routes', async () => {
    const raw = '{ "a": 1 }';
    expect((await call('POST', '/v1/hooks', undefined, raw)).json()).toEqual({ raw });
    const head = await call('HEAD', '/v1/session', 'anonymous');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
  });
});
