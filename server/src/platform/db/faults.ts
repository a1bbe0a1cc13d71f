/**
 * What a failed statement says about the database itself (docs/adr/0054-dependable-when-the-database-fails.md):
 * out of reach (a dead or restarting server, a dropped connection, a pool that cannot connect) → 503 with
 * `Retry-After`; out of disk → 507. Anything else is the statement's own failure and stays what it was.
 */
import { type AppError, insufficientStorage, serviceUnavailable } from '../errors';

/** What a caller is told to wait before trying again while the database is out of reach. */
const DATABASE_RETRY_AFTER_SECONDS = 5;

/** The socket-level failures of a connection to the database (ENOENT: an embedded server's socket is gone). */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH']);

/**
 * SQLSTATEs of a server that cannot serve: class 08 (connection exception), 57P01–57P03 (shut down by an
 * administrator, crash, starting up or in recovery), 53300 (too many connections).
 */
const UNAVAILABLE_STATES = /^(08...|57P0[123]|53300)$/;
const DISK_FULL_STATE = '53100';

/** node-postgres' and pg-pool's own words for a connection that ended or never came. */
const CONNECTION_MESSAGES = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
];

type DatabaseFault = 'unavailable' | 'disk-full';

/** Classifies an error and the causes it wraps (drizzle wraps the driver's error as `cause`). */
function databaseFault(error: unknown): DatabaseFault | undefined {
  for (let err = error, depth = 0; err instanceof Error && depth < 5; err = err.cause, depth++) {
    const { code, syscall } = err as { code?: unknown; syscall?: unknown };
    if (code === DISK_FULL_STATE) return 'disk-full';
    if (typeof code === 'string' && UNAVAILABLE_STATES.test(code) && 'severity' in err) return 'unavailable';
    if (typeof code === 'string' && CONNECTION_CODES.has(code)) return 'unavailable';
    if (code === 'ENOENT' && syscall === 'connect') return 'unavailable';
    if (CONNECTION_MESSAGES.some((text) => err.message.startsWith(text))) return 'unavailable';
  }
  return undefined;
}

/** The answer a database fault gets (503 + Retry-After, or 507), or undefined for any other error. */
export function databaseFaultError(error: unknown): AppError | undefined {
  const fault = databaseFault(error);
  if (fault === 'disk-full') return insufficientStorage();
  if (fault === 'unavailable') return serviceUnavailable(DATABASE_RETRY_AFTER_SECONDS);
  return undefined;
}
