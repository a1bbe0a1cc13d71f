/** Query keys of the conversations feature. */
export const conversationKeys = {
  /** Every page of an app's history list (refreshed when one is created here). */
  lists: (appId: number) => ['conversations', appId, 'list'] as const,
  list: (appId: number, page: number) => ['conversations', appId, 'list', page] as const,
  /** A conversation's newest page of messages. */
  detail: (token: string) => ['conversations', 'one', token] as const,
  /** The pages before it, loaded by scrolling up. */
  olderPages: (token: string) => ['conversations', 'one', token, 'older'] as const,
};
