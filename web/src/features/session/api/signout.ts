import { apiRequest } from '../../../lib/api/client';

/** POST /v1/auth/signout → 204. */
export async function signout(): Promise<void> {
  await apiRequest<void>('/v1/auth/signout', { method: 'POST' });
}
