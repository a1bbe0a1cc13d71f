/** Query and mutation keys of the sign-in and link screens. */
export const authKeys = {
  link: (token: string) => ['auth', 'link', token] as const,
  signin: ['auth', 'signin'] as const,
};
