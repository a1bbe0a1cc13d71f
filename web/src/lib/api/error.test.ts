import { describe, expect, it } from 'vitest';
import { ApiError, describeError } from './error';

describe('ApiError', () => {
  it('carries the server’s message, but a network failure has none (callers say it in their words)', () => {
    expect(new ApiError(409, { name: 'Conflict', message: 'A reply is still running.' }).serverMessage).toBe(
      'A reply is still running.',
    );
    const offline = new ApiError(0, { name: 'NetworkError', message: 'Failed to fetch' });
    expect(offline.serverMessage).toBeUndefined();
    expect(offline.status).toBe(0);
    // A banner still says what happened.
    expect(describeError(offline).title).toBe('NetworkError');
  });
});
