import type { FastifyBaseLogger } from 'fastify';
import type { SessionVerifier } from '../modules/auth/sessions';
import type { CompletionEngine } from '../modules/completion/engine';
import type { RelayHub } from '../modules/relay/hub';
import type { Config } from './config';
import type { SecretBox } from './crypto';
import type { Database, Db } from './db';
import type { RateLimiter } from './rate-limit';

/** What every module's routes and services are given: the process-wide services, nothing request-bound. */
export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  sessions: SessionVerifier;
  rateLimiter: RateLimiter;
  secretBox: SecretBox;
  log: FastifyBaseLogger;
  version: string;
  /** Publishes to conversation rooms (a no-op until a socket.io server is attached). */
  relay: RelayHub;
  /** Answers conversation messages; its model resolver, tools and per-type responders are replaceable. */
  completion: CompletionEngine;
}
