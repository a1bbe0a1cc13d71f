import type { SessionCreated } from '@llmor/contracts';
import { apiRequest } from '../../../lib/api/client';
import { ApiError } from '../../../lib/api/error';

export type SessionCreationFailure = 'network' | 'unavailable' | 'server' | 'failed';

/** Why creating a session failed (docs/reference/console.md texts: app.sessionErrors.<kind>). */
export class SessionCreationError extends Error {
  constructor(
    readonly kind: SessionCreationFailure,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'SessionCreationError';
  }
}

function classify(error: unknown): SessionCreationError {
  if (error instanceof ApiError) {
    if (error.status === 0) return new SessionCreationError('network', error.message);
    if (error.status === 502 || error.status === 503 || error.status === 504) {
      return new SessionCreationError('unavailable', error.message);
    }
    if (error.status >= 500) return new SessionCreationError('server', error.message);
    return new SessionCreationError('failed', error.message);
  }
  return new SessionCreationError('failed', error instanceof Error ? error.message : String(error));
}

/** POST /v1/auth/session (unsigned) → {token, secret}. */
export async function createSession(): Promise<SessionCreated> {
  try {
    const session = await apiRequest<SessionCreated>('/v1/auth/session', {
      method: 'POST',
      signed: false,
      skipInvalidSessionHandler: true,
    });
    if (!session || typeof session.token !== 'string' || typeof session.secret !== 'string') {
      throw new SessionCreationError('failed', 'malformed response');
    }
    return session;
  } catch (error) {
    throw error instanceof SessionCreationError ? error : classify(error);
  }
}
