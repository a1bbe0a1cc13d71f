/**
 * In-process test server: the real app over PGlite in memory, or over a fresh database on the
 * PostgreSQL server named by DATABASE_URL (created per suite, dropped after).
 */
import { encodeAccessToken, RELAY_PATH, type RelayAuth, signingMessage } from '@llmor/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { type BuildOptions, buildApp, type ServerContext } from '../app';
import { type AppRow, insertApp } from '../modules/apps/repo';
import { insertUser, type UserRow } from '../modules/auth/repo';
import { type FunctionRow, insertFunction } from '../modules/functions/repo';
import { addMember, insertVendor, type VendorRow } from '../modules/vendors/repo';
import { loadConfig } from '../platform/config';
import type { AppContext } from '../platform/context';
import { hashPassword, hmacSha256Hex, randomToken, SecretBox } from '../platform/crypto';
import { type Db, openDatabase, schema } from '../platform/db';
import { queryLogOf } from '../platform/db/statements';
import type { RouteSpec } from '../platform/http/route';
import { MemoryRateLimiter } from '../platform/rate-limit';
import type { PresenceTiming } from '../platform/relay/presence';

export interface TestServer {
  app: FastifyInstance;
  ctx: ServerContext;
  /** Every route declaration of the app. */
  routes: readonly RouteSpec[];
  /** Moves the server's clock (seconds) for signature-window tests. */
  clock: { offsetSeconds: number };
  close(): Promise<void>;
}

async function freshPostgresUrl(baseUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `llmor_t_${randomToken(6)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/**
 * Test servers run the API and relay roles; a suite about background work asks for the worker
 * (`env: { ROLES: 'api,relay,worker' }`), so other suites do not poll a job queue.
 */
const TEST_ROLES = 'api,relay';
/** The fakes of outside services listen on loopback; tests of the outbound guard set their own list. */
const TEST_OUTBOUND_ALLOW = '127.0.0.1';

/**
 * The fakes and shared services a suite's server is built with (a recording relay, scripted models, fake
 * tools, replies that refuse, a rate limiter two instances share, an outbound guard on the test's DNS): a
 * test never swaps a service of a running server.
 */
type TestServices = Partial<Pick<BuildOptions, 'relay' | 'engine' | 'replies' | 'rateLimiter' | 'outbound'>>;

/** `env` adds configuration; the rest are the suite's {@link TestServices}. */
export async function createTestServer(
  opts: { env?: Record<string, string> } & TestServices = {},
): Promise<TestServer> {
  const baseUrl = process.env.DATABASE_URL;
  const pgdb = baseUrl ? await freshPostgresUrl(baseUrl) : null;
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    DATABASE_URL: pgdb?.url,
    ROLES: TEST_ROLES,
    OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    // Every test client opens its session from 127.0.0.1; the limit itself is tested with its own value.
    SESSIONS_PER_ADDRESS_PER_HOUR: '1000000',
    ...opts.env,
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const clock = { offsetSeconds: 0 };
  const { app, ctx, routes } = await buildApp({
    config,
    database,
    rateLimiter: opts.rateLimiter ?? new MemoryRateLimiter(),
    secretBox: new SecretBox(Buffer.alloc(32, 7)),
    serveWeb: false,
    now: () => Date.now() + clock.offsetSeconds * 1000,
    relay: opts.relay,
    engine: opts.engine,
    replies: opts.replies,
    outbound: opts.outbound,
  });
  await app.ready();
  return {
    app,
    ctx,
    routes,
    clock,
    close: async () => {
      await app.close();
      await database.close();
      await pgdb?.drop();
    },
  };
}

let seq = 0;
export const uniq = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`;

export async function makeVendor(ctx: AppContext, name = uniq('Vendor ')): Promise<VendorRow> {
  return insertVendor(ctx.db, { key: uniq('v'), name, currency: 'CHF' });
}

export async function makeUser(
  ctx: AppContext,
  opts: {
    vendors?: VendorRow[];
    role?: 'owner' | 'member';
    password?: string;
    isSu?: boolean;
    email?: string;
  } = {},
): Promise<UserRow & { password: string }> {
  const password = opts.password ?? 'correct horse battery';
  const user = await insertUser(ctx.db, {
    email: opts.email ?? `${uniq('user')}@example.com`,
    passwordHash: await hashPassword(password),
    firstname: 'Test',
    lastname: 'User',
    isSu: opts.isSu ?? false,
  });
  for (const v of opts.vendors ?? []) await addMember(ctx.db, v.id, user.id, opts.role);
  return { ...user, password };
}

/** A client that follows docs/reference/api.md's signing scheme byte for byte, like the web console does. */
export class Client {
  token = '';
  secret = '';
  vendorKey: string | undefined;

  constructor(private readonly app: FastifyInstance) {}

  static async create(app: FastifyInstance): Promise<Client> {
    const c = new Client(app);
    const res = await app.inject({ method: 'POST', url: '/v1/auth/session' });
    if (res.statusCode !== 201) throw new Error(`session create failed: ${res.statusCode} ${res.body}`);
    const body = res.json() as { token: string; secret: string };
    c.token = body.token;
    c.secret = body.secret;
    return c;
  }

  static async signedIn(app: FastifyInstance, email: string, password: string): Promise<Client> {
    const c = await Client.create(app);
    const res = await c.post('/v1/auth/signin', { identifier: email, secret: password });
    if (res.statusCode !== 200) throw new Error(`signin failed: ${res.statusCode} ${res.body}`);
    return c;
  }

  accessToken(method: string, url: string, timestamp = Math.floor(Date.now() / 1000), secret = this.secret) {
    return encodeAccessToken(
      this.token,
      timestamp,
      hmacSha256Hex(secret, signingMessage(method, url, timestamp)),
    );
  }

  /** The relay handshake's `auth` for this session (signed now for `GET /stream`). */
  relayAuth(): RelayAuth {
    return { access_token: this.accessToken('GET', RELAY_PATH) };
  }

  request(opts: InjectOptions & { method: string; url: string }): Promise<LightMyRequestResponse> {
    const headers: Record<string, string> = {
      'x-accesstoken': this.accessToken(opts.method, opts.url),
      ...(this.vendorKey ? { 'x-vendor': this.vendorKey } : {}),
      ...(opts.headers as Record<string, string> | undefined),
    };
    return this.app.inject({ ...opts, headers });
  }

  get(url: string) {
    return this.request({ method: 'GET', url });
  }
  post(url: string, payload?: unknown) {
    return this.request({
      method: 'POST',
      url,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  put(url: string, payload?: unknown) {
    return this.request({ method: 'PUT', url, payload: payload as object });
  }
  delete(url: string) {
    return this.request({ method: 'DELETE', url });
  }
}

/**
 * A new vendor and a person of it (its owner unless `role` says otherwise), signed in: the client sends the
 * vendor's `X-Vendor`.
 */
export async function signedInVendor(
  server: TestServer,
  role: 'owner' | 'member' = 'owner',
): Promise<{ vendor: VendorRow; user: UserRow & { password: string }; client: Client }> {
  const vendor = await makeVendor(server.ctx);
  const user = await makeUser(server.ctx, { vendors: [vendor], role });
  const client = await Client.signedIn(server.app, user.email, user.password);
  client.vendorKey = vendor.key;
  return { vendor, user, client };
}

/** An installed app inserted directly (no manifest checks): for list, tenancy and delete tests. */
export async function makeApp(
  ctx: AppContext,
  vendor: VendorRow,
  opts: {
    appKey?: string;
    type?: string;
    name?: string;
    description?: string;
    parameters?: Record<string, unknown>;
    createdBy?: number | null;
    createdAt?: Date;
    meta?: Record<string, unknown>;
  } = {},
): Promise<AppRow> {
  return insertApp(ctx.db, vendor.id, {
    appKey: opts.appKey ?? 'generic',
    type: opts.type ?? 'generic',
    name: opts.name ?? uniq('App '),
    description: opts.description ?? '',
    parameters: opts.parameters ?? {},
    meta: opts.meta ?? { icon: 'icon:apps', icon_is_standalone: false },
    createdBy: opts.createdBy ?? null,
    ...(opts.createdAt ? { createdAt: opts.createdAt } : {}),
  });
}

export interface ListeningTestServer extends TestServer {
  /** `http://127.0.0.1:<port>`: socket.io clients connect here with `path: '/stream'`. */
  url: string;
  /** The PostgreSQL database this server uses, to share it with a second instance (undefined on PGlite). */
  databaseUrl: string | undefined;
}

/**
 * A test server listening on a real port (0 = any free one), for socket.io clients. With `databaseUrl`
 * it joins that database (a second instance sharing the first one's data; the owner drops it);
 * otherwise it makes its own like createTestServer. `env` adds configuration (e.g. REDIS_URL);
 * `relayPresence` shortens the relay presence's heartbeat and timeout; the rest as for createTestServer.
 */
export async function createListeningTestServer(
  opts: {
    databaseUrl?: string;
    env?: Record<string, string>;
    relayPresence?: PresenceTiming;
  } & TestServices = {},
): Promise<ListeningTestServer> {
  const baseUrl = process.env.DATABASE_URL;
  const pgdb = opts.databaseUrl || !baseUrl ? null : await freshPostgresUrl(baseUrl);
  const databaseUrl = opts.databaseUrl ?? pgdb?.url;
  const config = loadConfig({
    DATA_DIR: 'memory://',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    ROLES: TEST_ROLES,
    OUTBOUND_ALLOW: TEST_OUTBOUND_ALLOW,
    ...opts.env,
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const clock = { offsetSeconds: 0 };
  try {
    const { app, ctx, routes } = await buildApp({
      config,
      database,
      rateLimiter: opts.rateLimiter ?? new MemoryRateLimiter(),
      secretBox: new SecretBox(Buffer.alloc(32, 7)),
      serveWeb: false,
      now: () => Date.now() + clock.offsetSeconds * 1000,
      relayPresence: opts.relayPresence,
      relay: opts.relay,
      engine: opts.engine,
      replies: opts.replies,
      outbound: opts.outbound,
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    return {
      app,
      ctx,
      routes,
      clock,
      url: `http://127.0.0.1:${port}`,
      databaseUrl,
      close: async () => {
        await app.close();
        await database.close();
        await pgdb?.drop();
      },
    };
  } catch (err) {
    await database.close();
    await pgdb?.drop();
    throw err;
  }
}

/** A function inserted directly (schemas as given, no sandbox): for list, tenancy and conversation tests. */
export async function makeFunction(
  ctx: AppContext,
  vendor: VendorRow,
  opts: {
    name?: string;
    functionKey?: string;
    description?: string;
    code?: string;
    isLibrary?: boolean;
    specificAppId?: number | null;
    argumentSchema?: Record<string, unknown> | null;
    configSchema?: Record<string, unknown> | null;
  } = {},
): Promise<FunctionRow> {
  return insertFunction(ctx.db, vendor.id, {
    name: opts.name ?? uniq('Function '),
    functionKey: opts.functionKey ?? uniq('fn_'),
    description: opts.description ?? '',
    runtime: 'silicon',
    isLibrary: opts.isLibrary ?? false,
    code: opts.code ?? 'function run(args, config) return args end\n',
    argumentSchema: opts.argumentSchema ?? null,
    configSchema: opts.configSchema ?? null,
    specificAppId: opts.specificAppId ?? null,
    createdBy: null,
  });
}

/** An installed model of a vendor, written directly (a chat model unless `type` says otherwise). */
export async function makeVendorModel(
  ctx: AppContext,
  vendor: Pick<VendorRow, 'id'>,
  opts: { costPer1kMinor?: number; name?: string; type?: 'chat_completion' | 'embedding' } = {},
) {
  const [row] = await ctx.db
    .insert(schema.vendorModels)
    .values({
      vendorId: vendor.id,
      modelKey: 'fake-chat',
      name: opts.name ?? uniq('Model '),
      type: opts.type ?? 'chat_completion',
      provider: 'fake',
      costPer1kMinor: opts.costPer1kMinor ?? 0,
    })
    .returning();
  return row!;
}

/** Full paths and methods from Fastify's route tree. */
export function registeredRoutes(tree: string): { path: string; methods: string[] }[] {
  const stack: string[] = [];
  const routes: { path: string; methods: string[] }[] = [];
  for (const line of tree.split('\n')) {
    const m = /^(.*?)[├└]── (\S+)(?: \(([^)]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = Math.round(m[1]!.length / 4);
    stack.length = depth;
    // A node shared by routes with different param names prints as `:a|:b`; keep the first.
    stack.push(m[2]!.replace(/(:\w+)\|:\w+/g, '$1'));
    if (m[3]) routes.push({ path: stack.join(''), methods: m[3].split(', ').filter((x) => x !== 'HEAD') });
  }
  return routes;
}

/**
 * Every row of every table but `sessions` (callers' own sessions change as they call), serialised: what a
 * refused call must leave unchanged.
 */
export async function databaseSnapshot(ctx: AppContext): Promise<string> {
  const parts: string[] = [];
  for (const [name, table] of Object.entries(schema)) {
    if (name === 'sessions') continue;
    const rows = await ctx.db
      .select()
      .from(table as typeof schema.apps)
      .orderBy(sql`1`);
    parts.push(`${name}:${JSON.stringify(rows)}`);
  }
  return parts.join('\n');
}

/**
 * Records the SQL statements drizzle runs on `db` until `stop()` (its query log, which transactions and
 * prepared statements share; the job queue's own statements do not pass through it). Tests of a statement
 * budget read `statements`.
 */
export function recordStatements(db: Db): { readonly statements: string[]; stop(): void } {
  const statements: string[] = [];
  const log = queryLogOf(db);
  const before = log.listener;
  log.listener = (query) => statements.push(query);
  return {
    statements,
    stop() {
      log.listener = before;
    },
  };
}
