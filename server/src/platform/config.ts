import { isIP } from 'node:net';
import { z } from 'zod';
import { parseAllowList } from './outbound/addresses';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const ROLES = ['api', 'relay', 'worker'] as const;
type Role = (typeof ROLES)[number];

const url = (protocols: string[]) =>
  z
    .string()
    .url()
    .refine(
      (v) => protocols.some((p) => v.startsWith(`${p}://`)),
      `must start with ${protocols.join(':// or ')}://`,
    );

/**
 * Where people and outside services reach this server, for every link in a mail or an answer:
 * `PUBLIC_URL`, else the address the server was started on — never a request's `Host` or
 * `X-Forwarded-Host`, which a caller chooses (docs/adr/0023-identity-across-tenants.md).
 */
export function linkBaseUrl(
  config: Pick<Config, 'PUBLIC_URL' | 'HOST' | 'PORT'>,
  port = config.PORT,
): string {
  if (config.PUBLIC_URL) return config.PUBLIC_URL.replace(/\/+$/, '');
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** proxy-addr's names for whole ranges, as Fastify's `trustProxy` takes them. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function isAddressOrCidr(value: string): boolean {
  if (PROXY_RANGE_NAMES.includes(value)) return true;
  const [address, bits, ...rest] = value.split('/');
  const family = isIP(address ?? '');
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  const n = Number(bits);
  return /^\d+$/.test(bits) && n <= (family === 4 ? 32 : 128);
}

/** DATA_DIR 'memory://': an in-memory database and nothing written to disk (tests, benches). */
export const isInMemoryDataDir = (dataDir: string) => dataDir.startsWith('memory://');

/**
 * The Redis namespace of this deployment: `REDIS_PREFIX`, else `llmor:<database name>:` (instances of one
 * deployment share the database, whatever host name they reach it by), else `llmor:` (the embedded database).
 * Without it a revocation on one deployment would disconnect the sockets of the same ids on another.
 */
export function redisNamespace(config: Pick<Config, 'REDIS_PREFIX' | 'DATABASE_URL'>): string {
  if (config.REDIS_PREFIX) return config.REDIS_PREFIX;
  const name = config.DATABASE_URL ? decodeURIComponent(new URL(config.DATABASE_URL).pathname.slice(1)) : '';
  return name ? `llmor:${name}:` : 'llmor:';
}

/** The environment the process reads (docs/reference/api.md "Configuration"); anything malformed stops the start. */
const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: url(['postgres', 'postgresql']).optional(),
  REDIS_URL: url(['redis', 'rediss']).optional(),
  /**
   * What every Redis key and channel of this deployment starts with (rate-limit counters, notices, relay
   * rooms). Unset: `llmor:` and the database's name, so deployments on different databases that share one
   * Redis never hear each other (see `redisNamespace`).
   */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9:_.-]{1,64}$/, 'letters, digits and : _ . - only, at most 64')
    .optional(),
  PUBLIC_URL: url(['http', 'https']).optional(),
  /**
   * Which proxies may name the client's address in `X-Forwarded-For`: a number of hops, or
   * comma-separated addresses/CIDRs (`loopback`, `uniquelocal` too). Unset: the socket's address.
   */
  TRUST_PROXY: z
    .string()
    .transform((v, ctx): false | number | string[] => {
      const value = v.trim();
      if (value === 'false') return false;
      if (/^\d+$/.test(value)) return Number(value);
      const entries = value.split(',').map((e) => e.trim());
      for (const entry of entries) {
        if (!isAddressOrCidr(entry)) {
          ctx.addIssue({
            code: 'custom',
            message: `'${entry}' is not an address, a CIDR or a number of hops`,
          });
        }
      }
      return entries;
    })
    .default(false),
  /** A signed-in session ends after this long without a request (minutes). */
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(12 * 60),
  /** A session ends this long after it was opened, however busy (days). */
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).default(30),
  /**
   * How long a verified session is served from memory (ms): a session deleted behind the server's back
   * (not signed out) is still accepted this long. Revocations through the API evict at once.
   */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Sessions one address may open per hour (`POST /v1/auth/session`). */
  SESSIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(120),
  SEED_ADMIN_EMAIL: z.string().email().default('admin@llmor.local'),
  SEED_ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /** Comma-separated roles of this process. */
  ROLES: z
    .string()
    .default(ROLES.join(','))
    .transform((v, ctx) => {
      const roles = v.split(',').map((r) => r.trim());
      for (const r of roles) {
        if (!(ROLES as readonly string[]).includes(r)) {
          ctx.addIssue({ code: 'custom', message: `unknown role '${r}' (allowed: ${ROLES.join(', ')})` });
        }
      }
      return roles as Role[];
    }),
  /** 32 bytes, base64: key for provider secrets at rest. Without it a key file in DATA_DIR is used. */
  ENCRYPTION_KEY: z
    .string()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes encoded as base64')
    .optional(),
  /** Where the built console lives; the server answers the SPA from here. */
  WEB_DIST: z.string().optional(),
  /** How long `POST /v1/conversations/{token}` waits for the reply before answering 504 (it goes on over the relay). */
  SYNC_REPLY_TIMEOUT_MS: z.coerce.number().int().min(1).default(30_000),
  /** How long a stopping process lets running replies finish before it stops them (ADR 0055). */
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).default(10_000),
  /** Upper bound of one reply (all model turns and tool calls); past it the provider request is aborted. */
  COMPLETION_TIMEOUT_MS: z.coerce.number().int().min(1).default(180_000),
  /** Provider calls one reply may make (model turns, tool rounds, `llm.complete`, search embeddings); ADR 0021. */
  REPLY_MAX_PROVIDER_CALLS: z.coerce.number().int().min(1).default(50),
  /** Tokens one reply may spend across its provider calls; the call that passes it is the last (ADR 0021). */
  REPLY_MAX_TOKENS: z.coerce.number().int().min(1).default(200_000),
  /** Wall time of one silicon run, its waits on host calls (`llm.complete`) included; ADR 0021. */
  SILICON_RUN_WALL_MS: z.coerce.number().int().min(1).default(60_000),
  /** `smtp://user:pass@host:587` or `smtps://…`: the instance's mail server, for vendors without SMTP settings. */
  SMTP_URL: url(['smtp', 'smtps']).optional(),
  /** Sender of the instance's mail (invitations, password resets) when a vendor has no SMTP settings. */
  MAIL_FROM: z.string().email().default('llmor@localhost'),
  /**
   * Destinations on private or local networks the server may reach for vendors (model base URLs, SMTP):
   * comma-separated `host:port`, `host`, IP, CIDR or the word `private` (ADR 0020). Default: none.
   */
  OUTBOUND_ALLOW: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const { rules, invalid } = parseAllowList(v);
      for (const entry of invalid) {
        ctx.addIssue({
          code: 'custom',
          message: `'${entry}' is not a host, host:port, IP, CIDR or 'private'`,
        });
      }
      return rules;
    }),
  /**
   * Turns on `GET /metrics` (Prometheus' text format), answered only to `Authorization: Bearer <token>`
   * (docs/adr/0035-metrics.md). Unset: the route answers 404.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Messages one caller may send per minute (`POST /v1/conversations/{token}`); past it 429 + Retry-After. */
  SEND_RATE_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  // Limits on what anyone holding a public embed token may make us store (docs/adr/0022).
  /** Conversations one address may open per hour through embeds; past it 429 + Retry-After. */
  EMBED_CONVERSATIONS_PER_ADDRESS_PER_HOUR: z.coerce.number().int().min(1).default(20),
  /** Conversations one embed may open per hour, all visitors together; past it 429 + Retry-After. */
  EMBED_CONVERSATIONS_PER_EMBED_PER_HOUR: z.coerce.number().int().min(1).default(1000),
  /** Largest `parameters` of a conversation an embed opens, as UTF-8 JSON (bytes). */
  EMBED_PARAMETERS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(2)
    .default(8 * 1024),
  /** Largest `parameters` of any conversation, as UTF-8 JSON (bytes). */
  CONVERSATION_PARAMETERS_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(2)
    .default(64 * 1024),
  /** Largest conversation state, as UTF-8 JSON (bytes): relay `set`/`patchState` and Lua `state.set/patch`. */
  STATE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(2)
    .default(64 * 1024),
  /** Relay `set` and `patchState` events one socket may send per minute; past it `state_err`. */
  RELAY_STATE_CHANGES_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  /** Relay sockets one address may hold open at once; past it the connection is refused. */
  RELAY_SOCKETS_PER_ADDRESS: z.coerce.number().int().min(1).default(20),
  /**
   * Documents read off the serving thread (ADR 0053): worker threads of the pool (default: the cores less
   * one, at least 1), the most one vendor's files hold (default half the pool, at least 1), and the files
   * waiting in all (a vendor may hold half the places); past the queue 429 + Retry-After.
   */
  DOCUMENT_PARSE_WORKERS: z.coerce.number().int().min(1).optional(),
  DOCUMENT_PARSE_WORKERS_PER_VENDOR: z.coerce.number().int().min(1).optional(),
  DOCUMENT_PARSE_QUEUE: z.coerce.number().int().min(1).default(16),
  /** Wall time of reading one file, the thread's start included; past it the thread is ended, 413. */
  DOCUMENT_PARSE_TIMEOUT_MS: z.coerce.number().int().min(1).default(60_000),
  /** Heap of the thread that reads one file (MiB); past it the thread is ended, 413. */
  DOCUMENT_PARSE_MEMORY_MB: z.coerce.number().int().min(16).default(512),
  /** Nesting a document may have (Markdown containers, HTML elements); deeper → 400. */
  DOCUMENT_MAX_DEPTH: z.coerce.number().int().min(1).default(256),
  /** What a Word file's parts may inflate to in all (MiB), and one part's ratio past its first MiB; → 413. */
  DOCUMENT_MAX_INFLATED_MB: z.coerce.number().int().min(1).default(64),
  DOCUMENT_MAX_INFLATE_RATIO: z.coerce.number().int().min(1).default(100),
  /** Pages of a PDF, paragraphs (blocks) of a Word, HTML or Markdown file, characters of text read; → 413. */
  DOCUMENT_MAX_PAGES: z.coerce.number().int().min(1).default(10_000),
  DOCUMENT_MAX_PARAGRAPHS: z.coerce.number().int().min(1).default(500_000),
  DOCUMENT_MAX_TEXT_CHARS: z.coerce
    .number()
    .int()
    .min(1)
    .default(64 * 1024 * 1024),
  /** Slack's Web API base URL (`@slack/web-api`'s `slackApiUrl`; tests point it at a local fake). */
  SLACK_API_URL: url(['http', 'https']).default('https://slack.com/api/'),
  /** Slack's OAuth page that installs a bot in a workspace. */
  SLACK_OAUTH_AUTHORIZE_URL: url(['http', 'https']).default('https://slack.com/oauth/v2/authorize'),
  /** Stripe's secret key: with it, checkout, the billing portal and the webhook; without it plans are assigned in admin. */
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  /** The webhook endpoint's signing secret (`whsec_…`); the webhook refuses every event without it. */
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Stripe's API base (default https://api.stripe.com); tests point it at a local fake. */
  STRIPE_API_URL: url(['http', 'https']).optional(),
});

export type Config = z.infer<typeof configSchema>;

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads the relevant variables; the error names every bad variable and why. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(configSchema.shape)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const parsed = configSchema.safeParse(picked);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
