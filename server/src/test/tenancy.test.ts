/**
 * The tenancy denial matrix: every route that names a vendor's resource, called by a member of
 * another vendor — through their own vendor's path and through the owner's — answers 404, and the
 * database is byte-for-byte unchanged. A route added later without an entry here fails the
 * coverage check, so no route escapes the matrix.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSiliconPools } from '../modules/functions/sandbox';
import {
  Client,
  createTestServer,
  databaseSnapshot,
  makeUser,
  makeVendor,
  registeredRoutes,
  type TestServer,
} from './harness';

let server: TestServer;
let owner: Client;
let intruder: Client;
const ids = {
  ownerVendor: 0,
  intruderVendor: 0,
  app: 0,
  model: 0,
  fn: 0,
  run: 0,
  token: '',
  member: 0,
  datastore: 0,
  doc: 0,
  embed: 0,
  client: 0,
  plan: 0,
  subscription: 0,
};
let superuser: Client;

/** Each route (as Fastify prints it, params by position) with the body its handler would accept. */
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const MATRIX: Record<
  string,
  { methods: Method[]; body?: Record<string, unknown>; query?: string; file?: string }
> = {
  '/v1/vendors/:vendorId/apps/:appId': { methods: ['GET', 'PUT', 'DELETE'], body: { name: 'Taken over' } },
  '/v1/vendors/:vendorId/apps/:appId/parameters': { methods: ['GET'] },
  '/v1/vendors/:vendorId/models/:id': { methods: ['GET', 'DELETE'] },
  '/v1/vendors/:vendorId/functions/:functionId': {
    methods: ['GET', 'PUT', 'DELETE'],
    body: { name: 'Taken over', function_key: 'taken_over' },
  },
  '/v1/vendors/:vendorId/functions/:functionId/code': {
    methods: ['PUT'],
    body: { code: 'function run() end' },
  },
  '/v1/vendors/:vendorId/functions/:functionId/build': {
    methods: ['POST'],
    body: { code: 'function run() return 1 end', arguments: {}, config: {} },
  },
  '/v1/vendors/:vendorId/functions/:functionId/runs': { methods: ['GET'] },
  '/v1/vendors/:vendorId/functions/:functionId/runs/stats': { methods: ['GET'] },
  '/v1/vendors/:vendorId/functions/:functionId/runs/:runId': { methods: ['GET'] },
  '/v1/conversations/:token': { methods: ['GET', 'POST'], body: { content: 'hello from another vendor' } },
  '/v1/vendors/:vendorId/users/:userId': {
    methods: ['GET', 'PUT', 'DELETE'],
    body: { role: 'owner' },
  },
  '/v1/vendors/:vendorId/users/:userId/invitation': { methods: ['POST'] },
  '/v1/vendors/:vendorId/apps/:appId/datastores': { methods: ['GET', 'POST'], body: { name: 'taken_over' } },
  '/v1/vendors/:vendorId/apps/:appId/datastores/:datastoreId': {
    methods: ['PUT', 'DELETE'],
    body: { name: 'taken_over' },
  },
  // Vendor from X-Vendor: the intruder names their own vendor and the owner's datastore.
  '/v1/datastores/:datastoreId/docs': { methods: ['GET'] },
  '/v1/datastores/:datastoreId/docs/import': {
    methods: ['POST'],
    body: { mode: 'qa', data: [{ Q: 'a', A: 'b' }] },
  },
  '/v1/datastores/:datastoreId/docs/upload': {
    methods: ['POST'],
    query: '?mode=markdown&name=taken.md',
    file: '# Taken over',
  },
  '/v1/datastores/:datastoreId/docs/:docId': {
    methods: ['PUT', 'DELETE'],
    body: { document: { taken: 'over' } },
  },
  '/v1/datastores/:datastoreId/truncate': { methods: ['POST'] },
  '/v1/datastores/:datastoreId/status': { methods: ['GET'] },
  '/v1/datastores/:datastoreId/search': { methods: ['POST'], body: { query: 'anything' } },
  '/v1/vendors/:vendorId/apps/:appId/embed': { methods: ['GET', 'POST'], body: { name: 'Taken over' } },
  '/v1/vendors/:vendorId/apps/:appId/embed/:embedId': {
    methods: ['GET', 'PUT', 'DELETE'],
    body: { name: 'Taken over' },
  },
  '/v1/vendors/:vendorId/apps/:appId/embed/:embedId/code': { methods: ['GET'] },
  '/v1/vendors/:vendorId/apps/:appId/clients': { methods: ['GET', 'POST'], body: { name: 'Taken over' } },
  '/v1/vendors/:vendorId/apps/:appId/clients/:clientId': {
    methods: ['GET', 'PUT'],
    body: { name: 'Taken over', active: false },
  },
  '/v1/vendors/:vendorId/apps/:appId/integrations/slack': {
    methods: ['GET', 'POST', 'PUT'],
    body: { slack_bot_name: 'Taken over' },
  },
  // Superuser routes: another vendor's member (no superuser) learns nothing of any vendor.
  '/v1/admin/vendors/:vendorId': { methods: ['GET', 'PUT'], body: { name: 'Taken over' } },
  '/v1/admin/vendors/:vendorId/subscriptions': { methods: ['GET', 'POST'], body: { plan_id: 1 } },
  '/v1/admin/plans/:planId': { methods: ['GET', 'PUT'], body: { name: 'Taken over' } },
  // The signed-in person's own invitations, named by vendor: none of the intruder's in either vendor.
  '/v1/account/invitations/:vendorId': { methods: ['DELETE'] },
  '/v1/account/invitations/:vendorId/accept': { methods: ['POST'] },
  // The owner's subscription is named in the body (set in beforeAll).
  '/v1/vendors/:vendorId/billing/to/cancel': { methods: ['POST'], body: { subscription_id: 0 } },
};

/**
 * Routes whose only parameter is the vendor (or none, or a catalogue entry): nothing of another vendor
 * to name. Their vendor membership check is exercised by every vendor-path entry of the matrix.
 * `/embed/js/{token}` is public by design: any page that knows an embed's token loads its widget.
 * `/v1/openai/*` name nothing: the API client's token names its one app.
 * `/v1/account…` (but invitations by vendor) is the signed-in person's own account.
 * `/v1/slack/*` are Slack's calls, without a session: an event proves itself with the app's signing secret,
 * the OAuth redirect with the app's state nonce (modules/slack/slack.test.ts refuses everything else).
 * `/metrics` is the operator's, behind its own token, and names no vendor (test/metrics.test.ts).
 */
const NO_FOREIGN_ID =
  /^\/v1\/vendors\/:vendorId(\/(apps|apps\/available|avamodels\/available|avamodels\/:modelId\/(install|provider-models)|models|models\/search|functions|usage|users|settings|settings\/smtp\/test|billing\/(available_subs|invoices|address|subscription_limits|to\/checkout|to\/payment-method)))?$|^\/v1\/admin\/vendors$|^\/v1\/admin\/plans$|^\/v1\/billing\/stripe\/webhook$|^\/v1\/admin\/queue\/|^\/v1\/vendors$|^\/v1\/conversations$|^\/v1\/auth\/|^\/v1\/openapi\.json$|^\/healthz$|^\/readyz$|^\/metrics$|^\/icons|^\/embed\/js\/:token$|^\/v1\/openai\/|^\/v1\/slack\/|^\/v1\/account(\/password|\/sessions|\/sessions\/signout-others|\/invitations)?$/;

function fill(path: string, vendorId: number): string {
  let seenVendor = false;
  return path.replace(/:(\w+)/g, (_all, name: string) => {
    if (name === 'vendorId' && !seenVendor) {
      seenVendor = true;
      return String(vendorId);
    }
    if (name === 'appId') return String(ids.app);
    if (name === 'functionId') return String(ids.fn);
    if (name === 'runId') return String(ids.run);
    if (name === 'token') return ids.token;
    if (name === 'id') return String(ids.model);
    if (name === 'userId') return String(ids.member);
    if (name === 'datastoreId') return String(ids.datastore);
    if (name === 'docId') return String(ids.doc);
    if (name === 'embedId') return String(ids.embed);
    if (name === 'clientId') return String(ids.client);
    if (name === 'planId') return String(ids.plan);
    throw new Error(`no id for :${name} in ${path}`);
  });
}

/** The state no denied call may change (the intruder's own session is not the owner's data). */
const snapshot = () => databaseSnapshot(server.ctx);

beforeAll(async () => {
  server = await createTestServer();
  const ownerVendor = await makeVendor(server.ctx, 'Owner Org');
  const intruderVendor = await makeVendor(server.ctx, 'Intruder Org');
  ids.ownerVendor = ownerVendor.id;
  ids.intruderVendor = intruderVendor.id;
  // Both owners of their vendor, so owner-only routes are refused for the resource, not for the role.
  const ownerUser = await makeUser(server.ctx, { vendors: [ownerVendor], role: 'owner' });
  const intruderUser = await makeUser(server.ctx, { vendors: [intruderVendor], role: 'owner' });
  ids.member = (await makeUser(server.ctx, { vendors: [ownerVendor] })).id;
  const su = await makeUser(server.ctx, { isSu: true });
  superuser = await Client.signedIn(server.app, su.email, su.password);
  owner = await Client.signedIn(server.app, ownerUser.email, ownerUser.password);
  owner.vendorKey = ownerVendor.key;
  intruder = await Client.signedIn(server.app, intruderUser.email, intruderUser.password);
  intruder.vendorKey = intruderVendor.key;

  // The owner's resources, made through the API as a user would.
  const v = `/v1/vendors/${ownerVendor.id}`;
  ids.model = (
    await owner.post(`${v}/avamodels/builtin-offline-demo/install`, { parameters: {} })
  ).json().data.id;
  ids.app = (await owner.post(`${v}/apps`, { app_key: 'chatbot' })).json().data.id;
  ids.fn = (
    await owner.post(`${v}/functions`, {
      name: 'Echo',
      function_key: 'echo',
      code: 'function run(a) return a end',
    })
  ).json().data.id;
  ids.run = (
    await owner.post(`${v}/functions/${ids.fn}/build`, { code: 'function run() return 1 end' })
  ).json().data.run_id;
  ids.token = (
    await owner.post('/v1/conversations', {
      vendor_app_id: ids.app,
      vendor_channel: 'management',
      parameters: {},
    })
  ).json().data.token;
  ids.datastore = (await owner.post(`${v}/apps/${ids.app}/datastores`, { name: 'kb' })).json().data.id;
  ids.doc = (
    await owner.post(`/v1/datastores/${ids.datastore}/docs/import`, {
      mode: 'qa',
      data: [{ Q: 'q', A: 'a' }],
    })
  ).json().data[0].id;
  ids.embed = (await owner.post(`${v}/apps/${ids.app}/embed`, { name: 'Widget' })).json().data.id;
  ids.client = (await owner.post(`${v}/apps/${ids.app}/clients`, { name: 'Backend' })).json().data.id;
  ids.plan = (
    await superuser.post('/v1/admin/plans', {
      name: 'Pro',
      price_minor: 900,
      currency: 'CHF',
      interval: 'month',
    })
  ).json().data.id;
  ids.subscription = (
    await superuser.post(`/v1/admin/vendors/${ownerVendor.id}/subscriptions`, { plan_id: ids.plan })
  ).json().data.id;
  MATRIX['/v1/vendors/:vendorId/billing/to/cancel']!.body = { subscription_id: ids.subscription };
  for (const [k, value] of Object.entries(ids)) expect(value, k).toBeTruthy();
});
afterAll(async () => {
  await server?.close();
  await closeSiliconPools();
});

describe('tenancy denial matrix', () => {
  it('covers every route that names a resource', () => {
    const uncovered = registeredRoutes(server.app.printRoutes({ commonPrefix: false }))
      .filter((r) => !NO_FOREIGN_ID.test(r.path))
      .flatMap((r) =>
        r.methods.filter((m) => !MATRIX[r.path]?.methods.includes(m as Method)).map((m) => `${m} ${r.path}`),
      );
    expect(uncovered).toEqual([]);
  });

  it("answers 404 to another vendor's member on every such route and changes nothing", async () => {
    const before = await snapshot();
    const answers: string[] = [];
    for (const [path, { methods, body, query = '', file }] of Object.entries(MATRIX)) {
      // Through the intruder's own vendor path (resource scoping) and through the owner's (membership).
      const vendorIds =
        path.startsWith('/v1/vendors/') || path.startsWith('/v1/account/')
          ? [ids.intruderVendor, ids.ownerVendor]
          : path.startsWith('/v1/admin/')
            ? [ids.ownerVendor, ids.intruderVendor]
            : [0];
      for (const vendorId of vendorIds) {
        for (const method of methods) {
          const url = fill(path, vendorId) + query;
          const res = await intruder.request({
            method,
            url,
            ...(body && method !== 'GET' && method !== 'DELETE' ? { payload: body } : {}),
            ...(file && {
              payload: Buffer.from(file),
              headers: { 'content-type': 'application/octet-stream' },
            }),
          });
          answers.push(`${method} ${url} → ${res.statusCode} ${res.json().name}`);
          expect(res.statusCode, `${method} ${url}`).toBe(404);
          expect(res.json().name).toBe('NotFound');
        }
      }
    }
    expect(answers.length).toBeGreaterThanOrEqual(30);
    expect(await snapshot()).toBe(before);
  });

  it("refuses to start or list conversations of another vendor's app", async () => {
    const before = await snapshot();
    const start = await intruder.post('/v1/conversations', {
      vendor_app_id: ids.app,
      vendor_channel: 'management',
      parameters: {},
    });
    expect(start.statusCode).toBe(404);
    const list = await intruder.get(`/v1/conversations?vendor_app_id=${ids.app}`);
    expect(list.statusCode).toBe(404);
    const vendors = (await intruder.get('/v1/vendors')).json().data.map((x: { id: number }) => x.id);
    expect(vendors).toEqual([ids.intruderVendor]);
    expect(await snapshot()).toBe(before);
  });

  it('still lets the owner reach every resource (the matrix denies for the right reason)', async () => {
    for (const [path, { methods }] of Object.entries(MATRIX)) {
      if (!methods.includes('GET')) continue;
      const res = await (path.startsWith('/v1/admin/') ? superuser : owner).get(fill(path, ids.ownerVendor));
      expect(res.statusCode, path).toBe(200);
    }
  });
});
