export const accountKeys = {
  all: ['account'] as const,
  me: () => ['account', 'me'] as const,
  sessions: () => ['account', 'sessions'] as const,
  invitations: () => ['account', 'invitations'] as const,
};
