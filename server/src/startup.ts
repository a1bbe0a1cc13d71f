import { ConfigError } from './platform/config';
import { DataDirLockedError } from './platform/db/lock';
import { RedisStartError } from './platform/redis';

/** The error's own code or its cause's (drizzle wraps a driver error in "Failed query: …"). */
function codeOf(err: unknown): { code?: string; address?: string; port?: number } {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === 'string') return e as { code: string; address?: string; port?: number };
    e = e.cause as typeof e;
  }
  return {};
}

/** One line that names why the start failed and what to do, instead of a stack trace. */
export function startupFailure(err: unknown): string {
  if (err instanceof ConfigError || err instanceof DataDirLockedError || err instanceof RedisStartError) {
    return err.message;
  }
  const { code, address, port } = codeOf(err);
  const where = address ? `${address}:${port}` : 'the configured address';
  switch (code) {
    case 'EADDRINUSE':
      return `llmor failed to start: ${where} is already in use — stop the other process or set PORT.`;
    case 'EACCES':
      return `llmor failed to start: not allowed to listen on ${where} — choose a PORT above 1023.`;
    case 'ECONNREFUSED':
      return `llmor failed to start: nothing answers at ${where} — is the database (DATABASE_URL) or Redis (REDIS_URL) running?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'llmor failed to start: a host in DATABASE_URL or REDIS_URL cannot be resolved.';
    case '28P01':
    case '28000':
      return 'llmor failed to start: the database refused the credentials in DATABASE_URL.';
    case '3D000':
      return 'llmor failed to start: the database named in DATABASE_URL does not exist.';
  }
  return `llmor failed to start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
}
