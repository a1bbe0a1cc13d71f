/** Query keys of the session's calls. */
export const sessionKeys = {
  user: ['auth', 'session', 'user'] as const,
};
