/**
 * The whole data model of llmor (both spec documents), one Drizzle schema for PGlite and PostgreSQL.
 * Every tenant-owned table carries `vendor_id`; repos put it in every `where`.
 * Vector embeddings live outside this schema (ADR 0003): the PostgreSQL servers we target may lack
 * pgvector, while PGlite always has it; `openDatabase` enables the extension where it exists.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** Full-text vector of a document's string and number values (PostgreSQL computes it; never written). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const modifiedAt = () => timestamp('modified_at', { withTimezone: true });

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstname: text('firstname').notNull().default(''),
    lastname: text('lastname').notNull().default(''),
    currency: text('currency'),
    isSu: boolean('is_su').notNull().default(false),
    active: boolean('active').notNull().default(true),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`)],
);

export const vendors = pgTable(
  'vendors',
  {
    id: serial('id').primaryKey(),
    key: text('key').notNull(),
    name: text('name').notNull(),
    currency: text('currency').notNull().default('CHF'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [uniqueIndex('vendors_key_uq').on(t.key)],
);

export const vendorUsers = pgTable(
  'vendor_users',
  {
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text('role').notNull().default('member'),
    /** An inactive membership keeps the person listed but lets them act in the vendor no more. */
    active: boolean('active').notNull().default(true),
    /** Null while the invitation is pending: the person acts in the vendor only once they accepted it. */
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    /** The names the inviter typed, shown while the invitation is pending (a person's own names are theirs). */
    invitedFirstname: text('invited_firstname').notNull().default(''),
    invitedLastname: text('invited_lastname').notNull().default(''),
    /** This invitation created the account: only then may a link the inviter holds set its first password. */
    createdAccount: boolean('created_account').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.userId] }), index('vendor_users_user_idx').on(t.userId)],
);

/** Browser sessions. The token is only compared, so only its SHA-256 is kept; the secret keys the HMAC. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    secret: text('secret').notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sessions_token_hash_uq').on(t.tokenHash)],
);

/**
 * Single-use links mailed to people: an invitation (7 days) sets a new member's password, a reset (1 hour)
 * replaces a forgotten one. Only the token's SHA-256 is kept.
 */
export const userTokens = pgTable(
  'user_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    vendorId: integer('vendor_id').references(() => vendors.id, { onDelete: 'cascade' }),
    purpose: text('purpose').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /**
     * Whether the link may set the account's password (a reset; an invitation mailed through the instance's
     * mail server, or one that created the account). Otherwise its holder accepts while signed in.
     */
    setsPassword: boolean('sets_password').notNull().default(false),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_tokens_token_hash_uq').on(t.tokenHash),
    index('user_tokens_user_idx').on(t.userId),
  ],
);

/** Installed models of a vendor (catalogue entry + parameters; the API key encrypted at rest). */
export const vendorModels = pgTable(
  'vendor_models',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    modelKey: text('model_key').notNull(),
    name: text('name').notNull(),
    type: text('type').notNull(),
    provider: text('provider'),
    image: text('image'),
    parameters: jsonb('parameters').notNull().default({}),
    secretEnc: text('secret_enc'),
    costPer1kMinor: integer('cost_per_1k_minor').notNull().default(0),
    prepaid: boolean('prepaid').notNull().default(false),
    availableTokens: bigint('available_tokens', { mode: 'number' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [index('vendor_models_vendor_idx').on(t.vendorId, t.type)],
);

export const apps = pgTable(
  'apps',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    appKey: text('app_key').notNull(),
    type: text('type').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    completionVendorModelId: integer('completion_vendor_model_id').references(() => vendorModels.id, {
      onDelete: 'set null',
    }),
    parameters: jsonb('parameters').notNull().default({}),
    meta: jsonb('meta').notNull().default({}),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [index('apps_vendor_created_idx').on(t.vendorId, t.createdAt)],
);

export const functions = pgTable(
  'functions',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    functionKey: text('function_key').notNull(),
    description: text('description').notNull().default(''),
    runtime: text('runtime').notNull().default('silicon'),
    isLibrary: boolean('is_library').notNull().default(false),
    code: text('code').notNull().default(''),
    argumentSchema: jsonb('argument_schema'),
    configSchema: jsonb('config_schema'),
    specificAppId: integer('specific_app_id').references(() => apps.id, { onDelete: 'cascade' }),
    lastRun: timestamp('last_run', { withTimezone: true }),
    runCount: integer('run_count').notNull().default(0),
    runCountSuccess: integer('run_count_success').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [uniqueIndex('functions_vendor_key_uq').on(t.vendorId, t.functionKey)],
);

/** Functions installed into an app, with the app's config for each. */
export const appFunctions = pgTable(
  'app_functions',
  {
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    functionId: integer('function_id')
      .notNull()
      .references(() => functions.id, { onDelete: 'cascade' }),
    config: jsonb('config').notNull().default({}),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.appId, t.functionId] })],
);

export const conversations = pgTable(
  'conversations',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    /** Shown in the console ('#' + tail) and used as the relay room, so kept as issued. */
    token: text('token').notNull(),
    channel: text('channel').notNull(),
    parameters: jsonb('parameters').notNull().default({}),
    state: jsonb('state').notNull().default({}),
    stateVersion: integer('state_version').notNull().default(0),
    /** While a reply runs, until when its instance holds it (one reply per conversation on any instance). */
    replyLeaseUntil: timestamp('reply_lease_until', { withTimezone: true }),
    /** The instance (one process, ADR 0025) whose reply holds the lease; it alone renews and releases it. */
    replyLeaseHolder: text('reply_lease_holder'),
    embedId: integer('embed_id'),
    clientId: integer('client_id'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('conversations_token_uq').on(t.token),
    index('conversations_app_idx').on(t.appId, t.id),
    // Few rows hold a lease: renewing an instance's leases and releasing stale ones read only these.
    index('conversations_reply_lease_idx').on(t.replyLeaseUntil).where(sql`reply_lease_until is not null`),
  ],
);

export const messages = pgTable(
  'messages',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id').notNull(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    creator: text('creator').notNull(),
    message: text('message'),
    functionCalls: jsonb('function_calls').notNull().default([]),
    functionResponse: text('function_response'),
    hasBeenModified: boolean('has_been_modified').notNull().default(false),
    versions: jsonb('versions').notNull().default([]),
    /** The datastore passages an assistant answer was given, with their sources (`MessageSource[]`). */
    sources: jsonb('sources').notNull().default([]),
    createdAt: createdAt(),
  },
  (t) => [index('messages_conversation_idx').on(t.conversationId, t.id)],
);

export const functionRuns = pgTable(
  'function_runs',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id').notNull(),
    functionId: integer('function_id')
      .notNull()
      .references(() => functions.id, { onDelete: 'cascade' }),
    conversationId: integer('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    status: integer('status').notNull(),
    took: integer('took').notNull(),
    memory: integer('memory').notNull(),
    arguments: jsonb('arguments'),
    config: jsonb('config'),
    result: jsonb('result'),
    error: jsonb('error'),
    console: jsonb('console').notNull().default([]),
    debug: jsonb('debug'),
    createdAt: createdAt(),
  },
  (t) => [index('function_runs_function_idx').on(t.functionId, t.id)],
);

/** One row per completion request: the usage page sums these per period. */
export const usageRecords = pgTable(
  'usage_records',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id').notNull(),
    appId: integer('app_id').references(() => apps.id, { onDelete: 'set null' }),
    vendorModelId: integer('vendor_model_id').references(() => vendorModels.id, { onDelete: 'set null' }),
    conversationId: integer('conversation_id').references(() => conversations.id, { onDelete: 'set null' }),
    tokensPrompt: integer('tokens_prompt').notNull().default(0),
    tokensCompletion: integer('tokens_completion').notNull().default(0),
    requests: integer('requests').notNull().default(1),
    costMinor: bigint('cost_minor', { mode: 'number' }).notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [index('usage_vendor_created_idx').on(t.vendorId, t.createdAt)],
);

export const datastores = pgTable(
  'datastores',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    appId: integer('app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The model that embeds its documents; null = none installed yet (documents wait unembedded). */
    embeddingVendorModelId: integer('embedding_vendor_model_id').references(() => vendorModels.id, {
      onDelete: 'set null',
    }),
    /** The last embedding failure (provider error text), cleared when a batch succeeds. */
    lastError: text('last_error'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [uniqueIndex('datastores_app_name_uq').on(t.appId, t.name)],
);

export const datastoreDocuments = pgTable(
  'datastore_documents',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id').notNull(),
    datastoreId: integer('datastore_id')
      .notNull()
      .references(() => datastores.id, { onDelete: 'cascade' }),
    hash: text('hash').notNull(),
    /** `json`, not `jsonb`: a document keeps the key order its file had (docs/adr/0032-document-import-and-sources.md). */
    document: json('document').notNull(),
    /** Where the document came from (file, page, heading path, URL); null for documents added by hand. */
    source: jsonb('source'),
    requiresSync: boolean('requires_sync').notNull().default(true),
    /** A sync job holds the document until then (crash-safe claim: an expired lease is free again). */
    syncLeaseUntil: timestamp('sync_lease_until', { withTimezone: true }),
    /** Why the last embedding attempt failed; set while the document stays unembedded. */
    syncError: text('sync_error'),
    search: tsvector('search').generatedAlwaysAs(
      sql`jsonb_to_tsvector('simple'::regconfig, document::jsonb, '["string", "numeric"]'::jsonb)`,
    ),
    createdAt: createdAt(),
    modifiedAt: timestamp('modified_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('datastore_documents_hash_uq').on(t.datastoreId, t.hash),
    index('datastore_documents_pending_idx').on(t.datastoreId, t.id).where(sql`requires_sync`),
    index('datastore_documents_search_idx').using('gin', t.search),
  ],
);

/** A web embed: the widget at `/embed/js/{token}` talks to its app (token public by nature: it sits in a page). */
export const embeds = pgTable('embeds', {
  id: serial('id').primaryKey(),
  vendorId: integer('vendor_id')
    .notNull()
    .references(() => vendors.id, { onDelete: 'cascade' }),
  vendorAppId: integer('vendor_app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  vendorClientId: integer('vendor_client_id'),
  name: text('name').notNull(),
  token: text('token').notNull().unique(),
  /** Origins (`https://host[:port]`) whose pages may use the widget; empty = any. */
  allowedOrigins: jsonb('allowed_origins').notNull().default([]),
  /** The widget's look: title, colour, welcome text, position. */
  appearance: jsonb('appearance').notNull().default({}),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  modifiedAt: modifiedAt(),
});

export const clients = pgTable('clients', {
  id: serial('id').primaryKey(),
  vendorId: integer('vendor_id')
    .notNull()
    .references(() => vendors.id, { onDelete: 'cascade' }),
  vendorAppId: integer('vendor_app_id')
    .notNull()
    .references(() => apps.id, { onDelete: 'cascade' }),
  active: boolean('active').notNull().default(true),
  name: text('name'),
  tokenHash: text('token_hash').notNull().unique(),
  tokenTail: text('token_tail').notNull(),
  lastUsed: timestamp('last_used', { withTimezone: true }),
  /** Spelt as the API spells it (docs/reference/api.md). */
  requetsCount: integer('requets_count').notNull().default(0),
  requestRateLimit: integer('request_rate_limit'),
  requestRateInterval: integer('request_rate_interval'),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: createdAt(),
  modifiedAt: modifiedAt(),
});

export const slackIntegrations = pgTable('slack_integrations', {
  vendorAppId: integer('vendor_app_id')
    .primaryKey()
    .references(() => apps.id, { onDelete: 'cascade' }),
  vendorId: integer('vendor_id').notNull(),
  slackBotName: text('slack_bot_name').notNull(),
  slackBotAlwaysOnline: boolean('slack_bot_always_online').notNull().default(true),
  isConfigured: boolean('is_configured').notNull().default(false),
  slackAppId: text('slack_app_id'),
  slackClientId: text('slack_client_id'),
  slackTeamId: text('slack_team_id'),
  slackTeamDomain: text('slack_team_domain'),
  /** The bot's own user id, so it never answers itself. */
  slackBotUserId: text('slack_bot_user_id'),
  /** Sealed JSON: client secret, signing secret, verification token, bot token. */
  secretsEnc: text('secrets_enc'),
  createdAt: createdAt(),
  modifiedAt: modifiedAt(),
});

/** One conversation per Slack thread (channel + thread timestamp), so a thread keeps its history. */
export const slackThreads = pgTable(
  'slack_threads',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id').notNull(),
    vendorAppId: integer('vendor_app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    channelId: text('channel_id').notNull(),
    threadTs: text('thread_ts').notNull(),
    conversationId: integer('conversation_id')
      .notNull()
      .references(() => conversations.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('slack_threads_uq').on(t.vendorAppId, t.channelId, t.threadTs)],
);

/** Slack event ids already taken, so Slack's retries of one event are answered once. */
export const slackEvents = pgTable(
  'slack_events',
  {
    vendorAppId: integer('vendor_app_id')
      .notNull()
      .references(() => apps.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.vendorAppId, t.eventId] })],
);

/** Vendor-level settings (SMTP, integration tokens), secrets encrypted inside `value`. */
export const vendorSettings = pgTable(
  'vendor_settings',
  {
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: jsonb('value').notNull(),
    modifiedAt: modifiedAt(),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.key] })],
);

/** A plan the operator sells; `limits` per period: {requests, tokens, apps, members}, null = unlimited. */
export const plans = pgTable('plans', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  priceMinor: bigint('price_minor', { mode: 'number' }).notNull().default(0),
  currency: text('currency').notNull().default('EUR'),
  interval: text('interval').notNull().default('month'),
  limits: jsonb('limits').notNull().default({}),
  active: boolean('active').notNull().default(true),
  /** The plan of vendors without a subscription (at most one). */
  isDefault: boolean('is_default').notNull().default(false),
  stripePriceId: text('stripe_price_id'),
  createdAt: createdAt(),
  modifiedAt: modifiedAt(),
});

export const subscriptions = pgTable(
  'subscriptions',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id),
    quantity: integer('quantity').notNull().default(1),
    /** active | trialing | past_due | incomplete | canceled */
    status: text('status').notNull(),
    /** Stripe's subscription id, when Stripe manages it. */
    externalId: text('external_id').unique(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    /**
     * When Stripe's state last applied here was Stripe's (its event's `created`): an older event never
     * overrides it (ADR 0024).
     */
    stripeStateAt: timestamp('stripe_state_at', { withTimezone: true }),
    createdAt: createdAt(),
    modifiedAt: modifiedAt(),
  },
  (t) => [index('subscriptions_vendor_idx').on(t.vendorId, t.id)],
);

export const invoices = pgTable(
  'invoices',
  {
    id: serial('id').primaryKey(),
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    subscriptionId: integer('subscription_id').references(() => subscriptions.id, { onDelete: 'set null' }),
    externalId: text('external_id').unique(),
    number: text('number'),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    periodStart: timestamp('period_start', { withTimezone: true }),
    periodEnd: timestamp('period_end', { withTimezone: true }),
    pdfUrl: text('pdf_url'),
    createdAt: createdAt(),
  },
  (t) => [index('invoices_vendor_idx').on(t.vendorId, t.id)],
);

/**
 * What a vendor used in one billing period, counted where usage happens: a send reserves its request
 * atomically (`requests < limit` in the same statement), so parallel sends on any instance never pass it.
 */
export const billingUsage = pgTable(
  'billing_usage',
  {
    vendorId: integer('vendor_id')
      .notNull()
      .references(() => vendors.id, { onDelete: 'cascade' }),
    periodStart: timestamp('period_start', { withTimezone: true }).notNull(),
    requests: integer('requests').notNull().default(0),
    tokens: bigint('tokens', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.vendorId, t.periodStart] })],
);

/** Stripe webhook events already applied (a replay changes nothing). */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});
