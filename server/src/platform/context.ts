import type { FastifyBaseLogger } from 'fastify';
import type { SessionVerifier } from '../modules/auth/sessions';
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
}
