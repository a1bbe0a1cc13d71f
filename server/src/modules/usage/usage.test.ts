import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../../platform/db';
import {
  Client,
  createTestServer,
  makeApp,
  makeUser,
  makeVendor,
  type TestServer,
  uniq,
} from '../../test/harness';
import type { AppRow } from '../apps/repo';
import { insertVendor, type VendorRow } from '../vendors/repo';
import { periodStarts } from './service';

let server: TestServer;
let vendor: VendorRow;
let other: VendorRow;
let appOne: AppRow;
let appTwo: AppRow;
let otherApp: AppRow;
let client: Client;
let base: string;

const DAY_MS = 24 * 60 * 60 * 1000;

interface Row {
  vendor: VendorRow;
  app: AppRow | null;
  at: Date;
  prompt: number;
  completion: number;
  cost: number;
}

async function insertRows(rows: Row[]): Promise<void> {
  await server.ctx.db.insert(schema.usageRecords).values(
    rows.map((r) => ({
      vendorId: r.vendor.id,
      appId: r.app?.id ?? null,
      tokensPrompt: r.prompt,
      tokensCompletion: r.completion,
      requests: 1,
      costMinor: r.cost,
      createdAt: r.at,
    })),
  );
}

async function signedInto(v: VendorRow): Promise<Client> {
  const user = await makeUser(server.ctx, { vendors: [v] });
  const c = await Client.signedIn(server.app, user.email, user.password);
  c.vendorKey = v.key;
  return c;
}

/** The formatted figures of one period, in the order the page shows them. */
const figures = (p: Record<string, unknown>) => [
  p.tokens_prompt_formatted,
  p.tokens_completion_formatted,
  p.request_count_formatted,
  p.cost_formatted,
];

beforeAll(async () => {
  server = await createTestServer();
  vendor = await makeVendor(server.ctx);
  other = await makeVendor(server.ctx);
  appOne = await makeApp(server.ctx, vendor);
  appTwo = await makeApp(server.ctx, vendor);
  otherApp = await makeApp(server.ctx, other);
  client = await signedInto(vendor);
  base = `/v1/vendors/${vendor.id}`;

  const now = Date.now();
  const midnight = periodStarts(new Date(now)).today.getTime();
  const ago = (days: number) => new Date(now - days * DAY_MS);
  await insertRows([
    { vendor, app: appOne, at: new Date(now), prompt: 1000, completion: 234, cost: 15 },
    { vendor, app: appOne, at: new Date(now), prompt: 234, completion: 1000, cost: 10 },
    // Yesterday (UTC) a minute before midnight: in the last 7 days, not today.
    { vendor, app: appOne, at: new Date(midnight - 60_000), prompt: 10, completion: 20, cost: 5 },
    { vendor, app: appTwo, at: ago(3), prompt: 2000, completion: 500, cost: 1234 },
    // An app deleted since (app_id set null): still the vendor's usage.
    { vendor, app: null, at: ago(3), prompt: 1, completion: 1, cost: 1 },
    { vendor, app: appTwo, at: ago(20), prompt: 5, completion: 6, cost: 7 },
    { vendor, app: appOne, at: ago(100), prompt: 1_000_000, completion: 2_000_000, cost: 123_456 },
    // Another vendor's usage: never counted.
    { vendor: other, app: otherApp, at: new Date(now), prompt: 999_999, completion: 999_999, cost: 999_999 },
    { vendor: other, app: otherApp, at: ago(3), prompt: 888, completion: 888, cost: 888 },
    { vendor: other, app: null, at: ago(40), prompt: 777, completion: 777, cost: 777 },
  ]);
});
afterAll(async () => {
  await server?.close();
});

describe('GET /v1/vendors/{vendorId}/usage', () => {
  it("sums the vendor's usage over today, the last 7 and 30 days and in total", async () => {
    const res = await client.get(`${base}/usage`);
    expect(res.statusCode).toBe(200);
    const { data } = res.json();
    expect(Object.keys(data)).toEqual(['today', 'last_7_days', 'last_30_days', 'total']);
    expect(data.today).toEqual({
      tokens_prompt: 1234,
      tokens_completion: 1234,
      request_count: 2,
      cost_minor: 25,
      tokens_prompt_formatted: '1,234',
      tokens_completion_formatted: '1,234',
      request_count_formatted: '2',
      cost_formatted: 'CHF 0.25',
    });
    expect(data.last_7_days).toEqual({
      tokens_prompt: 3245,
      tokens_completion: 1755,
      request_count: 5,
      cost_minor: 1265,
      tokens_prompt_formatted: '3,245',
      tokens_completion_formatted: '1,755',
      request_count_formatted: '5',
      cost_formatted: 'CHF 12.65',
    });
    expect(data.last_30_days).toEqual({
      tokens_prompt: 3250,
      tokens_completion: 1761,
      request_count: 6,
      cost_minor: 1272,
      tokens_prompt_formatted: '3,250',
      tokens_completion_formatted: '1,761',
      request_count_formatted: '6',
      cost_formatted: 'CHF 12.72',
    });
    expect(data.total).toEqual({
      tokens_prompt: 1_003_250,
      tokens_completion: 2_001_761,
      request_count: 7,
      cost_minor: 124_728,
      tokens_prompt_formatted: '1,003,250',
      tokens_completion_formatted: '2,001,761',
      request_count_formatted: '7',
      cost_formatted: 'CHF 1,247.28',
    });
  });

  it('sums one app when app_id is given', async () => {
    const one = (await client.get(`${base}/usage?app_id=${appOne.id}`)).json().data;
    expect(figures(one.today)).toEqual(['1,234', '1,234', '2', 'CHF 0.25']);
    expect(figures(one.last_7_days)).toEqual(['1,244', '1,254', '3', 'CHF 0.30']);
    expect(figures(one.last_30_days)).toEqual(['1,244', '1,254', '3', 'CHF 0.30']);
    expect(figures(one.total)).toEqual(['1,001,244', '2,001,254', '4', 'CHF 1,234.86']);
    expect(one.total).toMatchObject({
      tokens_prompt: 1_001_244,
      tokens_completion: 2_001_254,
      request_count: 4,
      cost_minor: 123_486,
    });

    const two = (await client.get(`${base}/usage?app_id=${appTwo.id}`)).json().data;
    expect(figures(two.today)).toEqual(['0', '0', '0', 'CHF 0.00']);
    expect(figures(two.last_7_days)).toEqual(['2,000', '500', '1', 'CHF 12.34']);
    expect(figures(two.last_30_days)).toEqual(['2,005', '506', '2', 'CHF 12.41']);
    expect(figures(two.total)).toEqual(['2,005', '506', '2', 'CHF 12.41']);

    // An empty app_id means no filter.
    const all = (await client.get(`${base}/usage?app_id=&locale=de_CH`)).json().data;
    expect(all.total.request_count).toBe(7);
  });

  it('answers zeros (and the zero cost in the vendor currency) when nothing was used', async () => {
    const fresh = await insertVendor(server.ctx.db, {
      key: uniq('usd'),
      name: 'Dollar vendor',
      currency: 'USD',
    });
    const c = await signedInto(fresh);
    const res = await c.get(`/v1/vendors/${fresh.id}/usage`);
    expect(res.statusCode).toBe(200);
    const zero = {
      tokens_prompt: 0,
      tokens_completion: 0,
      request_count: 0,
      cost_minor: 0,
      tokens_prompt_formatted: '0',
      tokens_completion_formatted: '0',
      request_count_formatted: '0',
      cost_formatted: 'USD 0.00',
    };
    expect(res.json()).toEqual({
      data: { today: zero, last_7_days: zero, last_30_days: zero, total: zero },
    });
    const idle = await makeApp(server.ctx, vendor);
    const app = (await client.get(`${base}/usage?app_id=${idle.id}`)).json().data;
    for (const period of ['today', 'last_7_days', 'last_30_days', 'total']) {
      expect(figures(app[period]), period).toEqual(['0', '0', '0', 'CHF 0.00']);
    }
  });

  it("answers 404 for another vendor's app or an unknown one, never counting another vendor's rows", async () => {
    for (const id of [otherApp.id, 2_147_483_647]) {
      const res = await client.get(`${base}/usage?app_id=${id}`);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json()).toEqual({ name: 'NotFound', message: 'App not found' });
    }
    // The other vendor sees only its own usage.
    const stranger = await signedInto(other);
    const theirs = (await stranger.get(`/v1/vendors/${other.id}/usage`)).json().data;
    expect(figures(theirs.today)).toEqual(['999,999', '999,999', '1', 'CHF 9,999.99']);
    expect(theirs.last_30_days.request_count).toBe(2);
    expect(theirs.total.request_count).toBe(3);
    expect((await stranger.get(`/v1/vendors/${other.id}/usage?app_id=${appOne.id}`)).statusCode).toBe(404);
  });

  it('answers 404 on a vendor the user is not a member of, 400 for a bad app_id, 401 unsigned', async () => {
    const res = await client.get(`/v1/vendors/${other.id}/usage`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ name: 'NotFound', message: 'Vendor not found' });
    expect((await client.get(`/v1/vendors/${other.id}/usage?app_id=${otherApp.id}`)).statusCode).toBe(404);
    expect((await client.get('/v1/vendors/abc/usage')).statusCode).toBe(404);
    for (const bad of ['abc', '0', '-1', '1.5']) {
      const r = await client.get(`${base}/usage?app_id=${bad}`);
      expect(r.statusCode, bad).toBe(400);
      expect(Object.keys(r.json().errors), bad).toEqual(['app_id']);
    }
    const anonymous = await server.app.inject({ method: 'GET', url: `${base}/usage` });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('period starts', () => {
  it('starts today at 00:00 UTC and the other periods 7 and 30 × 24 h back', () => {
    const now = new Date('2025-03-10T00:30:00.000Z');
    const s = periodStarts(now);
    expect(s.today.toISOString()).toBe('2025-03-10T00:00:00.000Z');
    expect(s.last7Days.toISOString()).toBe('2025-03-03T00:30:00.000Z');
    expect(s.last30Days.toISOString()).toBe('2025-02-08T00:30:00.000Z');
  });
});

describe('usage recorded by a real conversation', () => {
  it('counts the request and tokens of a message answered by the offline demo model', async () => {
    const v = await makeVendor(server.ctx);
    const c = await signedInto(v);
    const vbase = `/v1/vendors/${v.id}`;
    const install = await c.post(`${vbase}/avamodels/builtin-offline-demo/install`, { parameters: {} });
    expect(install.statusCode).toBe(201);
    const created = await c.post(`${vbase}/apps`, { app_key: 'chatbot' });
    expect(created.statusCode).toBe(201);
    const appId: number = created.json().data.id;
    const conversation = await c.post('/v1/conversations', {
      vendor_app_id: appId,
      vendor_channel: 'management',
      parameters: {},
    });
    expect(conversation.statusCode).toBe(201);
    const token: string = conversation.json().data.token;
    const sent = await c.post(`/v1/conversations/${token}`, { content: 'How many tokens is this?' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data.at(-1).role).toBe('assistant');

    for (const url of [`${vbase}/usage?app_id=${appId}`, `${vbase}/usage`]) {
      const data = (await c.get(url)).json().data;
      for (const period of ['today', 'last_7_days', 'last_30_days', 'total']) {
        const p = data[period];
        expect(p.request_count, `${url} ${period}`).toBe(1);
        expect(p.request_count_formatted).toBe('1');
        expect(p.tokens_prompt).toBeGreaterThan(0);
        expect(p.tokens_completion).toBeGreaterThan(0);
        expect(p.tokens_prompt_formatted).toBe(p.tokens_prompt.toLocaleString('en-US'));
        expect(p.cost_formatted).toMatch(/^CHF \d/);
      }
    }
    // The first vendor's figures are untouched.
    expect((await client.get(`${base}/usage`)).json().data.total.request_count).toBe(7);
  });
});
