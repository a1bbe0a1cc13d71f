import { z } from 'zod';

export const sessionCreated = z.object({ token: z.string(), secret: z.string() });
export type SessionCreated = z.infer<typeof sessionCreated>;

/** The decoded `X-AccessToken` header (base64 of this JSON). */
export const accessTokenHeader = z.object({
  token: z.string().min(1).max(200),
  timestamp: z.number().int(),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});
export type AccessTokenHeader = z.infer<typeof accessTokenHeader>;

export const signinBody = z.object({
  identifier: z.string().trim().min(1).max(320),
  secret: z.string().min(1).max(1024),
});
export type SigninBody = z.infer<typeof signinBody>;

export interface User {
  id: number;
  email: string;
  firstname: string;
  lastname: string;
  currency: string | null;
  is_su: boolean;
  active: boolean;
  last_login: string | null;
  created_at: string;
}

export interface Vendor {
  id: number;
  key: string;
  name: string;
  currency: string;
  created_at: string;
}

export interface AppConfig {
  currency_default: string;
  default_locale: string;
  version: string;
}

export interface SessionUser {
  app: AppConfig;
  user: User | null;
  vendor: Vendor | null;
  vendor_client: null;
  authenticated: boolean;
}
