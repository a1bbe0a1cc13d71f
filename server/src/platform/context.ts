import type { FastifyBaseLogger } from 'fastify';
import type { Broadcast } from './broadcast';
import type { Config } from './config';
import type { SecretBox } from './crypto';
import type { Database, Db } from './db';
import type { OutboundGuard } from './outbound/guard';
import type { RateLimiter } from './rate-limit';
import type { RelayHub } from './relay/hub';

/**
 * The process-wide platform services every module may use, nothing request-bound and nothing of a
 * domain: modules declare what else they need as ports, wired by the composition root (`app.ts`).
 */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  rateLimiter: RateLimiter;
  secretBox: SecretBox;
  log: FastifyBaseLogger;
  version: string;
  /** Notices every instance hears at once (Redis pub/sub with `REDIS_URL`). */
  broadcast: Broadcast;
  /** Publishes to conversation rooms (a no-op until a socket.io server is attached). */
  relay: RelayHub;
  /**
   * The base of every link in a mail or an answer (no trailing slash): `PUBLIC_URL`, else the address the
   * server listens on (set once it listens). Never taken from a request (docs/adr/0023-identity-across-tenants.md).
   */
  publicUrl: string;
  /** The only way to reach a destination a vendor typed (model base URLs, SMTP hosts): ADR 0020. */
  outbound: OutboundGuard;
}
