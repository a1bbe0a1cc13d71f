/**
 * Anonymous floods through a public embed token (docs/adr/0022): conversations per visitor address and per
 * embed, the size of `parameters`, relay state changes per conversation and their size, relay sockets per
 * address. Past each limit: 429 with Retry-After, or `state_err`, or a refused connection — and nothing stored.
 */
import { JSON_MAX_DEPTH, TOO_DEEP_TEXT, UNSTORABLE_TEXT } from '@llmor/contracts';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  type Client,
  createListeningTestServer,
  type ListeningTestServer,
  makeApp,
  signedInVendor,
} from '../../test/harness';
import { RelayClient } from '../../test/relay-client';
import type { AppRow } from '../apps/repo';
import { makeConversation } from '../completion/testing';
import type { VendorRow } from '../vendors/repo';
import { readState } from './repo';

const LIMITS = {
  EMBED_CONVERSATIONS_PER_ADDRESS_PER_HOUR: 4,
  EMBED_CONVERSATIONS_PER_EMBED_PER_HOUR: 6,
  EMBED_PARAMETERS_MAX_BYTES: 1024,
  CONVERSATION_PARAMETERS_MAX_BYTES: 4096,
  STATE_MAX_BYTES: 2048,
  RELAY_STATE_CHANGES_PER_MINUTE: 5,
  RELAY_SOCKETS_PER_ADDRESS: 3,
};
/** Where the test's relay clients connect from (the harness listens on 127.0.0.1). */
const RELAY_SOCKETS_KEY = 'relay-sockets:127.0.0.1';
/** How long the server may take to see a closed socket's disconnect and release its count. */
const SOCKETS_RELEASED = { interval: 10, timeout: 5_000 };

let server: ListeningTestServer;
let vendor: VendorRow;
let app: AppRow;
let owner: Client;
const sockets: RelayClient[] = [];

beforeAll(async () => {
  server = await createListeningTestServer({
    env: Object.fromEntries(Object.entries(LIMITS).map(([k, v]) => [k, String(v)])),
  });
  ({ vendor, client: owner } = await signedInVendor(server));
  app = await makeApp(server.ctx, vendor);
});
afterEach(async () => {
  for (const s of sockets.splice(0)) s.close();
  // The server releases a socket's count when it sees the disconnect: wait for that, so tests stay apart.
  await expect
    .poll(async () => (await server.ctx.rateLimiter.peek(RELAY_SOCKETS_KEY)).count, SOCKETS_RELEASED)
    .toBe(0);
});
afterAll(async () => {
  await server?.close();
});

async function makeEmbed(name: string): Promise<{ id: number; token: string }> {
  const res = await owner.post(`/v1/vendors/${vendor.id}/apps/${app.id}/embed`, { name });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data;
}

const openThroughEmbed = (embedToken: string, address: string, parameters: Record<string, unknown> = {}) =>
  server.app.inject({
    method: 'POST',
    url: '/v1/conversations',
    remoteAddress: address,
    headers: { 'x-embedtoken': embedToken },
    payload: { vendor_app_id: app.id, vendor_channel: 'embed', parameters },
  });

async function conversationsOf(embedId: number): Promise<number> {
  const [row] = await server.ctx.db
    .select({ n: count() })
    .from(schema.conversations)
    .where(eq(schema.conversations.embedId, embedId));
  return row!.n;
}

describe('conversations opened through an embed', () => {
  it('are limited per visitor address and per embed: 429 with Retry-After, nothing more stored', async () => {
    const embed = await makeEmbed('Flooded');
    const statuses = async (address: string, n: number) => {
      const answers: number[] = [];
      for (let i = 0; i < n; i++) answers.push((await openThroughEmbed(embed.token, address)).statusCode);
      return answers;
    };
    expect(await statuses('203.0.113.7', 10)).toEqual([201, 201, 201, 201, ...Array(6).fill(429)]);
    expect(await conversationsOf(embed.id)).toBe(4);

    const refused = await openThroughEmbed(embed.token, '203.0.113.7');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({
      name: 'TooManyRequests',
      message: expect.stringMatching(/at most 4 per hour/),
    });

    // Other visitors still open theirs, up to the embed's own limit.
    expect(await statuses('203.0.113.8', 3)).toEqual([201, 201, 429]);
    expect(await statuses('203.0.113.9', 1)).toEqual([429]);
    expect(await conversationsOf(embed.id)).toBe(6);

    // Another embed is counted on its own.
    const other = await makeEmbed('Quiet');
    expect((await openThroughEmbed(other.token, '203.0.113.7')).statusCode).toBe(201);
  });

  it('refuse parameters past the size limit with 400, storing nothing', async () => {
    const embed = await makeEmbed('Large parameters');
    const big = await openThroughEmbed(embed.token, '198.51.100.1', { blob: 'x'.repeat(2000) });
    expect(big.statusCode, big.body).toBe(400);
    expect(big.json().errors).toEqual({ parameters: 'At most 1024 bytes as JSON.' });
    expect(await conversationsOf(embed.id)).toBe(0);
    expect((await openThroughEmbed(embed.token, '198.51.100.1', { blob: 'x'.repeat(500) })).statusCode).toBe(
      201,
    );

    // Every caller has a limit too (larger for signed-in users).
    const before = await server.ctx.db.select({ n: count() }).from(schema.conversations);
    const bySignedIn = await owner.post('/v1/conversations', {
      vendor_app_id: app.id,
      vendor_channel: 'management',
      parameters: { blob: 'x'.repeat(5000) },
    });
    expect(bySignedIn.statusCode).toBe(400);
    expect(bySignedIn.json().errors).toEqual({ parameters: 'At most 4096 bytes as JSON.' });
    expect(await server.ctx.db.select({ n: count() }).from(schema.conversations)).toEqual(before);
  });
});

describe('the relay', () => {
  async function joined(token: string): Promise<RelayClient> {
    const c = await RelayClient.connect(server.url, owner.relayAuth());
    sockets.push(c);
    expect(await c.ask('join', token)).toEqual({ ok: true });
    return c;
  }

  it('refuses state changes past the rate with state_err, the state unchanged', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    for (let i = 1; i <= 3; i++) expect(await a.ask('set', { n: i })).toEqual({ ok: true });
    expect(await a.ask('patchState', [{ op: 'replace', path: '/n', value: 4 }])).toEqual({ ok: true });
    expect(await a.ask('set', { n: 5 })).toEqual({ ok: true });

    const error = 'Too many state changes: at most 5 per minute.';
    const refusedSet = await a.ask('set', { n: 6 });
    expect(refusedSet).toMatchObject({ ok: false, error: expect.stringContaining(error) });
    const refusedPatch = await a.ask('patchState', [{ op: 'replace', path: '/n', value: 7 }]);
    expect(refusedPatch).toMatchObject({ ok: false, error: expect.stringContaining(error) });
    // A second socket on the same conversation shares its count.
    const b = await joined(conversation.token);
    expect((await b.ask('set', { n: 8 })).ok).toBe(false);

    const errors = a.received.filter((r) => r.event === 'state_err');
    expect(errors).toHaveLength(2);
    expect(await readState(server.ctx.db, vendor.id, conversation.id)).toEqual({
      state: { n: 5 },
      stateVersion: 5,
    });
  });

  it('refuses a state past the size limit, too deep, or with text that cannot be stored', async () => {
    const conversation = await makeConversation(server.ctx, app);
    const a = await joined(conversation.token);
    let deep: unknown = 1;
    for (let i = 0; i < JSON_MAX_DEPTH + 1; i++) deep = { d: deep };
    const refusals = [
      ['set', { big: 'x'.repeat(3000) }, 'The state must not exceed 2 KiB.'],
      [
        'patchState',
        [{ op: 'add', path: '/big', value: 'x'.repeat(3000) }],
        'The state must not exceed 2 KiB.',
      ],
      ['set', deep, TOO_DEEP_TEXT],
      ['set', { text: 'a\u0000b' }, UNSTORABLE_TEXT],
      ['patchState', [{ op: 'add', path: '/text', value: 'a\ud800' }], UNSTORABLE_TEXT],
    ] as const;
    for (const [event, payload, error] of refusals) {
      expect(await a.ask(event, payload), error).toEqual({ ok: false, error });
    }
    expect(await readState(server.ctx.db, vendor.id, conversation.id)).toEqual({
      state: {},
      stateVersion: 0,
    });

    // 10,000 deep, as a raw socket.io EVENT packet: the client library cannot encode it (its binary check
    // recurses). Another conversation: refusals count against the rate too.
    const other = await makeConversation(server.ctx, app);
    const b = await joined(other.token);
    b.socket.io.engine.send(`2["set",${'{"d":'.repeat(10_000)}1${'}'.repeat(10_000)}]`);
    const [refused] = await b.waitFor((r) => r.event === 'state_err');
    expect(refused!.data).toEqual({ error: TOO_DEEP_TEXT });
    expect(await readState(server.ctx.db, vendor.id, other.id)).toEqual({ state: {}, stateVersion: 0 });
  });

  it('refuses sockets past the limit per address until one closes', async () => {
    for (let i = 0; i < LIMITS.RELAY_SOCKETS_PER_ADDRESS; i++)
      sockets.push(await RelayClient.connect(server.url, owner.relayAuth()));
    await expect(RelayClient.connect(server.url, owner.relayAuth())).rejects.toThrow(
      'Too many relay connections from this address: at most 3 at once.',
    );
    expect((await server.ctx.rateLimiter.peek(RELAY_SOCKETS_KEY)).count).toBe(3);

    sockets.shift()!.close();
    await expect
      .poll(async () => (await server.ctx.rateLimiter.peek(RELAY_SOCKETS_KEY)).count, SOCKETS_RELEASED)
      .toBeLessThanOrEqual(2);
    sockets.push(await RelayClient.connect(server.url, owner.relayAuth()));
  });
});
